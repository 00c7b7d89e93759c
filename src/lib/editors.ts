// Owns editor accounts, their passwords (Argon2id) and their server-side sessions.
import 'server-only';
import type { Database } from 'bun:sqlite';
import { createHash, randomBytes } from 'node:crypto';
import { z } from 'zod';

export const SESSION_TTL_SECONDS = 7 * 24 * 60 * 60;

export const emailSchema = z
  .string()
  .trim()
  .toLowerCase()
  .email('Enter an email address.')
  .max(254);
export const passwordSchema = z
  .string()
  .min(10, 'Use at least 10 characters.')
  .max(1024, 'Use at most 1024 characters.');

export type Editor = { id: number; email: string };
export type EditorSession = { editor: Editor; expiresAt: Date };

// Verifying against this when the email is unknown keeps a failed sign-in's timing the same
// whether or not the account exists.
let dummyHash: Promise<string> | undefined;
function getDummyHash() {
  dummyHash ??= Bun.password.hash('folio-dummy-password', { algorithm: 'argon2id' });
  return dummyHash;
}

function hashSessionId(id: string): string {
  return createHash('sha256').update(id).digest('hex');
}

export async function addEditor(db: Database, email: string, password: string): Promise<Editor> {
  const parsedEmail = emailSchema.parse(email);
  const parsedPassword = passwordSchema.parse(password);
  const hash = await Bun.password.hash(parsedPassword, { algorithm: 'argon2id' });
  const row = db
    .query<{ id: number; email: string }, [string, string, string]>(
      `INSERT INTO editors (email, password_hash, created_at) VALUES (?, ?, ?)
       ON CONFLICT (email) DO UPDATE SET password_hash = excluded.password_hash
       RETURNING id, email`,
    )
    .get(parsedEmail, hash, new Date().toISOString());
  if (!row) throw new Error('editor insert returned no row');
  return row;
}

export async function verifyCredentials(
  db: Database,
  email: string,
  password: string,
): Promise<Editor | null> {
  const row = db
    .query<{ id: number; email: string; password_hash: string }, [string]>(
      'SELECT id, email, password_hash FROM editors WHERE email = ?',
    )
    .get(email.trim().toLowerCase());
  const ok = await Bun.password.verify(password, row?.password_hash ?? (await getDummyHash()));
  return row && ok ? { id: row.id, email: row.email } : null;
}

/** A new random session id; only its hash is stored, so a database leak yields no cookies. */
export function createSession(
  db: Database,
  editorId: number,
  now = Date.now(),
): { id: string; expiresAt: Date } {
  const id = randomBytes(32).toString('base64url');
  const expiresAt = new Date(now + SESSION_TTL_SECONDS * 1000);
  db.query(
    'INSERT INTO editor_sessions (id_hash, editor_id, created_at, expires_at) VALUES (?, ?, ?, ?)',
  ).run(hashSessionId(id), editorId, new Date(now).toISOString(), expiresAt.toISOString());
  return { id, expiresAt };
}

export function getSession(
  db: Database,
  id: string | undefined,
  now = Date.now(),
): EditorSession | null {
  if (id?.length !== 43 || !/^[A-Za-z0-9_-]+$/.test(id)) return null;
  const row = db
    .query<{ editor_id: number; email: string; expires_at: string }, [string]>(
      `SELECT s.editor_id, e.email, s.expires_at FROM editor_sessions s
       JOIN editors e ON e.id = s.editor_id WHERE s.id_hash = ?`,
    )
    .get(hashSessionId(id));
  if (!row) return null;
  const expiresAt = new Date(row.expires_at);
  if (expiresAt.getTime() <= now) return null;
  return { editor: { id: row.editor_id, email: row.email }, expiresAt };
}

export function endSession(db: Database, id: string | undefined): void {
  if (id) db.query('DELETE FROM editor_sessions WHERE id_hash = ?').run(hashSessionId(id));
}

export function endAllSessions(db: Database, editorId: number): void {
  db.query('DELETE FROM editor_sessions WHERE editor_id = ?').run(editorId);
}
