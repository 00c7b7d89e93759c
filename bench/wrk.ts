// The load generator of the benches (bench/run.ts, bench/stack.ts): wrk, Debian's `wrk`
// package, for a fixed duration, its figures read from its report.

export type WrkResult = { rps: number; p50: number; p99: number; requests: number; errors: number };

/** wrk's path, or null where it is not installed. */
export const wrkPath = Bun.which('wrk');

/** Exits the bench with a line that says what to install, where wrk is missing. */
export function requireWrk(): string {
  if (!wrkPath) {
    console.error(
      'bench: wrk is not installed (apt-get install wrk); it is the load generator this benchmark uses.',
    );
    process.exit(2);
  }
  return wrkPath;
}

function toMs(value: string, unit: string): number {
  const n = Number(value);
  return unit === 'us' ? n / 1000 : unit === 's' ? n * 1000 : n;
}

/** `wrk` against `url` for `seconds` with `connections` (2 threads at most). */
export async function wrk(
  url: string,
  connections: number,
  seconds: number,
  headers: string[] = [],
): Promise<WrkResult> {
  const args = [
    requireWrk(),
    `-t${Math.min(2, connections)}`,
    `-c${connections}`,
    `-d${seconds}s`,
    '--latency',
  ];
  for (const header of headers) args.push('-H', header);
  args.push(url);
  const run = Bun.spawnSync(args, { stdout: 'pipe', stderr: 'pipe' });
  const out = run.stdout.toString();
  const latency = (p: string) => {
    const match = new RegExp(`\\s${p}%\\s+([\\d.]+)(us|ms|s)`).exec(out);
    return match ? toMs(match[1] as string, match[2] as string) : Number.NaN;
  };
  const errors = /Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1];
  const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out);
  return {
    rps: Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? Number.NaN),
    p50: latency('50'),
    p99: latency('99'),
    requests: Number(/(\d+) requests in/.exec(out)?.[1] ?? 0),
    errors:
      Number(errors ?? 0) + (socket ? socket.slice(1).reduce((sum, n) => sum + Number(n), 0) : 0),
  };
}
