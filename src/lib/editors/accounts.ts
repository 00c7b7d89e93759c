// Owns editor accounts, their passwords (Argon2id) and their server-side sessions.
import 'server-only';
import { createHash, randomBytes } from 'node:crypto';
import { z } from 'zod';
import { recordAudit } from '../audit/audit';
import type { Database, Query } from '../data/db';
import { revokeLinksMadeBy } from '../share-links/share-links';
import { isRole, type Role } from './permissions';

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

export type Editor = { id: number; email: string; role: Role };

/** A stored role, read defensively: the column's CHECK allows only these, but a row is data. */
function roleOf(value: unknown): Role {
  // The least trust for anything unexpected: a broken row never grants more than it should.
  return isRole(value) ? value : 'contributor';
}
export type EditorSession = {
  editor: Editor;
  expiresAt: Date;
  /** When its person last typed their password in it (a sign-in counts); null: never. */
  confirmedAt: Date | null;
};

// Verifying against this when the email is unknown keeps a failed sign-in's timing the same
// whether or not the account exists.
let dummyHash: Promise<string> | undefined;
function getDummyHash() {
  dummyHash ??= Bun.password.hash('folio-dummy-password', { algorithm: 'argon2id' });
  return dummyHash;
}

export function hashSessionId(id: string): string {
  return createHash('sha256').update(id).digest('hex');
}

/**
 * Creates an editor, or resets the password of an existing one — which ends every session
 * signed in with the old password (whoever knew it is signed out), revokes every share link
 * the editor made (whoever held the old password could have made them) and removes their
 * passkeys, authenticator app and recovery codes (a reset is the answer to a stolen account: a
 * passkey or app the thief added would otherwise still sign in), in the same commit.
 */
export async function addEditor(
  db: Database,
  email: string,
  password: string,
  { role }: { role?: Exclude<Role, 'owner'> } = {},
): Promise<
  Editor & {
    created: boolean;
    sessionsEnded: number;
    linksRevoked: number;
    /** Passkeys plus an authenticator app (1) removed by a reset; 0 for a new editor. */
    factorsRemoved: number;
  }
> {
  const parsedEmail = emailSchema.parse(email);
  const parsedPassword = passwordSchema.parse(password);
  const hash = await Bun.password.hash(parsedPassword, { algorithm: 'argon2id' });
  return db.transaction(async (q) => {
    const [existing] = await q<{ id: number }>`SELECT id FROM editors WHERE email = ${parsedEmail}`;
    // The first person on a site owns it; after that, whoever runs the CLI at the server's own
    // terminal is trusted to choose, and an Administrator is what everyone was before roles.
    const [anyone] = await q`SELECT 1 AS one FROM editors LIMIT 1`;
    const newRole: Role = anyone ? (role ?? 'administrator') : 'owner';
    // A password reset keeps the role, unless one is asked for (never taking the Owner's away:
    // that is `editor role`'s, which checks there is another).
    const [row] = await q<{ id: number; email: string; role: string }>`
      INSERT INTO editors (email, password_hash, created_at, role)
      VALUES (${parsedEmail}, ${hash}, ${new Date().toISOString()}, ${newRole})
      ON CONFLICT (email) DO UPDATE SET password_hash = excluded.password_hash
      RETURNING id, email, role`;
    if (!row) throw new Error('editor insert returned no row');
    const id = Number(row.id);
    let current = roleOf(row.role);
    if (existing && role && current !== 'owner' && role !== current) {
      await q`UPDATE editors SET role = ${role} WHERE id = ${id}`;
      current = role;
    }
    const sessionsEnded = existing ? await endAllSessions(q, id) : 0;
    const linksRevoked = existing ? await revokeLinksMadeBy(q, row.email) : 0;
    const factorsRemoved = existing ? await removeSecondFactors(q, id) : 0;
    await recordAudit(q, {
      action: existing ? 'editor.password_reset' : 'editor.added',
      detail: { person: row.email, role: current, sessionsEnded, linksRevoked, factorsRemoved },
    });
    return {
      id,
      email: row.email,
      role: current,
      created: !existing,
      sessionsEnded,
      linksRevoked,
      factorsRemoved,
    };
  });
}

/**
 * Removes every second factor of an editor — passkeys, the authenticator app (even one offered
 * and not yet confirmed) and its recovery codes — and counts the passkeys and the app removed.
 */
async function removeSecondFactors(q: Query, editorId: number): Promise<number> {
  const passkeys = await q`DELETE FROM editor_passkeys WHERE editor_id = ${editorId} RETURNING id`;
  const apps = await q`
    DELETE FROM editor_totp WHERE editor_id = ${editorId} AND confirmed_at IS NOT NULL
    RETURNING editor_id`;
  await q`DELETE FROM editor_totp WHERE editor_id = ${editorId}`;
  await q`DELETE FROM editor_recovery_codes WHERE editor_id = ${editorId}`;
  // A sign-in that got past the old password, or a passkey being added, stops half-way too.
  await q`DELETE FROM pending_sign_ins WHERE editor_id = ${editorId}`;
  await q`DELETE FROM webauthn_challenges WHERE editor_id = ${editorId}`;
  return passkeys.length + apps.length;
}

export type EditorListing = Editor & {
  createdAt: string;
  activeSessions: number;
  suspended: boolean;
};

export async function listEditors(db: Database, now = Date.now()): Promise<EditorListing[]> {
  const rows = await db.query<{
    id: number;
    email: string;
    role: string;
    suspended_at: string | null;
    created_at: string;
    active_sessions: number | string;
  }>`
    SELECT e.id, e.email, e.role, e.suspended_at, e.created_at,
      (SELECT COUNT(*) FROM editor_sessions s
       WHERE s.editor_id = e.id AND s.expires_at > ${new Date(now).toISOString()}) AS active_sessions
    FROM editors e ORDER BY e.email`;
  return rows.map((row) => ({
    id: Number(row.id),
    email: row.email,
    role: roleOf(row.role),
    suspended: row.suspended_at !== null,
    createdAt: row.created_at,
    activeSessions: Number(row.active_sessions),
  }));
}

/** Why a change of role or a removal was refused, in words for the person asking. */
export class RoleRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RoleRefused';
  }
}

export const OWNER_STAYS =
  'A site always has an Owner: make someone else the Owner first, which makes this one an Administrator.';

/**
 * Why the site is not handed to a suspended person: they cannot sign in, so the site would have
 * no Owner who can (issue 28 hostile pass, finding 3). Said by the web and the CLI alike.
 */
export const SUSPENDED_HEIR =
  'A suspended person cannot be made the Owner: they cannot sign in. Restore them first, or hand the site to someone active.';

/**
 * Gives the person with `email` a role; null when there is no such person. Making someone the
 * Owner hands the site over: the Owner before becomes an Administrator, in the same commit (the
 * database's one-Owner index refuses a second). The Owner cannot be given a lesser role
 * directly (RoleRefused): the site would have none. Their sessions stay; what they may do
 * changes with their next request, since every request reads the role.
 */
export async function changeRole(
  db: Database,
  email: string,
  role: Role,
): Promise<{ email: string; role: Role; was: Role; previousOwner: string | null } | null> {
  return db.transaction(async (q) => {
    const [row] = await q<{
      id: number;
      email: string;
      role: string;
      suspended_at: string | null;
    }>`
      SELECT id, email, role, suspended_at FROM editors WHERE email = ${email.trim().toLowerCase()}`;
    if (!row) return null;
    const was = roleOf(row.role);
    if (was === role) return { email: row.email, role, was, previousOwner: null };
    if (was === 'owner') throw new RoleRefused(OWNER_STAYS);
    let previousOwner: string | null = null;
    if (role === 'owner') {
      if (row.suspended_at !== null) throw new RoleRefused(SUSPENDED_HEIR);
      const [owner] = await q<{ email: string }>`
        UPDATE editors SET role = 'administrator' WHERE role = 'owner' RETURNING email`;
      previousOwner = owner?.email ?? null;
    }
    await q`UPDATE editors SET role = ${role} WHERE id = ${Number(row.id)}`;
    await recordAudit(q, {
      action: 'editor.role_changed',
      detail: { person: row.email, from: was, to: role, previousOwner },
    });
    return { email: row.email, role, was, previousOwner };
  });
}

/**
 * Removes an editor, their sessions and every share link they made (a person who may no
 * longer edit must not keep showing drafts), in one commit; null when there was no such
 * editor, else how many open links were revoked.
 */
export async function removeEditor(
  db: Database,
  email: string,
  /** The person's version as the People screen showed it (the CLI removes whatever it is). */
  { version }: { version?: number } = {},
): Promise<{ linksRevoked: number } | null> {
  return db.transaction(async (q) => {
    const [owner] = await q`
      SELECT 1 AS one FROM editors WHERE email = ${email.trim().toLowerCase()} AND role = 'owner'`;
    if (owner) throw new RoleRefused(`The Owner cannot be removed. ${OWNER_STAYS}`);
    const [removed] =
      version === undefined
        ? await q<{ email: string }>`
            DELETE FROM editors WHERE email = ${email.trim().toLowerCase()} RETURNING email`
        : await q<{ email: string }>`
            DELETE FROM editors WHERE email = ${email.trim().toLowerCase()} AND version = ${version}
            RETURNING email`;
    if (!removed) return null;
    const linksRevoked = await revokeLinksMadeBy(q, removed.email);
    await recordAudit(q, {
      action: 'editor.removed',
      detail: { person: removed.email, linksRevoked },
    });
    return { linksRevoked };
  });
}

/** Ends every session of the editor with `email`; null when there is no such editor. */
export async function endSessionsOf(
  db: Database,
  email: string,
  { revokeLinks = true }: { revokeLinks?: boolean } = {},
): Promise<{ sessionsEnded: number; linksRevoked: number } | null> {
  return db.transaction(async (q) => {
    const [editor] = await q<{ id: number; email: string }>`
      SELECT id, email FROM editors WHERE email = ${email.trim().toLowerCase()}`;
    if (!editor) return null;
    // As "Sign out everywhere" in the preview, links too unless asked not to: whoever took the
    // sessions may have made links with them.
    const ended = {
      sessionsEnded: await endAllSessions(q, Number(editor.id)),
      linksRevoked: revokeLinks ? await revokeLinksMadeBy(q, editor.email) : 0,
    };
    await recordAudit(q, {
      action: 'editor.sessions_ended',
      detail: { person: editor.email, ...ended },
    });
    return ended;
  });
}

/**
 * A short fingerprint of the editor's current password hash, or null when there is no such
 * editor. Device cookies carry it, so a password reset or a removal stops trusting every
 * device the old credentials were used on.
 */
export async function credentialGeneration(q: Query, email: string): Promise<string | null> {
  const [row] = await q<{ password_hash: string }>`
    SELECT password_hash FROM editors WHERE email = ${email.trim().toLowerCase()}`;
  return row
    ? createHash('sha256').update(row.password_hash).digest('base64url').slice(0, 16)
    : null;
}

export async function verifyCredentials(
  db: Database,
  email: string,
  password: string,
): Promise<(Editor & { suspended: boolean }) | null> {
  const [row] = await db.query<{
    id: number;
    email: string;
    role: string;
    suspended_at: string | null;
    password_hash: string;
  }>`
    SELECT id, email, role, suspended_at, password_hash FROM editors
    WHERE email = ${email.trim().toLowerCase()}`;
  const ok = await Bun.password.verify(password, row?.password_hash ?? (await getDummyHash()));
  return row && ok
    ? {
        id: Number(row.id),
        email: row.email,
        role: roleOf(row.role),
        suspended: row.suspended_at !== null,
      }
    : null;
}

/** A new random session id; only its hash is stored, so a database leak yields no cookies. */
export async function createSession(
  q: Query,
  editorId: number,
  now = Date.now(),
): Promise<{ id: string; expiresAt: Date }> {
  const id = randomBytes(32).toString('base64url');
  const expiresAt = new Date(now + SESSION_TTL_SECONDS * 1000);
  const at = new Date(now).toISOString();
  // A sign-in is a confirmation: who just typed their password need not type it again.
  await q`
    INSERT INTO editor_sessions (id_hash, editor_id, created_at, expires_at, confirmed_at)
    VALUES (${hashSessionId(id)}, ${editorId}, ${at}, ${expiresAt.toISOString()}, ${at})`;
  return { id, expiresAt };
}

/** Marks session `id` confirmed now (its person typed their password again); false: no such. */
export async function confirmSession(
  q: Query,
  id: string | undefined,
  now = Date.now(),
): Promise<boolean> {
  if (!id) return false;
  const confirmed = await q`
    UPDATE editor_sessions SET confirmed_at = ${new Date(now).toISOString()}
    WHERE id_hash = ${hashSessionId(id)} RETURNING id_hash`;
  return confirmed.length > 0;
}

export async function getSession(
  db: Database,
  id: string | undefined,
  now = Date.now(),
): Promise<EditorSession | null> {
  if (id?.length !== 43 || !/^[A-Za-z0-9_-]+$/.test(id)) return null;
  // A suspended person's sessions stop working at once, in every open tab (issue 28).
  const [row] = await db.query<{
    editor_id: number;
    email: string;
    role: string;
    expires_at: string;
    confirmed_at: string | null;
  }>`
    SELECT s.editor_id, e.email, e.role, s.expires_at, s.confirmed_at FROM editor_sessions s
    JOIN editors e ON e.id = s.editor_id
    WHERE s.id_hash = ${hashSessionId(id)} AND e.suspended_at IS NULL`;
  if (!row) return null;
  const expiresAt = new Date(row.expires_at);
  if (expiresAt.getTime() <= now) return null;
  return {
    editor: { id: Number(row.editor_id), email: row.email, role: roleOf(row.role) },
    expiresAt,
    confirmedAt: row.confirmed_at ? new Date(row.confirmed_at) : null,
  };
}

/** Whether session `id` is still open, read inside the caller's transaction. */
export async function sessionIsOpen(
  q: Query,
  id: string | undefined,
  now = Date.now(),
): Promise<boolean> {
  if (id?.length !== 43 || !/^[A-Za-z0-9_-]+$/.test(id)) return false;
  const rows = await q`
    SELECT 1 AS open FROM editor_sessions
    WHERE id_hash = ${hashSessionId(id)} AND expires_at > ${new Date(now).toISOString()}`;
  return rows.length > 0;
}

export async function endSession(q: Query, id: string | undefined): Promise<void> {
  if (id) await q`DELETE FROM editor_sessions WHERE id_hash = ${hashSessionId(id)}`;
}

/** Ends every session of an editor; how many there were. */
export async function endAllSessions(q: Query, editorId: number): Promise<number> {
  const ended =
    await q`DELETE FROM editor_sessions WHERE editor_id = ${editorId} RETURNING id_hash`;
  return ended.length;
}
