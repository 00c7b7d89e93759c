// The scale benches' shared timing (issue 25, 27): one request timed to its last byte, a
// series of them summed up as median and p95, and the machine's load average to print beside
// every figure (the machine is shared: a figure means little without it). Used by
// scale-public.ts and scale-publication.ts; kept free of any server or database.
import { loadavg } from 'node:os';

export type Sample = { ms: number; bytes: number; status: number };

/** One request, timed from sending to its body's last byte. */
export async function timed(url: string, headers: Record<string, string> = {}): Promise<Sample> {
  const started = performance.now();
  const response = await fetch(url, { headers });
  const body = await response.arrayBuffer();
  return { ms: performance.now() - started, bytes: body.byteLength, status: response.status };
}

/** The value at quantile `q` (0…1) of `values`, nearest rank; NaN for none. */
export function quantile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  return sorted[
    Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))
  ] as number;
}

export type Series = { ms: number; p95: number; bytes: number; status: number };

/** `runs` requests one after the other: their median and p95, the first one's size and status. */
export async function repeat(
  url: string,
  runs: number,
  headers: Record<string, string> = {},
): Promise<Series> {
  const samples: Sample[] = [];
  for (let i = 0; i < runs; i++) samples.push(await timed(url, headers));
  const times = samples.map((sample) => sample.ms);
  return {
    ms: quantile(times, 0.5),
    p95: quantile(times, 0.95),
    bytes: samples[0]?.bytes ?? 0,
    status: samples[0]?.status ?? 0,
  };
}

/** The 1-minute load average now, as printed beside a figure. */
export const load = () => loadavg()[0]?.toFixed(2) ?? '?';
