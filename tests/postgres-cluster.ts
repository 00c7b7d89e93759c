// A throw-away PostgreSQL cluster of the test's own, for fault tests that stop the database:
// `initdb` into a temporary folder and `pg_ctl` on a port the OS had free, run as the
// `postgres` user (initdb refuses root). Only this cluster is ever stopped or started.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

function postgresBin(): string | null {
  const root = '/usr/lib/postgresql';
  try {
    const versions = readdirSync(root)
      .filter((name) => /^\d+$/.test(name))
      .sort((a, b) => Number(b) - Number(a));
    return versions[0] ? path.join(root, versions[0], 'bin') : null;
  } catch {
    return null;
  }
}

/** Whether this machine can make a cluster: PostgreSQL's binaries, and root to run them as postgres. */
export function canMakeCluster(): boolean {
  return postgresBin() !== null && process.getuid?.() === 0;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

function asPostgres(args: string[]): { code: number; output: string } {
  const run = Bun.spawnSync(['runuser', '-u', 'postgres', '--', ...args], {
    stdout: 'pipe',
    stderr: 'pipe',
  });
  return {
    code: run.exitCode ?? 1,
    output: `${run.stdout.toString()}${run.stderr.toString()}`,
  };
}

export type Cluster = {
  /** The cluster's `postgres` database, as its superuser. */
  adminUrl: string;
  /** A URL for database `name` on this cluster. */
  urlOf(name: string): string;
  start(): void;
  /** A fast shutdown: clients are disconnected, nothing committed is lost. */
  stop(): void;
  /**
   * Hangs it without stopping it (SIGSTOP to its postmaster and every backend, by pid): it
   * accepts connections and statements and answers none. Returns the undo (SIGCONT to the
   * same pids); call it in a `finally`, so nothing is left stopped.
   */
  pause(): () => void;
  /** Stops it for good and removes its files. */
  destroy(): void;
};

export async function startCluster(): Promise<Cluster> {
  const bin = postgresBin();
  if (!bin) throw new Error('no PostgreSQL binaries under /usr/lib/postgresql');
  const dir = mkdtempSync(path.join(tmpdir(), 'folio-pg-'));
  Bun.spawnSync(['chown', 'postgres:postgres', dir]);
  const data = path.join(dir, 'data');
  const port = await freePort();
  const init = asPostgres([
    path.join(bin, 'initdb'),
    '-D',
    data,
    '-A',
    'trust',
    '-U',
    'postgres',
    '--no-sync',
  ]);
  if (init.code !== 0) throw new Error(`initdb failed:\n${init.output}`);
  const pgCtl = (...args: string[]) => asPostgres([path.join(bin, 'pg_ctl'), '-D', data, ...args]);
  const start = () => {
    const started = pgCtl(
      '-o',
      `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`,
      '-l',
      path.join(dir, 'log'),
      '-w',
      'start',
    );
    if (started.code !== 0) throw new Error(`pg_ctl start failed:\n${started.output}`);
  };
  start();
  const urlOf = (name: string) => `postgres://postgres@127.0.0.1:${port}/${name}`;
  return {
    adminUrl: urlOf('postgres'),
    urlOf,
    start,
    pause() {
      const postmaster = Number(
        readFileSync(path.join(data, 'postmaster.pid'), 'utf8').split('\n')[0],
      );
      const children = Bun.spawnSync(['pgrep', '-P', String(postmaster)])
        .stdout.toString()
        .split('\n')
        .map(Number)
        .filter((pid) => Number.isSafeInteger(pid) && pid > 0);
      const pids = [postmaster, ...children];
      const signal = (name: NodeJS.Signals) => {
        for (const pid of pids)
          try {
            process.kill(pid, name);
          } catch {
            // Gone meanwhile (a backend whose client left).
          }
      };
      signal('SIGSTOP');
      return () => signal('SIGCONT');
    },
    stop() {
      const stopped = pgCtl('-m', 'fast', '-w', 'stop');
      if (stopped.code !== 0) throw new Error(`pg_ctl stop failed:\n${stopped.output}`);
    },
    destroy() {
      pgCtl('-m', 'immediate', '-w', 'stop');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
