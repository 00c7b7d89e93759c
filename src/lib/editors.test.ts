import { describe, expect, test } from 'bun:test';
import { openDatabase } from './db';
import {
  addEditor,
  createSession,
  endAllSessions,
  endSession,
  getSession,
  SESSION_TTL_SECONDS,
  verifyCredentials,
} from './editors';

describe('editor accounts', () => {
  test('passwords are hashed with Argon2id and verified', async () => {
    const db = openDatabase('sqlite::memory:');
    await addEditor(db, 'Ed@Example.com', 'correct horse battery');
    const stored = db
      .query<{ password_hash: string }, []>('SELECT password_hash FROM editors')
      .get();
    expect(stored?.password_hash.startsWith('$argon2id$')).toBe(true);
    expect(await verifyCredentials(db, 'ed@example.com', 'correct horse battery')).toMatchObject({
      email: 'ed@example.com',
    });
    expect(await verifyCredentials(db, 'ed@example.com', 'wrong password!')).toBeNull();
    expect(await verifyCredentials(db, 'nobody@example.com', 'correct horse battery')).toBeNull();
  });

  test('short passwords and bad emails are refused', async () => {
    const db = openDatabase('sqlite::memory:');
    await expect(addEditor(db, 'ed@example.com', 'short')).rejects.toThrow();
    await expect(addEditor(db, 'not-an-email', 'long enough password')).rejects.toThrow();
  });
});

describe('sessions', () => {
  test('a session is found by its id until it expires or ends', async () => {
    const db = openDatabase('sqlite::memory:');
    const editor = await addEditor(db, 'ed@example.com', 'correct horse battery');
    const now = 1_700_000_000_000;
    const session = createSession(db, editor.id, now);
    expect(getSession(db, session.id, now)?.editor.email).toBe('ed@example.com');
    expect(getSession(db, session.id, now + SESSION_TTL_SECONDS * 1000 + 1)).toBeNull();
    const tampered = `${session.id.slice(0, -1)}${session.id.endsWith('A') ? 'B' : 'A'}`;
    expect(getSession(db, tampered, now)).toBeNull();
    expect(getSession(db, 'forged', now)).toBeNull();
    expect(getSession(db, undefined, now)).toBeNull();
    endSession(db, session.id);
    expect(getSession(db, session.id, now)).toBeNull();
  });

  test('sign out everywhere ends every session of the editor', async () => {
    const db = openDatabase('sqlite::memory:');
    const editor = await addEditor(db, 'ed@example.com', 'correct horse battery');
    const a = createSession(db, editor.id);
    const b = createSession(db, editor.id);
    endAllSessions(db, editor.id);
    expect(getSession(db, a.id)).toBeNull();
    expect(getSession(db, b.id)).toBeNull();
  });
});
