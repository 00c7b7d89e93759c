// Owns the process's one SQLite handle: opening, pragmas and migrations.
import 'server-only';
import { Database } from 'bun:sqlite';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { databasePathFromUrl, getEnv } from './env';
import { migrations as allMigrations, type Migration } from './migrations';

export function openDatabase(
  url: string,
  migrations: readonly Migration[] = allMigrations,
): Database {
  const file = databasePathFromUrl(url);
  if (file !== ':memory:') mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const db = new Database(file, { create: true, strict: true });
  if (file !== ':memory:') db.exec('PRAGMA journal_mode = WAL');
  // Writers wait for each other instead of failing at once with SQLITE_BUSY.
  db.exec('PRAGMA busy_timeout = 5000');
  db.exec('PRAGMA foreign_keys = ON');
  db.exec('PRAGMA synchronous = NORMAL');
  migrate(db, migrations);
  return db;
}

export function migrate(db: Database, migrations: readonly Migration[] = allMigrations): number[] {
  db.exec(
    'CREATE TABLE IF NOT EXISTS schema_migrations (id INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)',
  );
  const applied = new Set(
    db
      .query<{ id: number }, []>('SELECT id FROM schema_migrations')
      .all()
      .map((row) => row.id),
  );
  const ran: number[] = [];
  for (const migration of migrations) {
    if (applied.has(migration.id)) continue;
    db.transaction(() => {
      db.exec(migration.sql);
      db.query('INSERT INTO schema_migrations (id, name, applied_at) VALUES (?, ?, ?)').run(
        migration.id,
        migration.name,
        new Date().toISOString(),
      );
    })();
    ran.push(migration.id);
  }
  return ran;
}

// On globalThis: Waku bundles this module into more than one bundle in the same process
// (and server.ts imports it unbundled); all of them must share one handle.
const HANDLE = Symbol.for('folio.db');
const holder = globalThis as unknown as { [HANDLE]?: Database };

export function getDatabase(): Database {
  holder[HANDLE] ??= openDatabase(getEnv().DATABASE_URL);
  return holder[HANDLE];
}

export function closeDatabase(): void {
  holder[HANDLE]?.close();
  holder[HANDLE] = undefined;
}

/** True when the database answers a trivial query (for /healthz). */
export function checkDatabase(): boolean {
  try {
    return getDatabase().query<{ ok: number }, []>('SELECT 1 AS ok').get()?.ok === 1;
  } catch {
    return false;
  }
}
