// HAProxy with the shipped configuration (docs/deploy/haproxy.cfg), rewritten for the ports of
// `bun run stack`: its own listening port and one `server` line per instance, each made from
// the shipped first one (so its health-check settings are the ones the file documents).
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { type Child, findProgram, poll, spawnTethered, statusOf } from './processes';

export const SHIPPED_HAPROXY_CFG = path.resolve(import.meta.dir, '../../docs/deploy/haproxy.cfg');

const BIND_LINE = /^(\s*)bind 127\.0\.0\.1:\d+$/;
const SERVER_LINE = /^(\s*)server folio\d+ 127\.0\.0\.1:\d+( .*)?$/;

/** haproxy's path, or null where Debian's `haproxy` is not installed. */
export function findHaproxy(): string | null {
  return findProgram('haproxy');
}

/** The shipped configuration listening on `port` and balancing `instancePorts`. */
export function haproxyConfigFor(port: number, instancePorts: readonly number[]): string {
  const shipped = readFileSync(SHIPPED_HAPROXY_CFG, 'utf8').split('\n');
  const lines: string[] = [];
  let bound = false;
  let served = false;
  for (const line of shipped) {
    const bind = BIND_LINE.exec(line);
    const server = SERVER_LINE.exec(line);
    if (bind) {
      lines.push(`${bind[1]}bind 127.0.0.1:${port}`);
      bound = true;
    } else if (server && !served) {
      // The first shipped server line becomes all of them; the others go.
      for (const [i, instancePort] of instancePorts.entries())
        lines.push(`${server[1]}server folio${i + 1} 127.0.0.1:${instancePort}${server[2] ?? ''}`);
      served = true;
    } else if (!server) lines.push(line);
  }
  if (!bound || !served)
    throw new Error(`${SHIPPED_HAPROXY_CFG} no longer has a bind line and server lines`);
  return lines.join('\n');
}

export type RunningHaproxy = Child & { url: string; port: number };

export async function startHaproxy({
  port,
  instancePorts,
  workDir,
  onLine,
}: {
  port: number;
  instancePorts: readonly number[];
  workDir: string;
  onLine?: (line: string) => void;
}): Promise<RunningHaproxy> {
  const haproxy = findHaproxy();
  if (!haproxy) throw new Error('haproxy is not installed (apt-get install -y haproxy)');
  const config = path.join(workDir, 'haproxy.cfg');
  writeFileSync(config, haproxyConfigFor(port, instancePorts));
  // -db: in the foreground, its warnings (an instance DOWN or UP) on stderr.
  const child = await spawnTethered('haproxy', [haproxy, '-db', '-f', config], { onLine });
  const url = `http://127.0.0.1:${port}`;
  try {
    await poll(async () => ((await statusOf(`${url}/healthz`)) === 200 ? true : undefined), {
      timeoutMs: 30_000,
      what: () => `haproxy to answer at ${url} (it said: ${child.output().slice(-500)})`,
    });
  } catch (error) {
    await child.stop('SIGKILL');
    throw error;
  }
  return { ...child, url, port };
}
