import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { openTestDatabase } from '../../../tests/databases';
import { createContentStore } from '../content/content';
import { checkPreviewLink, createPreviewLink } from '../share-links/share-links';
import {
  addEditor,
  changeRole,
  createSession,
  endAllSessions,
  endSession,
  endSessionsOf,
  getSession,
  listEditors,
  RoleRefused,
  removeEditor,
  SESSION_TTL_SECONDS,
  verifyCredentials,
} from './accounts';

// On the run's engine (FOLIO_TEST_ENGINE).
let db: Awaited<ReturnType<typeof openTestDatabase>>;
beforeEach(async () => {
  db = await openTestDatabase();
});
afterEach(async () => {
  await db.dispose();
});

describe('editor accounts', () => {
  test('passwords are hashed with Argon2id and verified; emails are case-insensitive', async () => {
    await addEditor(db, 'Ed@Example.com', 'correct horse battery');
    const [stored] = await db.query<{ password_hash: string }>`SELECT password_hash FROM editors`;
    expect(stored?.password_hash.startsWith('$argon2id$')).toBe(true);
    expect(await verifyCredentials(db, 'ed@example.com', 'correct horse battery')).toMatchObject({
      email: 'ed@example.com',
    });
    expect(await verifyCredentials(db, 'ED@example.COM', 'correct horse battery')).not.toBeNull();
    expect(await verifyCredentials(db, 'ed@example.com', 'wrong password!')).toBeNull();
    expect(await verifyCredentials(db, 'nobody@example.com', 'correct horse battery')).toBeNull();
  });

  test('short passwords and bad emails are refused', async () => {
    await expect(addEditor(db, 'ed@example.com', 'short')).rejects.toThrow();
    await expect(addEditor(db, 'not-an-email', 'long enough password')).rejects.toThrow();
  });

  test('adding an existing editor resets the password and ends their sessions', async () => {
    const first = await addEditor(db, 'ed@example.com', 'correct horse battery');
    const session = await createSession(db.query, first.id);
    const again = await addEditor(db, 'ED@example.com', 'another long passphrase');
    expect(again).toMatchObject({ id: first.id, created: false, sessionsEnded: 1 });
    expect(await getSession(db, session.id)).toBeNull();
    expect(await verifyCredentials(db, 'ed@example.com', 'correct horse battery')).toBeNull();
  });

  test('listing, removing and signing out everywhere', async () => {
    const ed = await addEditor(db, 'ed@example.com', 'correct horse battery');
    await addEditor(db, 'amy@example.com', 'correct horse battery');
    await createSession(db.query, ed.id);
    expect(
      (await listEditors(db)).map(({ email, activeSessions }) => [email, activeSessions]),
    ).toEqual([
      ['amy@example.com', 0],
      ['ed@example.com', 1],
    ]);
    expect(await endSessionsOf(db, 'ed@example.com')).toEqual({
      sessionsEnded: 1,
      linksRevoked: 0,
    });
    expect(await endSessionsOf(db, 'nobody@example.com')).toBeNull();
    expect(await removeEditor(db, 'AMY@example.com')).toEqual({ linksRevoked: 0 });
    expect(await removeEditor(db, 'amy@example.com')).toBeNull();
  });
});

// Hostile review, issue 24: a removed editor's (or an old password's) 7-day links kept opening
// the page's current draft.
describe("an editor's share links end with their access", () => {
  async function linkBy(createdBy: string) {
    const store = createContentStore(db);
    await store.putPage({ slug: 'secret', title: 'Secret', summary: '', body: 'draft' });
    const page = await store.getPage('secret', { draft: true });
    return (await createPreviewLink(db, { pageId: page?.id ?? 0, createdBy, ttlSeconds: 3600 }))
      .token;
  }
  const opens = async (token: string) => (await checkPreviewLink(db, token)).ok;

  test('removing an editor revokes every link they made, and adding them again revives none', async () => {
    // The first is the site's Owner, who is never removed: ed comes after.
    await addEditor(db, 'owner@example.com', 'correct horse battery');
    await addEditor(db, 'ed@example.com', 'correct horse battery');
    await addEditor(db, 'amy@example.com', 'correct horse battery');
    const eds = [await linkBy('ed@example.com'), await linkBy('ed@example.com')];
    const amys = await linkBy('amy@example.com');
    expect(await removeEditor(db, 'ED@example.com')).toEqual({ linksRevoked: 2 });
    for (const token of eds) expect(await opens(token)).toBe(false);
    expect(await opens(amys)).toBe(true);
    await addEditor(db, 'ed@example.com', 'a brand new passphrase');
    for (const token of eds) expect(await opens(token)).toBe(false);
  });

  test('a password reset revokes every link the editor made; a new editor revokes nothing', async () => {
    expect(await addEditor(db, 'ed@example.com', 'correct horse battery')).toMatchObject({
      linksRevoked: 0,
    });
    const token = await linkBy('ed@example.com');
    const cli = await linkBy('cli');
    expect(await addEditor(db, 'ed@example.com', 'another long passphrase')).toMatchObject({
      created: false,
      linksRevoked: 1,
    });
    expect(await opens(token)).toBe(false);
    expect(await opens(cli)).toBe(true);
  });
});

describe('sessions', () => {
  test('a session is found by its id until it expires or ends', async () => {
    const editor = await addEditor(db, 'ed@example.com', 'correct horse battery');
    const now = 1_700_000_000_000;
    const session = await createSession(db.query, editor.id, now);
    expect((await getSession(db, session.id, now))?.editor.email).toBe('ed@example.com');
    expect(await getSession(db, session.id, now + SESSION_TTL_SECONDS * 1000 + 1)).toBeNull();
    const tampered = `${session.id.slice(0, -1)}${session.id.endsWith('A') ? 'B' : 'A'}`;
    expect(await getSession(db, tampered, now)).toBeNull();
    expect(await getSession(db, 'forged', now)).toBeNull();
    expect(await getSession(db, undefined, now)).toBeNull();
    await endSession(db.query, session.id);
    expect(await getSession(db, session.id, now)).toBeNull();
  });

  test('sign out everywhere ends every session of the editor', async () => {
    const editor = await addEditor(db, 'ed@example.com', 'correct horse battery');
    const a = await createSession(db.query, editor.id);
    const b = await createSession(db.query, editor.id);
    expect(await endAllSessions(db.query, editor.id)).toBe(2);
    expect(await getSession(db, a.id)).toBeNull();
    expect(await getSession(db, b.id)).toBeNull();
  });
});

describe('roles (issue 28)', () => {
  test('the first person owns the site; others are Administrators unless asked; a reset keeps the role', async () => {
    expect((await addEditor(db, 'first@example.com', 'correct horse battery')).role).toBe('owner');
    expect((await addEditor(db, 'second@example.com', 'correct horse battery')).role).toBe(
      'administrator',
    );
    const writer = await addEditor(db, 'writer@example.com', 'correct horse battery', {
      role: 'contributor',
    });
    expect(writer.role).toBe('contributor');
    // A password reset keeps the role it does not name, and never takes the Owner's away.
    expect((await addEditor(db, 'writer@example.com', 'another horse battery')).role).toBe(
      'contributor',
    );
    expect(
      (await addEditor(db, 'first@example.com', 'another horse battery', { role: 'editor' })).role,
    ).toBe('owner');
  });

  test('handing the site over leaves exactly one Owner; the Owner is never dropped or removed', async () => {
    await addEditor(db, 'first@example.com', 'correct horse battery');
    await addEditor(db, 'second@example.com', 'correct horse battery');
    await expect(changeRole(db, 'first@example.com', 'editor')).rejects.toBeInstanceOf(RoleRefused);
    await expect(removeEditor(db, 'first@example.com')).rejects.toBeInstanceOf(RoleRefused);
    expect(await changeRole(db, 'second@example.com', 'owner')).toEqual({
      email: 'second@example.com',
      role: 'owner',
      was: 'administrator',
      previousOwner: 'first@example.com',
    });
    const roles = Object.fromEntries((await listEditors(db)).map((e) => [e.email, e.role]));
    expect(roles).toEqual({ 'first@example.com': 'administrator', 'second@example.com': 'owner' });
    // The database itself holds one Owner, whatever a caller does.
    await expect(db.query`UPDATE editors SET role = 'owner'`).rejects.toThrow();
    expect(await changeRole(db, 'nobody@example.com', 'author')).toBeNull();
  });

  test('a suspended person’s sessions stop working, and their sign-in is refused in words', async () => {
    const { id } = await addEditor(db, 'first@example.com', 'correct horse battery');
    const session = await createSession(db.query, id);
    expect((await getSession(db, session.id))?.editor.role).toBe('owner');
    await db.query`UPDATE editors SET suspended_at = ${new Date().toISOString()} WHERE id = ${id}`;
    expect(await getSession(db, session.id)).toBeNull();
    expect(
      (await verifyCredentials(db, 'first@example.com', 'correct horse battery'))?.suspended,
    ).toBe(true);
  });
});
