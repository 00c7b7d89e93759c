// Throw-away databases for tests, on the engine the run is for: FOLIO_TEST_ENGINE=sqlite (the
// default) or postgres. PostgreSQL databases are made on the server FOLIO_TEST_POSTGRES_URL
// names (default: the local one), called folio_test_<pid>_<random>, and dropped afterwards;
// ones left by a run that died are dropped by the next.

import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SQL } from 'bun';
import { createContentStore } from '../src/lib/content/content';
import { seedDemoContent } from '../src/lib/content/seed';
import { type Database, type Engine, openDatabase } from '../src/lib/data/db';
import { dropsBehind, onSettle } from './drops-behind';

export const TEST_ENGINE: Engine =
  process.env.FOLIO_TEST_ENGINE === 'postgres' ? 'postgres' : 'sqlite';

export const POSTGRES_ADMIN_URL =
  process.env.FOLIO_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export type ThrowAwayDatabase = {
  url: string;
  engine: Engine;
  /** The SQLite file, or null on PostgreSQL. */
  file: string | null;
  /** Drops it (PostgreSQL; a SQLite file is left in the temp folder). */
  drop(): Promise<void>;
};

export function postgresUrlFor(name: string): string {
  const url = new URL(POSTGRES_ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

let sweptLeftovers = false;

/** Drops the test databases of runs that are no longer alive. */
async function sweepLeftovers(admin: SQL): Promise<void> {
  if (sweptLeftovers) return;
  sweptLeftovers = true;
  const rows = await admin<{ datname: string }[]>`
    SELECT datname FROM pg_database WHERE datname LIKE 'folio\_test\_%'`;
  for (const { datname } of rows) {
    const pid = Number(/^folio_test_(\d+)_/.exec(datname)?.[1]);
    let alive = false;
    try {
      process.kill(pid, 0);
      alive = true;
    } catch {}
    if (!alive) await admin.unsafe(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
  }
}

/** A new, empty database (no schema yet: whoever opens it migrates it). */
export async function createThrowAwayDatabase(
  engine: Engine = TEST_ENGINE,
): Promise<ThrowAwayDatabase> {
  if (engine === 'sqlite') {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'folio-test-')), 'folio.db');
    // There, as an operator's database is (SQLite reads an empty file as an empty database):
    // the CLI says so when DATABASE_URL names a file that is not there.
    writeFileSync(file, '');
    // Dropping removes its folder (the file, its WAL and the sidecars beside it): each run used
    // to leave some two hundred folders of up to 16 MB in the temporary directory.
    const drop = async () => rmSync(path.dirname(file), { recursive: true, force: true });
    return { url: `sqlite:${file}`, engine, file, drop };
  }
  const name = `folio_test_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
  const admin = new SQL(POSTGRES_ADMIN_URL, { max: 1 });
  try {
    await sweepLeftovers(admin);
    await admin.unsafe(`CREATE DATABASE "${name}"`);
  } finally {
    await admin.close();
  }
  return postgresThrowAway(name);
}

/** The throw-away PostgreSQL database `name`, dropped (whoever still holds it) by `drop`. */
function postgresThrowAway(name: string): ThrowAwayDatabase {
  return {
    url: postgresUrlFor(name),
    engine: 'postgres',
    file: null,
    async drop() {
      const dropper = new SQL(POSTGRES_ADMIN_URL, { max: 1 });
      try {
        await dropper.unsafe(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      } finally {
        await dropper.close();
      }
    },
  };
}

/**
 * One migrated PostgreSQL database per test process, which every migrated throw-away one is
 * copied from (`CREATE DATABASE … TEMPLATE`): running the migrations took 1–2 s a database,
 * and some files open dozens. Named like the others, so the next run's sweep drops it once
 * this process is gone.
 */
let migratedTemplate: Promise<string> | null = null;
function postgresTemplate(): Promise<string> {
  migratedTemplate ??= (async () => {
    const made = await createThrowAwayDatabase('postgres');
    const db = await openDatabase(made.url, { poolSize: 1 });
    // Nobody may be connected to a template while it is copied.
    await db.close();
    return new URL(made.url).pathname.slice(1);
  })();
  return migratedTemplate;
}

/** A new throw-away PostgreSQL database copied from `template`. */
async function postgresCopyOf(template: string): Promise<ThrowAwayDatabase> {
  const name = `folio_test_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
  const admin = new SQL(POSTGRES_ADMIN_URL, { max: 1 });
  try {
    await admin.unsafe(`CREATE DATABASE "${name}" TEMPLATE "${template}"`);
  } finally {
    await admin.close();
  }
  return postgresThrowAway(name);
}

/**
 * Copies of a template made one ahead: a copy took PostgreSQL 0.1–0.4 s and its DROP as long
 * again (more on a busy machine), and two hundred unit tests each take a new database, so the
 * PostgreSQL half spent a minute waiting on them. Under bun test (tests/drops-behind.ts) the
 * next copy is made while the test that took the last one runs, and a used one is dropped
 * behind the next test (`dropSoon`); the run waits for both after its last file.
 */
const spares = new Map<string, Promise<ThrowAwayDatabase>>();
async function spareCopyOf(template: string): Promise<ThrowAwayDatabase> {
  const taken = spares.get(template) ?? postgresCopyOf(template);
  spares.delete(template);
  if (dropsBehind()) {
    const next = postgresCopyOf(template);
    // A spare that failed is reported to the test that takes it, not as an unhandled rejection.
    next.catch(() => undefined);
    spares.set(template, next);
  }
  return taken;
}

/** Drops running behind the tests, one after another on the server. */
let dropping: Promise<void> = Promise.resolve();
const dropFailures: unknown[] = [];

/**
 * Drops `made`: behind the caller's back under bun test (one drop at a time, so a fast file
 * cannot pile dozens on the server), at once otherwise.
 */
export async function dropSoon(made: ThrowAwayDatabase): Promise<void> {
  if (!dropsBehind()) return made.drop();
  dropping = dropping.then(() => made.drop().catch((error) => void dropFailures.push(error)));
}

onSettle(async () => {
  for (const [template, spare] of spares) {
    spares.delete(template);
    const unused = await spare.catch(() => null);
    if (unused) await dropSoon(unused);
  }
  await dropping;
  if (dropFailures.length > 0) throw dropFailures[0];
});

/** A new database copied from the migrated template (PostgreSQL). */
async function migratedPostgresDatabase(): Promise<ThrowAwayDatabase> {
  return spareCopyOf(await postgresTemplate());
}

/**
 * One database per test process and engine with the demo content, as a server's first start
 * leaves it (migrated, then seeded by the same function), which every seeded throw-away database
 * is copied from: a server started on a new, empty database spent most of its start-up
 * migrating and seeding it (10 of its 12 s on a busy machine, 2–3 s of CPU), and the suite
 * starts a hundred servers. A test of the first start itself gives the server an empty
 * database (`createThrowAwayDatabase`).
 */
const seededTemplates = new Map<Engine, Promise<string>>();
function seededTemplate(engine: Engine): Promise<string> {
  let made = seededTemplates.get(engine);
  if (!made) {
    made = (async () => {
      const template =
        engine === 'postgres'
          ? await migratedPostgresDatabase()
          : await createThrowAwayDatabase('sqlite');
      const db = await openDatabase(template.url, { poolSize: 1 });
      await seedDemoContent(db, createContentStore(db));
      // Closed: a PostgreSQL template may have no one connected while it is copied, and a
      // SQLite file is whole (its write-ahead log folded in) once its last connection closes.
      await db.close();
      return engine === 'postgres'
        ? new URL(template.url).pathname.slice(1)
        : (template.file as string);
    })();
    seededTemplates.set(engine, made);
  }
  return made;
}

/** A new database with the demo content, copied from the seeded template. */
export async function seededThrowAwayDatabase(
  engine: Engine = TEST_ENGINE,
): Promise<ThrowAwayDatabase> {
  const template = await seededTemplate(engine);
  if (engine === 'sqlite') {
    const made = await createThrowAwayDatabase('sqlite');
    copyFileSync(template, made.file as string);
    return made;
  }
  return spareCopyOf(template);
}

/** A migrated throw-away database, opened; `dispose` closes and drops it. */
export async function openTestDatabase(
  engine: Engine = TEST_ENGINE,
): Promise<Database & { dispose(): Promise<void>; url: string }> {
  const made =
    engine === 'postgres'
      ? await migratedPostgresDatabase()
      : await createThrowAwayDatabase(engine);
  // Few connections: a test file may hold several databases open at once.
  const db = await openDatabase(made.url, { poolSize: 3 });
  return Object.assign(db, {
    url: made.url,
    async dispose() {
      await db.close();
      await dropSoon(made);
    },
  });
}

/** Whether a PostgreSQL server answers at FOLIO_TEST_POSTGRES_URL (within two seconds). */
export async function postgresAnswers(): Promise<boolean> {
  const admin = new SQL(POSTGRES_ADMIN_URL, { max: 1, connectionTimeout: 2 });
  try {
    await admin`SELECT 1`;
    return true;
  } catch {
    return false;
  } finally {
    await admin.close().catch(() => undefined);
  }
}
