// Varnish with the shipped VCL (docs/deploy/varnish.vcl), its backend pointed at a port on this
// machine: for `bun run stack` (in front of HAProxy) and tests/integration/varnish.test.ts (in
// front of one Folio). Everything of it lives in a folder the caller gives (a temporary one),
// and it is stopped by its pid.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { type Child, findProgram, poll, spawnTethered, statusOf } from './processes';

export const SHIPPED_VCL = path.resolve(import.meta.dir, '../../docs/deploy/varnish.vcl');

/** varnishd's path, or null where Debian's `varnish` is not installed. */
export function findVarnishd(): string | null {
  return findProgram('varnishd');
}

/** The shipped VCL with its backend at 127.0.0.1:`backendPort` (instead of 3000). */
export function vclFor(backendPort: number): string {
  const shipped = readFileSync(SHIPPED_VCL, 'utf8');
  const pointed = shipped.replace('.port = "3000";', `.port = "${backendPort}";`);
  if (pointed === shipped) throw new Error(`${SHIPPED_VCL} no longer has .port = "3000";`);
  return pointed;
}

export type RunningVarnish = Child & { url: string; port: number };

export async function startVarnish({
  port,
  backendPort,
  workDir,
  storage = 'malloc,64m',
  onLine,
}: {
  port: number;
  backendPort: number;
  /** Its VCL and its state (`-n`) go here. */
  workDir: string;
  storage?: string;
  onLine?: (line: string) => void;
}): Promise<RunningVarnish> {
  const varnishd = findVarnishd();
  if (!varnishd) throw new Error('varnishd is not installed (apt-get install -y varnish)');
  const vcl = path.join(workDir, 'folio.vcl');
  writeFileSync(vcl, vclFor(backendPort));
  // -F: in the foreground, stopped by its pid; -j none: no jail (it runs as whoever starts it);
  // -T on an OS-picked loopback port: the management port nobody else needs to know.
  const child = await spawnTethered(
    'varnish',
    [
      varnishd,
      '-F',
      '-j',
      'none',
      '-n',
      path.join(workDir, 'varnish-state'),
      '-a',
      `127.0.0.1:${port}`,
      '-T',
      '127.0.0.1:0',
      '-f',
      vcl,
      '-s',
      storage,
    ],
    { onLine },
  );
  const url = `http://127.0.0.1:${port}`;
  try {
    // Any answer from Varnish itself will do (a 503 while its backend is not up yet).
    await poll(async () => ((await statusOf(`${url}/healthz`)) === null ? undefined : true), {
      timeoutMs: 30_000,
      what: () => `varnishd to answer at ${url} (it said: ${child.output().slice(-500)})`,
    });
  } catch (error) {
    await child.stop('SIGKILL');
    throw error;
  }
  return { ...child, url, port };
}
