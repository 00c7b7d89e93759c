// Owns invitations (issue 28, decision 0039): an Administrator asks someone to join the site
// with a role; they get a single-use link that expires, choose a password on it, and are an
// editor. Only the token's SHA-256 is stored (as sessions' ids are): a copy of the database
// opens no account. Every use asks again whether the inviter may still invite — removed,
// suspended or demoted below Administrator since, and the invitation is refused — and the
// acceptance is one commit (the account made, the invitation used), so a link used twice at
// once makes one account.
import 'server-only';
import { createHash, randomBytes } from 'node:crypto';
import { recordAudit } from '../audit/audit';
import { type Database, getDatabase, type Query } from '../data/db';
import { emailSchema, passwordSchema } from './accounts';
import { can, isRole, type Role } from './permissions';

export const INVITATION_TTL_DAYS = 7;
/** How soon the same address may be invited (and so emailed) again. */
export const INVITATION_RESEND_MS = 60_000;
const INVITATION_TTL_MS = INVITATION_TTL_DAYS * 24 * 60 * 60 * 1000;

/** A role an invitation may carry: the Owner is handed over, never invited. */
export type InvitedRole = Exclude<Role, 'owner'>;

export function isInvitedRole(value: unknown): value is InvitedRole {
  return isRole(value) && value !== 'owner';
}

/** Why an invitation could not be made or used, in words for the person asking. */
export class InvitationRefused extends Error {
  constructor(
    message: string,
    readonly code:
      | 'invalid'
      | 'exists'
      | 'used'
      | 'expired'
      | 'revoked'
      | 'inviter'
      | 'unknown'
      | 'too-soon',
  ) {
    super(message);
    this.name = 'InvitationRefused';
  }
}

/** The HTTP status of each refusal, for every screen and action that answers one. */
export const INVITATION_REFUSAL_STATUS: Readonly<Record<InvitationRefused['code'], number>> = {
  invalid: 422,
  exists: 409,
  used: 410,
  expired: 410,
  revoked: 410,
  inviter: 403,
  unknown: 404,
  'too-soon': 429,
};

export function isInvitationRefused(error: unknown): error is InvitationRefused {
  return error instanceof InvitationRefused;
}

export function hashInvitationToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** What the link carries: 32 random bytes, base64url (43 characters). */
function isTokenShaped(token: string): boolean {
  return token.length === 43 && /^[A-Za-z0-9_-]+$/.test(token);
}

export type Invitation = {
  id: number;
  email: string;
  role: InvitedRole;
  invitedBy: string | null;
  createdAt: string;
  expiresAt: string;
  /**
   * Why a pending invitation can no longer be accepted, for the People screen (the sender may
   * no longer invite, or the email has an account now); absent when it can.
   */
  unusable?: string;
};

/**
 * Invites `email` as `role`, by `inviter` (who must be allowed to manage people: asked here as
 * well as by the action's guard). Returns the token, to be shown once: it is not stored.
 * An email that already has an account is refused (they sign in); a pending invitation for
 * the same email is replaced (revoked), so one link at a time can make the account.
 */
export async function createInvitation(
  db: Database,
  inviter: { id: number },
  typedEmail: string,
  role: string,
  now = Date.now(),
): Promise<{ token: string; invitation: Invitation }> {
  const parsed = emailSchema.safeParse(typedEmail);
  // An empty field asks for an address; anything else typed is said to be no address.
  if (!parsed.success)
    throw new InvitationRefused(
      typedEmail.trim() === ''
        ? 'Enter the email address to invite.'
        : `“${typedEmail.trim().slice(0, 100)}” is not an email address: check it and try again.`,
      'invalid',
    );
  const email = parsed.data;
  if (!isInvitedRole(role))
    throw new InvitationRefused(
      'Choose a role below the Owner: the Owner hands the site over instead.',
      'invalid',
    );
  const token = randomBytes(32).toString('base64url');
  return db.transaction(async (q) => {
    await requireInviter(q, inviter.id);
    const [account] = await q`SELECT 1 AS one FROM editors WHERE email = ${email}`;
    if (account)
      throw new InvitationRefused(
        `${email} already has an account here: they can sign in. Change their role on this screen.`,
        'exists',
      );
    // Third hostile pass (L2): each press of Invite mailed the address again, so a stolen
    // session could mail-bomb anyone through the site's mail server. One a minute per address.
    const [recent] = await q`
      SELECT 1 AS one FROM invitations
      WHERE email = ${email} AND created_at > ${new Date(now - INVITATION_RESEND_MS).toISOString()}`;
    if (recent)
      throw new InvitationRefused(
        `${email} was invited less than a minute ago: the link shown then still works. Wait a minute to send a new one.`,
        'too-soon',
      );
    const at = new Date(now).toISOString();
    await q`UPDATE invitations SET revoked_at = ${at}
      WHERE email = ${email} AND accepted_at IS NULL AND revoked_at IS NULL`;
    const expiresAt = new Date(now + INVITATION_TTL_MS).toISOString();
    const [row] = await q<{ id: number }>`
      INSERT INTO invitations (token_hash, email, role, invited_by, created_at, expires_at)
      VALUES (${hashInvitationToken(token)}, ${email}, ${role}, ${inviter.id}, ${at}, ${expiresAt})
      RETURNING id`;
    if (!row) throw new Error('invitation insert returned no row');
    const [by] = await q<{ email: string }>`SELECT email FROM editors WHERE id = ${inviter.id}`;
    await recordAudit(q, {
      action: 'editor.invited',
      actor: by ? { id: inviter.id, email: by.email } : undefined,
      detail: { person: email, role },
    });
    return {
      token,
      invitation: {
        id: Number(row.id),
        email,
        role,
        invitedBy: by?.email ?? null,
        createdAt: at,
        expiresAt,
      },
    };
  });
}

/** Refuses unless the person `id` exists, is not suspended and may manage people. */
async function requireInviter(q: Query, id: number | null): Promise<void> {
  const [row] =
    id === null
      ? []
      : await q<{ role: string; suspended_at: string | null }>`
          SELECT role, suspended_at FROM editors WHERE id = ${id}`;
  const mayInvite =
    id !== null &&
    row !== undefined &&
    row.suspended_at === null &&
    isRole(row.role) &&
    can({ id, role: row.role }, 'people.manage');
  if (!mayInvite)
    throw new InvitationRefused(
      'The person who sent this invitation can no longer invite people. Ask an Administrator of this site for a new one.',
      'inviter',
    );
}

/**
 * Pending invitations (not used, revoked or expired), newest first. One whose link would be
 * refused now says why (`unusable`: the sender was demoted, suspended or removed, or the email
 * has an account now): the People screen shows it as not usable, to withdraw, not as pending.
 */
export async function pendingInvitations(db: Database, now = Date.now()): Promise<Invitation[]> {
  const rows = await db.query<{
    id: number;
    email: string;
    role: string;
    invited_by_id: number | null;
    invited_by: string | null;
    inviter_role: string | null;
    inviter_suspended_at: string | null;
    has_account: number | string | null;
    created_at: string;
    expires_at: string;
  }>`
    SELECT i.id, i.email, i.role, i.invited_by AS invited_by_id, e.email AS invited_by,
      e.role AS inviter_role, e.suspended_at AS inviter_suspended_at,
      (SELECT COUNT(*) FROM editors a WHERE a.email = i.email) AS has_account,
      i.created_at, i.expires_at
    FROM invitations i LEFT JOIN editors e ON e.id = i.invited_by
    WHERE i.accepted_at IS NULL AND i.revoked_at IS NULL
      AND i.expires_at > ${new Date(now).toISOString()}
    ORDER BY i.created_at DESC, i.id DESC`;
  return rows.flatMap((row) => {
    if (!isInvitedRole(row.role)) return [];
    // The same rule as accepting (requireInviter), read from the row rather than asked again.
    const inviterMay =
      row.invited_by_id !== null &&
      row.invited_by !== null &&
      row.inviter_suspended_at === null &&
      isRole(row.inviter_role) &&
      can({ id: Number(row.invited_by_id), role: row.inviter_role }, 'people.manage');
    const unusable =
      Number(row.has_account ?? 0) > 0
        ? 'Not usable: this email has an account now.'
        : !inviterMay
          ? 'Not usable: its sender can no longer invite people.'
          : undefined;
    return [
      {
        id: Number(row.id),
        email: row.email,
        role: row.role,
        invitedBy: row.invited_by,
        createdAt: row.created_at,
        expiresAt: row.expires_at,
        ...(unusable ? { unusable } : {}),
      },
    ];
  });
}

/** Revokes a pending invitation; false when it was not pending (used, revoked, unknown). */
export async function revokeInvitation(
  db: Database,
  id: number,
  now = Date.now(),
): Promise<boolean> {
  return db.transaction(async (q) => {
    const revoked = await q<{ email: string }>`
      UPDATE invitations SET revoked_at = ${new Date(now).toISOString()}
      WHERE id = ${id} AND accepted_at IS NULL AND revoked_at IS NULL RETURNING email`;
    const [invitation] = revoked;
    if (invitation)
      await recordAudit(q, {
        action: 'editor.invitation_revoked',
        detail: { person: invitation.email },
      });
    return revoked.length > 0;
  });
}

/** An invitation still usable by `token`, read inside `q`; refuses in words otherwise. */
async function usable(
  q: Query,
  token: string,
  now: number,
): Promise<{ id: number; email: string; role: InvitedRole; invitedBy: number | null }> {
  const unknown = new InvitationRefused(
    'This invitation link is not one this site made. Check that the whole link was copied, or ask for a new one.',
    'unknown',
  );
  if (!isTokenShaped(token)) throw unknown;
  const [row] = await q<{
    id: number;
    email: string;
    role: string;
    invited_by: number | null;
    expires_at: string;
    accepted_at: string | null;
    revoked_at: string | null;
  }>`
    SELECT id, email, role, invited_by, expires_at, accepted_at, revoked_at FROM invitations
    WHERE token_hash = ${hashInvitationToken(token)}`;
  if (!row || !isInvitedRole(row.role)) throw unknown;
  if (row.accepted_at !== null)
    throw new InvitationRefused(
      'This invitation has already been used. Sign in with the email and password chosen then.',
      'used',
    );
  if (row.revoked_at !== null)
    throw new InvitationRefused(
      'This invitation was withdrawn. Ask an Administrator of this site for a new one.',
      'revoked',
    );
  if (new Date(row.expires_at).getTime() <= now)
    throw new InvitationRefused(
      `This invitation has expired (they last ${INVITATION_TTL_DAYS} days). Ask an Administrator of this site for a new one.`,
      'expired',
    );
  const invitedBy = row.invited_by === null ? null : Number(row.invited_by);
  await requireInviter(q, invitedBy);
  return { id: Number(row.id), email: row.email, role: row.role, invitedBy };
}

/**
 * The invitation a link names, for the accept page: who it is for, as what, and whether that
 * email has an account already (then the page says to sign in). Refuses in words.
 */
export async function invitationFor(
  db: Database,
  token: string,
  now = Date.now(),
): Promise<{ email: string; role: InvitedRole; hasAccount: boolean }> {
  // A read: no write lock (acceptInvitation asks all of it again inside its commit).
  const found = await usable(db.query, token, now);
  const [account] = await db.query`SELECT 1 AS one FROM editors WHERE email = ${found.email}`;
  return { email: found.email, role: found.role, hasAccount: Boolean(account) };
}

/** invitationFor on the server's database, for the accept page. */
export async function invitationForLink(
  token: string,
): Promise<{ email: string; role: InvitedRole; hasAccount: boolean }> {
  return invitationFor(await getDatabase(), token);
}

/**
 * Uses the invitation: makes the account with `password` and the invited role, and marks the
 * invitation used, in one commit. An email that has an account by now is refused (sign in).
 */
export async function acceptInvitation(
  db: Database,
  token: string,
  password: string,
  now = Date.now(),
): Promise<{ id: number; email: string; role: InvitedRole }> {
  const parsed = passwordSchema.safeParse(password);
  if (!parsed.success)
    throw new InvitationRefused(parsed.error.issues[0]?.message ?? 'Choose a password.', 'invalid');
  // Hashed before the transaction: Argon2id takes a moment, and the write lock is shared.
  const hash = await Bun.password.hash(parsed.data, { algorithm: 'argon2id' });
  return db.transaction(async (q) => {
    const found = await usable(q, token, now);
    const [account] = await q`SELECT 1 AS one FROM editors WHERE email = ${found.email}`;
    if (account)
      throw new InvitationRefused(
        `${found.email} already has an account here: sign in with its password instead.`,
        'exists',
      );
    const at = new Date(now).toISOString();
    const [row] = await q<{ id: number }>`
      INSERT INTO editors (email, password_hash, created_at, role)
      VALUES (${found.email}, ${hash}, ${at}, ${found.role}) RETURNING id`;
    if (!row) throw new Error('editor insert returned no row');
    const used = await q`UPDATE invitations SET accepted_at = ${at}
      WHERE id = ${found.id} AND accepted_at IS NULL RETURNING id`;
    // Cannot happen inside the write lock; if it ever did, nothing is kept.
    if (used.length === 0) throw new Error('invitation used twice inside one transaction');
    // The new person did it: nobody was signed in.
    await recordAudit(q, {
      action: 'editor.invitation_accepted',
      actor: { id: Number(row.id), email: found.email },
      detail: { role: found.role },
    });
    return { id: Number(row.id), email: found.email, role: found.role };
  });
}
