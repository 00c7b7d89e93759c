// The deployment recipe on one machine (issue 29, docs/decisions/0048): PostgreSQL, N Folio
// instances (`bun run start` each, as the README starts one), HAProxy balancing them with
// health checks (docs/deploy/haproxy.cfg), and Varnish in front of HAProxy
// (docs/deploy/varnish.vcl) which every instance purges. Loopback ports only. `bun run stack`
// (scripts/stack.ts) runs it for a person; tests/integration/stack.test.ts and
// bench/stack.ts start it through `startStack` here, so what is tested is what is run.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SQL } from 'bun';
import { startHaproxy } from './haproxy';
import { type Child, poll, portIsFree, spawnTethered, statusOf } from './processes';
import { startVarnish } from './varnish';

const ROOT = path.resolve(import.meta.dir, '../..');

export const DEFAULT_POSTGRES_ADMIN_URL = 'postgres://postgres@127.0.0.1:5432/postgres';

export type StackOptions = {
  /** Folio's database (postgres://…). Unset: a new one is made on `postgresAdminUrl`. */
  databaseUrl?: string;
  /** Where a new database is made (and dropped at stop unless `keepDatabase`). */
  postgresAdminUrl?: string;
  keepDatabase?: boolean;
  /** How many Folio instances (default 2). */
  instances?: number;
  /** Varnish's port: the site's address (default 6081). */
  port?: number;
  /** HAProxy's port (default 8080). */
  balancerPort?: number;
  /** The first instance's port; the others follow it (default 3001). */
  firstInstancePort?: number;
  /** Ports of their own for each instance instead (a test's, picked by the OS). */
  instancePorts?: readonly number[];
  /** More environment for every instance (SITE_URL, SENTRY_DSN…). */
  env?: Record<string, string | undefined>;
  /** Each line a process prints, with its name (the CLI prints them; a test keeps them). */
  onLine?: (name: string, line: string) => void;
  /** Aborted (Ctrl-C while it starts): it stops what it started so far and throws. */
  signal?: AbortSignal;
};

export type StackInstance = Child & {
  /** 1-based, as HAProxy names it: `folio1`. */
  index: number;
  port: number;
  url: string;
  /** The server process's own pid (`bun run start` runs it as a child of its own). */
  serverPid: number;
  /** SIGKILLs the server itself (not `bun run start`), as a crash would end it. */
  crash: () => Promise<void>;
};

export type RunningStack = {
  /** Varnish: where visitors go. */
  url: string;
  /** HAProxy, behind Varnish. */
  balancerUrl: string;
  databaseUrl: string;
  instances: StackInstance[];
  haproxy: Child;
  varnish: Child;
  /**
   * Waits until every purge recorded so far has been sent to Varnish (or given up). A write from
   * outside the instances (a test's, the CLI's) is purged by an instance's poll within about a
   * second: a page cached before that is banned under the reader's feet.
   */
  purgesSent: (timeoutMs?: number) => Promise<void>;
  /** Stops everything it started, by pid, in reverse order; drops a database it made. */
  stop: () => Promise<void>;
};

type Stoppable = { stop: () => Promise<unknown> };

function processIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as { code?: unknown }).code === 'EPERM';
  }
}

/** Removes the folders of stacks whose process is gone (killed before it could). */
function sweepWorkDirs(): void {
  for (const name of readdirSync(tmpdir())) {
    const pid = Number(/^folio-stack-(\d+)-/.exec(name)?.[1]);
    if (pid && !processIsAlive(pid))
      rmSync(path.join(tmpdir(), name), { recursive: true, force: true });
  }
}

/**
 * A database of its own on the local PostgreSQL, dropped by the returned function. One to drop
 * is named after this process, so the next start drops those of a stack that was killed before
 * it could (`kept` ones are named without a pid and left alone).
 */
async function makeDatabase(
  adminUrl: string,
  kept: boolean,
): Promise<{ url: string; drop: () => Promise<void> }> {
  const stamp = Date.now().toString(36);
  const name = kept ? `folio_stack_kept_${stamp}` : `folio_stack_${process.pid}_${stamp}`;
  const admin = new SQL(adminUrl, { max: 1, connectionTimeout: 5 });
  try {
    const rows = await admin<{ datname: string }[]>`
      SELECT datname FROM pg_database WHERE datname ~ '^folio_stack_[0-9]+_'`;
    for (const { datname } of rows)
      if (!processIsAlive(Number(/^folio_stack_(\d+)_/.exec(datname)?.[1])))
        await admin.unsafe(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
    await admin.unsafe(`CREATE DATABASE "${name}"`);
  } catch (error) {
    throw new Error(
      `cannot make a database on ${adminUrl} (${error instanceof Error ? error.message : String(error)}); start PostgreSQL or give DATABASE_URL`,
    );
  } finally {
    await admin.close();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const dropper = new SQL(adminUrl, { max: 1 });
      try {
        await dropper.unsafe(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      } finally {
        await dropper.close();
      }
    },
  };
}

/** `bun run folio db migrate`, as an operator runs it before starting instances. */
async function migrate(databaseUrl: string): Promise<void> {
  const run = Bun.spawn(['bun', 'run', '--silent', 'folio', 'db', 'migrate'], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: databaseUrl },
    stdout: 'pipe',
    stderr: 'pipe',
  });
  const [code, out, err] = await Promise.all([
    run.exited,
    new Response(run.stdout).text(),
    new Response(run.stderr).text(),
  ]);
  if (code !== 0) throw new Error(`bun run folio db migrate failed (${code}):\n${out}${err}`);
}

async function startInstance(
  index: number,
  port: number,
  env: Record<string, string | undefined>,
  onLine?: (name: string, line: string) => void,
): Promise<StackInstance> {
  const name = `folio${index}`;
  let listening: (pid: number) => void = () => undefined;
  const announced = new Promise<number>((resolve) => {
    listening = resolve;
  });
  const child = await spawnTethered(name, ['bun', 'run', 'start'], {
    cwd: ROOT,
    env: { ...process.env, ...env, PORT: String(port) },
    onLine: (line) => {
      const said = /"msg":"listening","url":"[^"]+","pid":(\d+)/.exec(line);
      if (said) listening(Number(said[1]));
      onLine?.(name, line);
    },
  });
  const url = `http://127.0.0.1:${port}`;
  // A build on a fresh checkout comes first (bun run start makes it; instances take turns).
  let timer: ReturnType<typeof setTimeout> | undefined;
  const outcome = await Promise.race([
    announced,
    child.exited.then(() => 'exited' as const),
    new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), 180_000);
    }),
  ]);
  clearTimeout(timer);
  if (typeof outcome !== 'number') {
    await child.stop('SIGKILL');
    throw new Error(`${name} did not start (${outcome}):\n${child.output().slice(-2_000)}`);
  }
  const serverPid = outcome;
  return {
    ...child,
    index,
    port,
    url,
    serverPid,
    crash: async () => {
      try {
        process.kill(serverPid, 'SIGKILL');
      } catch {
        // Gone already.
      }
      await child.exited;
    },
  };
}

export async function startStack(options: StackOptions = {}): Promise<RunningStack> {
  const count = options.instances ?? 2;
  if (!Number.isInteger(count) || count < 1 || count > 16)
    throw new Error('instances must be a whole number from 1 to 16');
  const port = options.port ?? 6081;
  const balancerPort = options.balancerPort ?? 8080;
  const firstInstancePort = options.firstInstancePort ?? 3001;
  const instancePorts =
    options.instancePorts ?? Array.from({ length: count }, (_, i) => firstInstancePort + i);
  if (instancePorts.length !== count)
    throw new Error(`${count} instances need ${count} ports, not ${instancePorts.length}`);
  const ports = [port, balancerPort, ...instancePorts];
  if (new Set(ports).size !== ports.length) throw new Error(`ports repeat: ${ports.join(', ')}`);
  const taken = ports.filter((candidate) => !portIsFree(candidate));
  if (taken.length > 0)
    throw new Error(`port ${taken.join(', ')} already in use on 127.0.0.1: choose others`);
  if (options.databaseUrl && !/^postgres(?:ql)?:\/\//.test(options.databaseUrl))
    throw new Error(
      'the stack runs on PostgreSQL: DATABASE_URL must be postgres://…, or unset to make one',
    );

  // Everything started so far, stopped in reverse order if a later step fails, or at stop().
  const started: Stoppable[] = [];
  const stopAll = async () => {
    for (const each of started.reverse()) await each.stop().catch(() => undefined);
    started.length = 0;
  };
  const checkpoint = () => {
    if (options.signal?.aborted) throw new Error('stopped while starting');
  };
  sweepWorkDirs();
  const workDir = mkdtempSync(path.join(tmpdir(), `folio-stack-${process.pid}-`));
  started.push({ stop: async () => rmSync(workDir, { recursive: true, force: true }) });
  try {
    let databaseUrl = options.databaseUrl;
    if (!databaseUrl) {
      const made = await makeDatabase(
        options.postgresAdminUrl ?? DEFAULT_POSTGRES_ADMIN_URL,
        options.keepDatabase ?? false,
      );
      databaseUrl = made.url;
      if (!options.keepDatabase) started.push({ stop: made.drop });
    }
    await migrate(databaseUrl);
    checkpoint();

    const front = `http://127.0.0.1:${port}`;
    const env = {
      ...options.env,
      DATABASE_URL: databaseUrl,
      HOST: '127.0.0.1',
      // Varnish, then HAProxy: the client's address is the second from the right.
      TRUST_PROXY: '2',
      // Every instance purges the one Varnish.
      PURGE_URL: `${front}/`,
    };
    // Varnish first: the instances purge it from their first write (the demo content seeded
    // into an empty database), and it answers 503 until HAProxy has an instance.
    const varnish = await startVarnish({
      port,
      backendPort: balancerPort,
      workDir,
      storage: 'malloc,256m',
      onLine: (line) => options.onLine?.('varnish', line),
    });
    started.push(varnish);
    checkpoint();
    // Together, as instances behind a balancer start: the first to come seeds an empty database.
    const starting = await Promise.allSettled(
      instancePorts.map((instancePort, i) =>
        startInstance(i + 1, instancePort, env, options.onLine),
      ),
    );
    const instances: StackInstance[] = [];
    for (const outcome of starting)
      if (outcome.status === 'fulfilled') {
        instances.push(outcome.value);
        started.push(outcome.value);
      }
    const failed = starting.find((outcome) => outcome.status === 'rejected');
    if (failed) throw failed.reason;
    checkpoint();
    for (const instance of instances)
      await poll(
        async () => {
          checkpoint();
          return (await statusOf(`${instance.url}/healthz`)) === 200 ? true : undefined;
        },
        {
          timeoutMs: 60_000,
          what: () => `folio${instance.index} to be healthy:\n${instance.output().slice(-1_000)}`,
        },
      );

    const haproxy = await startHaproxy({
      port: balancerPort,
      instancePorts,
      workDir,
      onLine: (line) => options.onLine?.('haproxy', line),
    });
    started.push(haproxy);
    checkpoint();
    // The whole way through: Varnish → HAProxy → an instance.
    await poll(async () => ((await statusOf(`${front}/`)) === 200 ? true : undefined), {
      timeoutMs: 30_000,
      what: `the site to answer through Varnish at ${front}/`,
    });
    let stopping: Promise<void> | null = null;
    return {
      url: front,
      balancerUrl: haproxy.url,
      databaseUrl,
      instances,
      haproxy,
      varnish,
      purgesSent: async (timeoutMs = 15_000) => {
        const sql = new SQL(databaseUrl, { max: 1 });
        try {
          await poll(
            async () => {
              const [row] = await sql<{ waiting: number }[]>`
                SELECT count(*)::int AS waiting FROM cache_purges WHERE done_at IS NULL`;
              return row?.waiting === 0 ? true : undefined;
            },
            { timeoutMs, what: 'every recorded purge to be sent to Varnish' },
          );
        } finally {
          await sql.close();
        }
      },
      stop: () => {
        stopping ??= stopAll();
        return stopping;
      },
    };
  } catch (error) {
    await stopAll();
    throw error;
  }
}
