// Owns the site secret that signs preview links: SESSION_SECRET, or one generated once and
// kept in the database so every process (and every restart) agrees on it.
import 'server-only';
import type { Database } from 'bun:sqlite';
import { randomBytes } from 'node:crypto';
import { getEnv } from './env';

export function siteSecret(db: Database): string {
  const configured = getEnv().SESSION_SECRET;
  if (configured) return configured;
  db.query(
    "INSERT INTO settings (key, value) VALUES ('session_secret', ?) ON CONFLICT (key) DO NOTHING",
  ).run(randomBytes(32).toString('base64url'));
  const row = db
    .query<{ value: string }, []>("SELECT value FROM settings WHERE key = 'session_secret'")
    .get();
  if (!row) throw new Error('session secret missing after insert');
  return row.value;
}
