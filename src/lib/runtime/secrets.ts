// Owns the site secret that signs preview links: SESSION_SECRET, or one generated once and
// kept in the database so every process (and every restart) agrees on it.
import 'server-only';
import { randomBytes } from 'node:crypto';
import type { Database } from '../data/db';
import { getEnv } from './env';

export async function siteSecret(db: Database): Promise<string> {
  const configured = getEnv().SESSION_SECRET;
  if (configured) return configured;
  // Read first: after the first call this is a read, which never waits for a writer.
  const read = async () =>
    (await db.query<{ value: string }>`SELECT value FROM settings WHERE key = 'session_secret'`)[0]
      ?.value;
  const existing = await read();
  if (existing) return existing;
  const generated = randomBytes(32).toString('base64url');
  await db.transaction(
    (q) => q`INSERT INTO settings (key, value) VALUES ('session_secret', ${generated})
             ON CONFLICT (key) DO NOTHING`,
  );
  const value = await read();
  if (!value) throw new Error('session secret missing after insert');
  return value;
}
