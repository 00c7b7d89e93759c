// Starts Folio the way the README does (`bun run start`) as a child process: on a throw-away
// database of the run's engine (tests/databases.ts), on a port the OS picks (PORT=0, the
// address read from the `listening` log line), with its log kept so a test can look for what
// the server reported.
//
// The server runs under a small shell (SUPERVISOR below), not as bun test's own child: when a
// test times out, bun test SIGTERMs every process the test process has spawned ("killed 1
// dangling process"), including a server a whole file shares from beforeAll — so one slow test
// turned every later test of the file into ECONNREFUSED. The shell ignores that SIGTERM; the
// harness signals `bun run start` itself, and the shell ends the server when bun test goes away.
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { type ContentStore, createContentStore } from '../src/lib/content/content';
import { contentVersionOf } from '../src/lib/data/content-version';
import { type Database, openDatabase } from '../src/lib/data/db';
import { cardDirectoryFor } from '../src/lib/social-card/card-store';
import { dropSoon, seededThrowAwayDatabase, type ThrowAwayDatabase } from './databases';

export type LogLine = { level?: string; msg?: string } & Record<string, unknown>;

export type RunningFolio = {
  /** `http://127.0.0.1:<port>` */
  url: string;
  port: number;
  /** DATABASE_URL of the server. */
  databaseUrl: string;
  /** The SQLite file the server uses, or null on PostgreSQL. */
  databaseFile: string | null;
  /** A connection of the test's own to the server's database (closed at stop). */
  database: () => Promise<Database>;
  /** The server process itself (`bun run` starts it as a child of its own). */
  pid: number;
  /** Everything the process printed, both streams. */
  output: () => string;
  /** The JSON log lines among it. */
  logLines: () => LogLine[];
  /** `unexpected error` log lines: each is a bug the server reported. */
  unexpectedErrors: () => LogLine[];
  /**
   * Sends the signal (SIGTERM by default) and waits for the process to exit; then closes the
   * test's connection and drops a database the harness made.
   */
  stop: (signal?: NodeJS.Signals) => Promise<number>;
  exited: Promise<number>;
};

/** A throw-away database with the demo content, made before a server starts on it. */
export function seededDatabase(): Promise<ThrowAwayDatabase> {
  return seededThrowAwayDatabase();
}

/**
 * A seeded throw-away database with the table that holds published text dropped: every
 * uncached page render fails, the way a damaged or half-migrated database would.
 */
export async function damagedDatabase(): Promise<ThrowAwayDatabase> {
  const made = await seededDatabase();
  const db = await openDatabase(made.url, { migrate: false });
  await db.query.unsafe(
    made.engine === 'sqlite'
      ? 'PRAGMA foreign_keys = OFF; DROP TABLE revisions;'
      : 'DROP TABLE revisions CASCADE',
  );
  await db.close();
  return made;
}

/** Runs `work` on a content store over a server's database, from the test's own connection. */
export async function withStore<T>(
  folio: RunningFolio,
  work: (store: ContentStore) => Promise<T>,
): Promise<T> {
  const db = await folio.database();
  const result = await work(createContentStore(db));
  if (db.engine === 'postgres') await serverHasHeard(folio, contentVersionOf(db).current());
  return result;
}

/**
 * On PostgreSQL the test's own listener hears a publish's NOTIFY at about the moment the
 * server's does, but not necessarily first: a request sent at once could still beat the
 * notification to the server. The test waits for the version the server says it serves (on
 * /healthz), as a user who saw "published" on one instance waits a few milliseconds for the
 * next page of another.
 */
async function serverHasHeard(folio: RunningFolio, version: number): Promise<void> {
  await waitFor(
    async () => {
      const response = await fetch(`${folio.url}/healthz`);
      await response.arrayBuffer();
      const served = Number(response.headers.get('x-folio-content-version') ?? -1);
      return served >= version ? true : undefined;
    },
    { timeoutMs: 5_000, what: `the server to serve content version ${version}` },
  );
}

const START_TIMEOUT_MS = 60_000;

/**
 * Runs `bun run start` in the background, names its pid on the first line, and waits for it,
 * exiting with its code. It ignores SIGTERM (bun test's sweep of a timed-out test's processes),
 * having started the server first so the server keeps the default. Its stdin is a pipe from the
 * test process: at EOF (stop, or bun test gone however it went) it SIGTERMs the server, so no
 * server outlives the run.
 */
const SUPERVISOR = [
  'exec 3<&0',
  'bun run start </dev/null & server=$!',
  'echo "folio-harness: bun run start is pid $server"',
  "trap '' TERM",
  '{ cat <&3 >/dev/null; kill -TERM "$server"; } </dev/null >/dev/null 2>&1 &',
  'wait "$server"',
].join('\n');
const SUPERVISOR_LINE = /folio-harness: bun run start is pid (\d+)\n/;

/** A port no one listens on now (the OS picks it; it is free again at once), for a server
 * that must know its address before it starts (SITE_URL, a sidecar's URL). */
export function freePort(): number {
  const probe = Bun.listen({ hostname: '127.0.0.1', port: 0, socket: { data() {} } });
  const port = probe.port;
  probe.stop(true);
  return port;
}

/**
 * `bun run start` with PORT=0 on a database of its own (a copy of one a first start leaves:
 * migrated and seeded, tests/databases.ts; or the one given: an empty one from
 * `createThrowAwayDatabase` for a first start). Resolves once the server has said where it
 * listens.
 */
export async function startFolio({
  env = {},
  database,
  keepDatabase = false,
}: {
  env?: Record<string, string | undefined>;
  /** A database to start on; the harness drops it at stop unless `keepDatabase`. */
  database?: ThrowAwayDatabase;
  keepDatabase?: boolean;
} = {}): Promise<RunningFolio> {
  const made = database ?? (await seededThrowAwayDatabase());
  const child = Bun.spawn(['sh', '-c', SUPERVISOR], {
    cwd: path.resolve(import.meta.dir, '..'),
    env: {
      ...process.env,
      // A test's own environment (a preload's in-memory database, a developer's DSN) must not
      // leak into the server: everything it needs is said here.
      SENTRY_DSN: undefined,
      WAKU_PUBLIC_SENTRY_DSN: undefined,
      SITE_URL: undefined,
      TRUST_PROXY: undefined,
      // Every request a test makes comes from 127.0.0.1: the content API's tests walk listings
      // thousands of requests long. A test of the limits sets its own (api-keys.test.ts).
      API_RATE_LIMIT: '10000000',
      API_KEY_RATE_LIMIT: '10000000',
      API_RATE_WINDOW_SECONDS: undefined,
      PORT: '0',
      ...env,
      DATABASE_URL: made.url,
    },
    stdin: 'pipe',
    stdout: 'pipe',
    stderr: 'pipe',
  });
  let output = '';
  // `bun run start`'s pid, from the supervisor's first line (kept out of output()).
  let serverPid: number | null = null;
  let announce: (listening: { url: string; pid: number }) => void = () => undefined;
  const announced = new Promise<{ url: string; pid: number }>((resolve) => {
    announce = resolve;
  });
  const collect = async (stream: ReadableStream<Uint8Array>) => {
    const decoder = new TextDecoder();
    for await (const chunk of stream) {
      output += decoder.decode(chunk, { stream: true });
      if (serverPid === null) {
        const supervised = SUPERVISOR_LINE.exec(output);
        if (supervised) {
          serverPid = Number(supervised[1]);
          output = output.replace(supervised[0], '');
        }
      }
      const listening = /"msg":"listening","url":"(http:\/\/[^"]+)","pid":(\d+)/.exec(output);
      if (listening?.[1]) announce({ url: listening[1], pid: Number(listening[2]) });
    }
  };
  const drained = Promise.all([collect(child.stdout), collect(child.stderr)]);
  const exited = child.exited.then(async (code) => {
    // The supervisor's watch on its stdin ends with it.
    child.stdin.end();
    await drained;
    return code;
  });
  /** Signals `bun run start` (it passes the signal on to the server it runs). */
  const signal = (name: NodeJS.Signals) => {
    if (child.exitCode !== null || serverPid === null) return;
    try {
      process.kill(serverPid, name);
    } catch {
      // It exited meanwhile: the supervisor follows it.
    }
  };
  // Cleared once decided: a pending minute-long sleep kept a script that had started a server
  // (a bench) alive for a minute after it was done.
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), START_TIMEOUT_MS);
  });
  const first = await Promise.race([announced, exited.then(() => 'exited' as const), timeout]);
  clearTimeout(timer);
  if (first === 'exited' || first === 'timeout') {
    signal('SIGKILL');
    child.kill('SIGKILL');
    await exited;
    if (!keepDatabase) await made.drop();
    throw new Error(`bun run start did not start (${first}):\n${output}`);
  }
  const port = Number(new URL(first.url).port);
  const logLines = () =>
    output
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .flatMap((line) => {
        try {
          return [JSON.parse(line) as LogLine];
        } catch {
          return [];
        }
      });
  let connection: Promise<Database> | null = null;
  let stopped: Promise<number> | null = null;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    databaseUrl: made.url,
    databaseFile: made.file,
    database: () => {
      // It follows the content version as a server does, so a test's publish returns once
      // PostgreSQL has delivered its NOTIFY (to this listener, and with it to the server's),
      // as an instance's publish does: "the next request" then means the same as in production.
      connection ??= openDatabase(made.url, { migrate: false }).then(async (db) => {
        if (db.engine === 'postgres') await contentVersionOf(db).follow();
        return db;
      });
      return connection;
    },
    pid: first.pid,
    output: () => output,
    logLines,
    unexpectedErrors: () => logLines().filter((line) => line.msg === 'unexpected error'),
    exited,
    stop: (name = 'SIGTERM') => {
      stopped ??= (async () => {
        signal(name);
        const code = await exited;
        if (connection) {
          const db = await connection;
          await contentVersionOf(db).stop();
          await db.close();
        }
        if (!keepDatabase) {
          // Under bun test, behind the next test's back (tests/drops-behind.ts).
          await dropSoon(made);
          // Its social cards go with it (a folder per database: card-store.ts).
          await rm(cardDirectoryFor(made.url), { recursive: true, force: true });
        }
        return code;
      })();
      return stopped;
    },
  };
}

/**
 * Starts two servers together on one database (as instances behind a load balancer start). If
 * one does not start, the other is stopped before the error is thrown: no server outlives it.
 */
export async function startTwoFolios(
  database: ThrowAwayDatabase,
  { env = {} }: { env?: Record<string, string | undefined> } = {},
): Promise<[RunningFolio, RunningFolio]> {
  const started = await Promise.allSettled([
    startFolio({ database, keepDatabase: true, env }),
    startFolio({ database, keepDatabase: true, env }),
  ]);
  const failed = started.find((outcome) => outcome.status === 'rejected');
  if (failed) {
    for (const outcome of started) if (outcome.status === 'fulfilled') await outcome.value.stop();
    throw failed.reason;
  }
  const [a, b] = started.map((outcome) => (outcome as PromiseFulfilledResult<RunningFolio>).value);
  return [a as RunningFolio, b as RunningFolio];
}

/**
 * Polls `probe` until it returns something other than undefined (or the time is up). `what`
 * names it in the timeout's message; a function is asked then, so it can tell what was seen.
 */
export async function waitFor<T>(
  probe: () => T | undefined | Promise<T | undefined>,
  {
    timeoutMs = 10_000,
    what = 'a condition',
  }: { timeoutMs?: number; what?: string | (() => string) } = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline)
      throw new Error(`timed out waiting for ${typeof what === 'function' ? what() : what}`);
    await Bun.sleep(25);
  }
}

/** `bun run folio <args>` as an operator runs it, on `databaseUrl`, with `stdin` piped in. */
export async function runFolioCli(
  args: readonly string[],
  { databaseUrl, stdin = '' }: { databaseUrl: string; stdin?: string },
): Promise<{ code: number; stdout: string; stderr: string }> {
  const child = Bun.spawn(['bun', 'run', '--silent', 'folio', ...args], {
    cwd: path.resolve(import.meta.dir, '..'),
    env: { ...process.env, DATABASE_URL: databaseUrl },
    stdin: new TextEncoder().encode(stdin),
    stdout: 'pipe',
    stderr: 'pipe',
  });
  const [code, stdout, stderr] = await Promise.all([
    child.exited,
    new Response(child.stdout).text(),
    new Response(child.stderr).text(),
  ]);
  return { code, stdout, stderr };
}
