// Owns the database connection for both engines (docs/decisions/0014): SQLite (one file, the
// default) and PostgreSQL (several instances), both through Bun's SQL client, and everything
// that differs between them at run time — opening, transactions and their locks, migrations.
// The rest of Folio writes portable SQL against `Database`.
import 'server-only';
import { AsyncLocalStorage } from 'node:async_hooks';
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { SQL } from 'bun';
import { getEnv } from '../runtime/env';
import {
  dropProcessSingleton,
  existingProcessSingleton,
  processSingleton,
} from '../runtime/process-singleton';
import { DATABASE_TIMEOUT_CODE, isDatabaseBusy, isDatabaseFull } from './db-errors';
import { migrations as allMigrations, type Engine, type Migration } from './migrations';

export type { Engine };
export type Row = Record<string, unknown>;

/** A tagged template that runs one statement: `` await q`SELECT … WHERE id = ${id}` ``. */
export type Query = (<T = Row>(
  strings: TemplateStringsArray,
  ...values: unknown[]
) => Promise<T[]>) & {
  /** A statement with no parameters (DDL, several statements at once). */
  unsafe: (text: string) => Promise<unknown>;
};

export type Database = {
  readonly engine: Engine;
  /** The SQLite file (`:memory:` for an in-memory one), or null on PostgreSQL. */
  readonly file: string | null;
  /** The URL with any password masked, for messages. */
  readonly displayUrl: string;
  /**
   * One statement outside a transaction (reads, and single-statement writes). Never call it
   * inside `transaction`'s work: use the query that work is given.
   */
  readonly query: Query;
  /**
   * Runs `work` in a write transaction: all or nothing, and one at a time across every process
   * (SQLite: `BEGIN IMMEDIATE`; PostgreSQL: a transaction-scoped advisory lock), so a
   * read-check-write inside it cannot race another instance's.
   */
  transaction<T>(work: (q: Query) => Promise<T>): Promise<T>;
  /**
   * Bounds every statement from now on (PostgreSQL; a no-op on SQLite, whose file answers or
   * fails at once): a statement with no answer after `milliseconds` fails as "not answering"
   * (null: no bound). The server sets it once it serves; migrations and the CLI wait.
   */
  setAnswerTimeout(milliseconds: number | null): void;
  /**
   * When a write last failed because the disk is full (SQLITE_FULL, SQLSTATE 53100), or null
   * once a write has succeeded since: a full disk still answers SELECT 1, so only the writes
   * tell (checkDatabase).
   */
  writeFailedFullAt(): number | null;
  /** The underlying client, for what only one engine has (LISTEN, VACUUM INTO). */
  readonly client: SQL;
  close(): Promise<void>;
};

/**
 * How long a SQLite write waits for another process's write lock. Bun's SQLite client waits
 * synchronously, so the server's whole event loop waits with it: the server gives up after
 * 1 s (writes take milliseconds; a lock held longer is a bulk import) and answers "busy, try
 * again", while the CLI, which has nothing else to do, waits 5 s.
 */
export const BUSY_TIMEOUT_MS = { server: 1_000, cli: 5_000 } as const;

/**
 * How long a PostgreSQL write waits for another's write lock before it is refused as busy. The
 * wait does not block the event loop (unlike SQLite's), so it can be longer: a burst of
 * writes from every instance queues up behind the one lock.
 */
export const LOCK_TIMEOUT_MS = 5_000;

/** PostgreSQL advisory lock key shared by every write transaction and migration ("folio"). */
const WRITE_LOCK_KEY = 0x666f6c696f;
/**
 * PostgreSQL connections per process (DATABASE_POOL_SIZE; Bun's default). N instances hold up
 * to N × 10, plus one each for LISTEN: PostgreSQL's default max_connections (100) fits about 9.
 */
export const POOL_SIZE = 10;
/** Seconds to wait for a PostgreSQL connection before the request is refused. */
const CONNECT_TIMEOUT_SECONDS = 5;

/**
 * How long the server waits for PostgreSQL to answer one statement (a free pooled connection
 * included) before it answers "cannot reach the database" (503, the text kept). A server that
 * is up but stopped (SIGSTOP, a frozen VM, a full disk's stalled fsync) accepts the bytes and
 * never answers: neither Bun's connectionTimeout nor PostgreSQL's own statement_timeout can
 * end that wait, so the client bounds it. Folio's statements take milliseconds; the wait for
 * the write lock is bounded by LOCK_TIMEOUT_MS on top of this.
 */
export const ANSWER_TIMEOUT_MS = 4_000;

export function engineOf(url: string): Engine | null {
  if (/^sqlite:.+/.test(url)) return 'sqlite';
  if (/^postgres(?:ql)?:\/\/.+/.test(url)) return 'postgres';
  return null;
}

/** `sqlite:data/folio.db` → `data/folio.db`; `sqlite::memory:` → `:memory:`. */
export function sqliteFileOf(url: string): string {
  return url.replace(/^sqlite:(?:\/\/)?/, '');
}

export function maskedUrl(url: string): string {
  return url.replace(/^(postgres(?:ql)?:\/\/[^:/@]+:)[^@]*@/, '$1***@');
}

/** Runs async work one at a time (a promise chain). */
function createMutex() {
  let tail: Promise<unknown> = Promise.resolve();
  return function exclusive<T>(work: () => Promise<T>): Promise<T> {
    const result = tail.then(work, work);
    tail = result.catch(() => undefined);
    return result;
  };
}

/**
 * A template made once from strings, for a statement whose text is shared by several queries
 * (call it as `q(TEMPLATE, ...values)`). Bun needs `raw` non-enumerable to accept it.
 */
export function sqlTemplate(parts: readonly string[]): TemplateStringsArray {
  const strings = [...parts];
  Object.defineProperty(strings, 'raw', { value: Object.freeze([...parts]) });
  return Object.freeze(strings) as unknown as TemplateStringsArray;
}

function asQuery(
  client: SQL | ((s: TemplateStringsArray, ...v: unknown[]) => unknown),
  unsafe: (text: string) => Promise<unknown>,
): Query {
  const run = (strings: TemplateStringsArray, ...values: unknown[]) =>
    (client as (s: TemplateStringsArray, ...v: unknown[]) => Promise<unknown[]>)(
      strings,
      ...values,
    );
  return Object.assign(run, { unsafe }) as Query;
}

// A transaction's work must use the query it is given: asking the database for another
// transaction (or a plain query on SQLite's one connection) from inside it would wait for
// itself. This notices the mistake instead of hanging. Another database is not itself: `db
// copy` reads its source a batch at a time inside the target's transaction (issue 25).
const insideTransaction = new AsyncLocalStorage<ReadonlySet<object>>();

function refuseNesting(database: object): void {
  if (insideTransaction.getStore()?.has(database))
    throw new Error('database used from inside a transaction: use the query the work was given');
}

/** Runs `work` as inside a transaction of `database` (and of any it is already inside). */
function inTransactionOf<T>(database: object, work: () => T): T {
  return insideTransaction.run(new Set([...(insideTransaction.getStore() ?? []), database]), work);
}

function openSqlite(url: string, busyTimeoutMs: number): Unwatched {
  const file = sqliteFileOf(url);
  if (file !== ':memory:') mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const client = new SQL({ adapter: 'sqlite', filename: file });
  // Bun's SQLite client has one connection: a statement sent while a transaction is open would
  // run inside it (and be rolled back with it). So every statement waits its turn.
  const exclusive = createMutex();
  const ready = (async () => {
    // Writers wait for each other (up to a point) instead of failing at once with SQLITE_BUSY;
    // first, since switching a new file to WAL waits for a process migrating it.
    await client.unsafe(`PRAGMA busy_timeout = ${Math.trunc(busyTimeoutMs)}`);
    if (file !== ':memory:') {
      // Two processes opening a new file together: SQLite can answer the switch to WAL with
      // SQLITE_BUSY at once, without waiting out busy_timeout (seen in CI, one run in many).
      // So the switch is retried for as long as a busy write would wait.
      const deadline = Date.now() + busyTimeoutMs;
      for (;;) {
        try {
          await client.unsafe('PRAGMA journal_mode = WAL');
          break;
        } catch (error) {
          if (!isDatabaseBusy(error) || Date.now() > deadline) throw error;
          await Bun.sleep(25);
        }
      }
    }
    await client.unsafe('PRAGMA foreign_keys = ON');
    await client.unsafe('PRAGMA synchronous = NORMAL');
  })();
  const query = asQuery(
    (strings: TemplateStringsArray, ...values: unknown[]) => {
      refuseNesting(client);
      return exclusive(async () => {
        await ready;
        return client(strings, ...values);
      });
    },
    (text) => {
      refuseNesting(client);
      return exclusive(async () => {
        await ready;
        return client.unsafe(text);
      });
    },
  );
  return {
    engine: 'sqlite',
    file,
    displayUrl: url,
    query,
    client,
    setAnswerTimeout() {
      // A local file answers or fails at once (SQLITE_BUSY after busy_timeout, SQLITE_FULL).
    },
    transaction(work) {
      refuseNesting(client);
      return exclusive(async () => {
        await ready;
        return client.begin('IMMEDIATE', (tx) =>
          inTransactionOf(client, () => work(asQuery(tx, (text) => tx.unsafe(text)))),
        ) as Promise<Awaited<ReturnType<typeof work>>>;
      });
    },
    async close() {
      await exclusive(() => client.close());
    },
  };
}

function notAnswering(milliseconds: number): Error {
  return Object.assign(new Error(`the database did not answer within ${milliseconds} ms`), {
    code: DATABASE_TIMEOUT_CODE,
  });
}

/**
 * `statement` raced against a timer. The abandoned statement is left to finish or fail when
 * the server wakes (its outcome is ignored); `onTimeout` lets a transaction refuse to go on.
 */
function bounded<T>(
  statement: PromiseLike<T>,
  milliseconds: number | null,
  onTimeout?: () => void,
): Promise<T> {
  if (milliseconds === null) return Promise.resolve(statement);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      onTimeout?.();
      reject(notAnswering(milliseconds));
    }, milliseconds);
  });
  return Promise.race([Promise.resolve(statement), timeout]).finally(() => clearTimeout(timer));
}

function openPostgres(url: string, poolSize: number, lockTimeoutMs: number): Unwatched {
  const client = new SQL(url, { connectionTimeout: CONNECT_TIMEOUT_SECONDS, max: poolSize });
  let answerTimeoutMs: number | null = null;
  return {
    engine: 'postgres',
    file: null,
    displayUrl: maskedUrl(url),
    query: asQuery(
      (strings: TemplateStringsArray, ...values: unknown[]) => {
        refuseNesting(client);
        return bounded(client(strings, ...values), answerTimeoutMs);
      },
      (text) => {
        refuseNesting(client);
        return bounded(client.unsafe(text), answerTimeoutMs);
      },
    ),
    client,
    setAnswerTimeout(milliseconds) {
      answerTimeoutMs = milliseconds;
    },
    transaction(work) {
      refuseNesting(client);
      const limit = answerTimeoutMs;
      // Once a statement has gone unanswered the request is refused ("nothing was saved"), so
      // the transaction must not go on when the server wakes: every later statement fails,
      // and Bun rolls it back.
      let abandoned = false;
      // What Bun sends outside the work — BEGIN (after waiting for a free connection), then
      // COMMIT — is bounded phase by phase, as each statement inside is.
      let phase: ReturnType<typeof setTimeout> | undefined;
      let giveUp: (error: Error) => void = () => undefined;
      const outside = new Promise<never>((_, reject) => {
        giveUp = reject;
      });
      const awaitPhase = () => {
        clearTimeout(phase);
        if (limit !== null)
          phase = setTimeout(() => {
            abandoned = true;
            giveUp(notAnswering(limit));
          }, limit);
      };
      const abandon = () => {
        abandoned = true;
      };
      const run = <T>(statement: PromiseLike<T>, extraMs = 0): Promise<T> => {
        if (abandoned) return Promise.reject(notAnswering(limit ?? 0));
        return bounded(statement, limit === null ? null : limit + extraMs, abandon);
      };
      awaitPhase();
      const done = client.begin(async (tx) => {
        clearTimeout(phase);
        if (abandoned) throw notAnswering(limit ?? 0);
        const q = asQuery(
          (strings: TemplateStringsArray, ...values: unknown[]) => run(tx(strings, ...values)),
          (text) => run(tx.unsafe(text)),
        );
        // Write transactions run one at a time, as on SQLite: the stores' read-check-write
        // steps (a version check, a throttle count) stay correct with many instances. A lock
        // held too long by someone else is "busy" (SQLSTATE 55P03), as on SQLite.
        await q.unsafe(`SET LOCAL lock_timeout = ${Math.trunc(lockTimeoutMs)}`);
        // Waiting for the lock is not "no answer": it has its own bound, lock_timeout.
        await run(tx`SELECT pg_advisory_xact_lock(${WRITE_LOCK_KEY})`, lockTimeoutMs);
        const result = await inTransactionOf(client, () => work(q));
        if (abandoned) throw notAnswering(limit ?? 0);
        awaitPhase();
        return result;
      });
      return Promise.race([done, outside]).finally(() => clearTimeout(phase)) as Promise<
        Awaited<ReturnType<typeof work>>
      >;
    },
    async close() {
      // Statements given up on (ANSWER_TIMEOUT_MS: `bounded` leaves them running) may be waiting
      // for a lock someone else holds, for as long as they hold it: an operator's open
      // transaction in psql kept a stopping instance up until its COMMIT (hostile pass). Their
      // callers have long been told; they are cut off after a moment.
      await client.close({ timeout: CLOSE_WAIT_SECONDS });
    },
  };
}

/** Seconds a closing pool waits for statements still running before it cuts them off. */
const CLOSE_WAIT_SECONDS = 2;

type Unwatched = Omit<Database, 'writeFailedFullAt'>;

/** `db` remembering whether its last write failed for want of space (writeFailedFullAt). */
function watchForFullDisk(db: Unwatched): Database {
  let failedFullAt: number | null = null;
  const watched = <T>(outcome: Promise<T>, writes: boolean): Promise<T> =>
    outcome.then(
      (value) => {
        if (writes) failedFullAt = null;
        return value;
      },
      (error: unknown) => {
        if (isDatabaseFull(error)) failedFullAt = Date.now();
        throw error;
      },
    );
  const query = Object.assign(
    <T = Row>(strings: TemplateStringsArray, ...values: unknown[]) =>
      // A plain query may be a read: only a transaction's success says writes work again.
      watched(db.query<T>(strings, ...values), false),
    { unsafe: (text: string) => watched(db.query.unsafe(text), false) },
  ) as Query;
  return {
    engine: db.engine,
    file: db.file,
    displayUrl: db.displayUrl,
    client: db.client,
    query,
    transaction: (work) => watched(db.transaction(work), true),
    setAnswerTimeout: (milliseconds) => db.setAnswerTimeout(milliseconds),
    writeFailedFullAt: () => failedFullAt,
    close: () => db.close(),
  };
}

/** Opens the database at `url` and, unless told not to, brings its schema up to date. */
export async function openDatabase(
  url: string,
  {
    migrate: runMigrations = true,
    busyTimeoutMs = BUSY_TIMEOUT_MS.cli,
    poolSize = POOL_SIZE,
    lockTimeoutMs = LOCK_TIMEOUT_MS,
  }: { migrate?: boolean; busyTimeoutMs?: number; poolSize?: number; lockTimeoutMs?: number } = {},
): Promise<Database> {
  const engine = engineOf(url);
  if (engine === null)
    throw new Error('DATABASE_URL must be sqlite:<path>, sqlite::memory: or postgres://…');
  const db = watchForFullDisk(
    engine === 'sqlite'
      ? openSqlite(url, busyTimeoutMs)
      : openPostgres(url, poolSize, lockTimeoutMs),
  );
  try {
    if (runMigrations) await migrate(db);
  } catch (error) {
    await db.close().catch(() => undefined);
    throw error;
  }
  return db;
}

/**
 * Applies the migrations the database lacks, all in one write transaction (which takes the
 * write lock first): instances starting together migrate once, the later ones find the work
 * done. Returns the migrations applied.
 */
export { WRITE_LOCK_KEY };

export async function migrate(
  db: Database,
  migrations: readonly Migration[] = allMigrations,
): Promise<Migration[]> {
  return db.transaction(async (q) => {
    await q.unsafe(
      'CREATE TABLE IF NOT EXISTS schema_migrations (id INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)',
    );
    const applied = new Set(
      (await q<{ id: number }>`SELECT id FROM schema_migrations`).map((row) => Number(row.id)),
    );
    const ran = migrations.filter((migration) => !applied.has(migration.id));
    for (const migration of ran) {
      // A change one engine needs and the other already had is empty for that one.
      if (migration[db.engine].trim() !== '') await q.unsafe(migration[db.engine]);
      await migration.backfill?.(q, db.engine);
      await q`INSERT INTO schema_migrations (id, name, applied_at)
              VALUES (${migration.id}, ${migration.name}, ${new Date().toISOString()})`;
    }
    return ran;
  });
}

/** The highest migration applied, or 0 for an empty database. */
export async function schemaVersion(db: Database): Promise<number> {
  try {
    const [row] = await db.query<{
      id: number | string | null;
    }>`SELECT MAX(id) AS id FROM schema_migrations`;
    return Number(row?.id ?? 0);
  } catch {
    return 0;
  }
}

/**
 * How long SQLite writes wait from now on (no-op on PostgreSQL). The server starts with the
 * CLI's patience — instances starting together wait for each other's migration and seeding —
 * and takes its own once it serves.
 */
export async function setBusyTimeout(db: Database, milliseconds: number): Promise<void> {
  if (db.engine === 'sqlite')
    await db.query.unsafe(`PRAGMA busy_timeout = ${Math.trunc(milliseconds)}`);
}

/**
 * The process's database (DATABASE_URL), opened and migrated on first use. The server opens it
 * before it listens; everything else awaits the same promise.
 */
export function getDatabase(): Promise<Database> {
  return processSingleton('database', () => {
    const env = getEnv();
    const opening = openDatabase(env.DATABASE_URL, { poolSize: env.DATABASE_POOL_SIZE });
    // A failed open is not remembered: the next caller tries again.
    opening.catch(() => dropProcessSingleton('database'));
    return opening;
  });
}

export async function closeDatabase(): Promise<void> {
  const opening = existingProcessSingleton<Promise<Database>>('database');
  dropProcessSingleton('database');
  if (opening) await (await opening.catch(() => null))?.close();
}

/**
 * How long /healthz says "full" after a write failed for want of space, if no write has
 * succeeded since: an instance nobody writes to is not held out of service for ever.
 */
export const FULL_HEALTH_WINDOW_MS = 60_000;

/**
 * For /healthz: 'unavailable' unless the database answers a trivial query within `timeoutMs`
 * (down, or up but not answering); 'full' when it answers but its last write failed for want
 * of space (within FULL_HEALTH_WINDOW_MS); else 'ok'.
 */
export async function checkDatabase(timeoutMs = 2_000): Promise<'ok' | 'unavailable' | 'full'> {
  const probe = (async () => {
    const db = await getDatabase();
    const [row] = await db.query<{ ok: number }>`SELECT 1 AS ok`;
    if (Number(row?.ok) !== 1) return 'unavailable' as const;
    const failedFullAt = db.writeFailedFullAt();
    return failedFullAt !== null && Date.now() - failedFullAt < FULL_HEALTH_WINDOW_MS
      ? ('full' as const)
      : ('ok' as const);
  })().catch(() => 'unavailable' as const);
  const timeout = Bun.sleep(timeoutMs).then(() => 'unavailable' as const);
  return Promise.race([probe, timeout]);
}

// --- Servers using a SQLite file --------------------------------------------------------------
// A server leaves its pid in `<file>.serving/` while it runs, so commands that must not run
// under a live server (`db restore` replaces the file it holds open) can refuse.

function servingDirectory(file: string): string {
  return `${path.resolve(file)}.serving`;
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as { code?: unknown }).code === 'EPERM';
  }
}

/** Records that this process serves `db`; returns the undo (idempotent). */
export function announceServer(db: Database): () => void {
  if (db.file === null || db.file === ':memory:') return () => undefined;
  const marker = path.join(servingDirectory(db.file), String(process.pid));
  mkdirSync(path.dirname(marker), { recursive: true });
  writeFileSync(marker, `${new Date().toISOString()}\n`);
  const withdraw = () => rmSync(marker, { force: true });
  process.once('exit', withdraw);
  return withdraw;
}

/** The pids of live servers using the SQLite file (markers of dead ones are ignored). */
export function serversUsing(file: string): number[] {
  let names: string[];
  try {
    names = readdirSync(servingDirectory(file));
  } catch {
    return [];
  }
  return names
    .map(Number)
    .filter((pid) => Number.isSafeInteger(pid) && pid > 0 && pid !== process.pid && isRunning(pid));
}
