import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { openTestDatabase } from '../../../tests/databases';
import { addEditor, changeRole, removeEditor, verifyCredentials } from './accounts';
import {
  acceptInvitation,
  createInvitation,
  hashInvitationToken,
  INVITATION_RESEND_MS,
  INVITATION_TTL_DAYS,
  invitationFor,
  pendingInvitations,
  revokeInvitation,
} from './invitations';
import { setSuspended } from './people';

// On the run's engine (FOLIO_TEST_ENGINE).
let db: Awaited<ReturnType<typeof openTestDatabase>>;
let owner: Awaited<ReturnType<typeof addEditor>>;
let admin: Awaited<ReturnType<typeof addEditor>>;
beforeEach(async () => {
  db = await openTestDatabase();
  owner = await addEditor(db, 'owner@example.com', 'the owner passphrase');
  admin = await addEditor(db, 'admin@example.com', 'the admin passphrase');
});
afterEach(async () => {
  await db.dispose();
});

const DAY = 24 * 60 * 60 * 1000;
const code = (work: Promise<unknown>) =>
  work.then(
    () => 'accepted',
    (error: { code?: string }) => error.code ?? String(error),
  );

describe('invitations', () => {
  test('only the hash of the token is stored; the link makes an account with its role, once', async () => {
    const { token, invitation } = await createInvitation(db, admin, 'New@Example.com', 'author');
    expect(invitation).toMatchObject({ email: 'new@example.com', role: 'author' });
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const rows = await db.query<{ token_hash: string }>`SELECT token_hash FROM invitations`;
    expect(rows).toEqual([{ token_hash: hashInvitationToken(token) }]);
    expect(JSON.stringify(rows)).not.toContain(token);
    expect(await invitationFor(db, token)).toEqual({
      email: 'new@example.com',
      role: 'author',
      hasAccount: false,
    });
    const made = await acceptInvitation(db, token, 'a new long passphrase');
    expect(made).toMatchObject({ email: 'new@example.com', role: 'author' });
    expect(await verifyCredentials(db, 'new@example.com', 'a new long passphrase')).toMatchObject({
      role: 'author',
      suspended: false,
    });
    // Used twice: refused, and nothing changes (the password stays the first one).
    expect(await code(acceptInvitation(db, token, 'another passphrase!'))).toBe('used');
    expect(await code(invitationFor(db, token))).toBe('used');
    expect(await verifyCredentials(db, 'new@example.com', 'another passphrase!')).toBeNull();
    expect(await pendingInvitations(db)).toEqual([]);
  });

  test('two acceptances at once make one account', async () => {
    const { token } = await createInvitation(db, admin, 'twice@example.com', 'contributor');
    const outcomes = await Promise.all([
      code(acceptInvitation(db, token, 'the first passphrase')),
      code(acceptInvitation(db, token, 'the second passphrase')),
    ]);
    expect(outcomes.sort()).toEqual(['accepted', 'used']);
    const [count] = await db.query<{ n: number | string }>`
      SELECT COUNT(*) AS n FROM editors WHERE email = 'twice@example.com'`;
    expect(Number(count?.n)).toBe(1);
  });

  test('an invitation expires after its days', async () => {
    const now = Date.now();
    const { token } = await createInvitation(db, admin, 'late@example.com', 'editor', now);
    const later = now + INVITATION_TTL_DAYS * DAY + 1000;
    expect(await code(invitationFor(db, token, now + DAY))).toBe('accepted');
    expect(await code(acceptInvitation(db, token, 'a late passphrase', later))).toBe('expired');
    expect(await pendingInvitations(db, later)).toEqual([]);
    expect(await verifyCredentials(db, 'late@example.com', 'a late passphrase')).toBeNull();
  });

  test('a withdrawn invitation, or a second one for the same email, leaves the first unusable', async () => {
    const at = Date.now();
    const first = await createInvitation(db, admin, 'twice@example.com', 'author', at);
    // Again within the minute: refused, so a pressed-again Invite mails nobody twice (third
    // hostile pass, L2); the first link stands.
    expect(
      await code(createInvitation(db, admin, 'twice@example.com', 'editor', at + 30_000)),
    ).toBe('too-soon');
    expect(await code(invitationFor(db, first.token))).toBe('accepted'); // still usable
    const second = await createInvitation(
      db,
      admin,
      'twice@example.com',
      'editor',
      at + INVITATION_RESEND_MS + 1,
    );
    expect(await code(invitationFor(db, first.token))).toBe('revoked');
    expect(await revokeInvitation(db, second.invitation.id)).toBe(true);
    expect(await revokeInvitation(db, second.invitation.id)).toBe(false);
    expect(await code(acceptInvitation(db, second.token, 'a good passphrase'))).toBe('revoked');
  });

  test('the inviter removed, suspended or demoted below Administrator takes their invitations', async () => {
    const a = await createInvitation(db, admin, 'a@example.com', 'author');
    await changeRole(db, admin.email, 'editor');
    expect(await code(acceptInvitation(db, a.token, 'a good passphrase'))).toBe('inviter');
    await changeRole(db, admin.email, 'administrator');
    expect(await code(invitationFor(db, a.token))).toBe('accepted');
    const [row] = await db.query<{ version: number }>`
      SELECT version FROM editors WHERE id = ${admin.id}`;
    await setSuspended(db, owner, {
      personId: admin.id,
      version: Number(row?.version),
      suspend: true,
    });
    expect(await code(invitationFor(db, a.token))).toBe('inviter');
    await removeEditor(db, admin.email);
    expect(await code(acceptInvitation(db, a.token, 'a good passphrase'))).toBe('inviter');
    expect(await verifyCredentials(db, 'a@example.com', 'a good passphrase')).toBeNull();
  });

  test('refusals: an owner invitation, an existing account, a forged token, a short password', async () => {
    expect(await code(createInvitation(db, admin, 'x@example.com', 'owner'))).toBe('invalid');
    expect(await code(createInvitation(db, admin, 'not an email', 'author'))).toBe('invalid');
    expect(await code(createInvitation(db, admin, 'OWNER@example.com', 'author'))).toBe('exists');
    const editor = await addEditor(db, 'ed@example.com', 'the editor passphrase', {
      role: 'editor',
    });
    expect(await code(createInvitation(db, editor, 'y@example.com', 'author'))).toBe('inviter');
    expect(await code(invitationFor(db, 'x'.repeat(43)))).toBe('unknown');
    expect(await code(invitationFor(db, '../etc'))).toBe('unknown');
    const { token } = await createInvitation(db, admin, 'z@example.com', 'author');
    expect(await code(acceptInvitation(db, token, 'short'))).toBe('invalid');
    // Someone made the account meanwhile (the CLI): the link says to sign in.
    await addEditor(db, 'z@example.com', 'made at the terminal', { role: 'editor' });
    expect(await invitationFor(db, token)).toMatchObject({ hasAccount: true });
    expect(await code(acceptInvitation(db, token, 'a good passphrase'))).toBe('exists');
    expect(await verifyCredentials(db, 'z@example.com', 'made at the terminal')).toMatchObject({
      role: 'editor',
    });
  });
});
