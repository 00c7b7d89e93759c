// `bun run check`: everything a change must pass, as fast as two cores allow. First the type
// check, the lint and the build side by side (none reads what another writes: tsc and Biome
// read sources, the build writes dist/), each one's output kept and printed whole when it
// ends; the first failure names its step and stops the run. Then the tests, which need the
// build: `bun run test` (both engines at once, scripts/test-engines.ts), then
// `bun run test:e2e` — one after the other, with their output live.
const STEPS_SIDE_BY_SIDE = [
  { name: 'typecheck', command: ['bun', 'run', 'typecheck'] },
  { name: 'lint', command: ['bun', 'run', 'lint'] },
  { name: 'build', command: ['bun', 'run', 'build'] },
];
const TEST_STEPS = [
  { name: 'test', command: ['bun', 'run', 'test'] },
  { name: 'test:e2e', command: ['bun', 'run', 'test:e2e'] },
];

const startedAt = performance.now();
const since = (at: number) => `${((performance.now() - at) / 1000).toFixed(0)} s`;

async function buffered({ name, command }: { name: string; command: string[] }) {
  const started = performance.now();
  const run = Bun.spawn(command, { stdin: 'ignore', stdout: 'pipe', stderr: 'pipe' });
  let output = '';
  const keep = async (stream: ReadableStream<Uint8Array>) => {
    const decoder = new TextDecoder();
    for await (const chunk of stream) output += decoder.decode(chunk, { stream: true });
  };
  await Promise.all([keep(run.stdout), keep(run.stderr)]);
  const code = await run.exited;
  const verdict = code === 0 ? 'passed' : `FAILED (exit ${code})`;
  process.stderr.write(
    `\n── check: ${name} ${verdict} in ${since(started)} ──\n${output.trimEnd()}\n`,
  );
  return { name, code };
}

console.error(`check: ${STEPS_SIDE_BY_SIDE.map((step) => step.name).join(', ')} side by side`);
const first = await Promise.all(STEPS_SIDE_BY_SIDE.map(buffered));
const failedFirst = first.filter((step) => step.code !== 0);
if (failedFirst.length > 0) {
  console.error(`check: FAILED: ${failedFirst.map((step) => step.name).join(', ')}`);
  process.exit(failedFirst[0]?.code ?? 1);
}

for (const { name, command } of TEST_STEPS) {
  const started = performance.now();
  console.error(`\ncheck: ${name}`);
  const code = await Bun.spawn(command, { stdio: ['inherit', 'inherit', 'inherit'] }).exited;
  if (code !== 0) {
    console.error(`check: FAILED: ${name} (exit ${code}, after ${since(started)})`);
    process.exit(code);
  }
  console.error(`check: ${name} passed in ${since(started)}`);
}
console.error(`check: passed in ${since(startedAt)}`);

// A module (top-level await).
export {};
