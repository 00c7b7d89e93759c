// Runs a command with its output kept rather than shown: both streams into one record, in the
// order they came, as a terminal would show them. For scripts that run steps side by side and
// print each step's output whole when it ends (check.ts, test-engines.ts).
export async function runCaptured(
  command: string[],
  env: Record<string, string | undefined> = process.env,
): Promise<{ code: number; output: string }> {
  const run = Bun.spawn(command, { env, stdin: 'ignore', stdout: 'pipe', stderr: 'pipe' });
  let output = '';
  const keep = async (stream: ReadableStream<Uint8Array>) => {
    const decoder = new TextDecoder();
    for await (const chunk of stream) output += decoder.decode(chunk, { stream: true });
  };
  await Promise.all([keep(run.stdout), keep(run.stderr)]);
  return { code: await run.exited, output };
}
