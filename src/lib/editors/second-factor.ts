// Owns what a second factor means to the site (issue 28): which factors a person has (passkeys,
// an authenticator app), the site's rule — every role at or above a level must have one, kept
// in its own `settings` row — and a password sign-in that waits for its second step. That wait
// is a row named by the hash of a random cookie value: the page that asks for the code carries
// nothing (no password, no token), the row expires in minutes, allows a few wrong codes, and is
// used up by the step that completes it.
import 'server-only';
import { createHash, randomBytes } from 'node:crypto';
import { getDatabase, type Query } from '../data/db';
import { listPasskeys, type Passkey } from './passkeys';
import { atLeast, isRole, type Role } from './permissions';
import { type TotpStatus, totpStatus } from './totp';

/** The settings row of the rule: a role's name, or absent (nobody is required). */
const REQUIRED_FROM_KEY = 'second_factor_required_from';
/** How long the second step waits after the password was right. */
export const PENDING_SIGN_IN_SECONDS = 5 * 60;
/** Wrong codes one pending sign-in takes before the password must be typed again. */
export const PENDING_SIGN_IN_ATTEMPTS = 5;

/** The least role that must have a second factor, or null when no one must. */
export async function secondFactorRequiredFrom(q: Query): Promise<Role | null> {
  const [row] = await q<{ value: string }>`
    SELECT value FROM settings WHERE key = ${REQUIRED_FROM_KEY}`;
  return isRole(row?.value) ? row.value : null;
}

export async function requireSecondFactorFrom(q: Query, least: Role | null): Promise<void> {
  await q`DELETE FROM settings WHERE key = ${REQUIRED_FROM_KEY}`;
  if (least !== null)
    await q`INSERT INTO settings (key, value) VALUES (${REQUIRED_FROM_KEY}, ${least})`;
}

export type Factors = { passkeys: number; totp: boolean };

export async function factorsOf(q: Query, editorId: number): Promise<Factors> {
  const [passkeys] = await q<{ n: number | string }>`
    SELECT COUNT(*) AS n FROM editor_passkeys WHERE editor_id = ${editorId}`;
  const [totp] = await q`
    SELECT 1 AS on_ FROM editor_totp WHERE editor_id = ${editorId} AND confirmed_at IS NOT NULL`;
  return { passkeys: Number(passkeys?.n ?? 0), totp: totp !== undefined };
}

export function hasSecondFactor(factors: Factors): boolean {
  return factors.totp || factors.passkeys > 0;
}

/** Whether the site's rule asks `role` for a second factor. */
export function isRequiredOf(role: Role, least: Role | null): boolean {
  return least !== null && atLeast(role, least);
}

/**
 * Whether `person` must set up a second factor before anything else: the rule covers their
 * role, and they have none.
 */
export async function mustSetUpSecondFactor(
  q: Query,
  person: { id: number; role: Role },
): Promise<boolean> {
  return (
    isRequiredOf(person.role, await secondFactorRequiredFrom(q)) &&
    !hasSecondFactor(await factorsOf(q, person.id))
  );
}

/**
 * mustSetUpSecondFactor in one query, for the guard, which asks it before every action: the
 * rule's row and the person's factors read together.
 */
export async function secondFactorMissing(
  q: Query,
  person: { id: number; role: Role },
): Promise<boolean> {
  const [row] = await q<{ least: string | null; factors: number | string }>`
    SELECT (SELECT value FROM settings WHERE key = ${REQUIRED_FROM_KEY}) AS least,
      (SELECT COUNT(*) FROM editor_passkeys WHERE editor_id = ${person.id})
      + (SELECT COUNT(*) FROM editor_totp
         WHERE editor_id = ${person.id} AND confirmed_at IS NOT NULL) AS factors`;
  const least = isRole(row?.least) ? row.least : null;
  return isRequiredOf(person.role, least) && Number(row?.factors ?? 0) === 0;
}

/**
 * Whether removing one of `person`'s factors (`removing`) would leave someone the rule covers
 * with none: then it is refused, and they set up another first.
 */
export async function isLastRequiredFactor(
  q: Query,
  person: { id: number; role: Role },
  removing: 'passkey' | 'totp',
): Promise<boolean> {
  if (!isRequiredOf(person.role, await secondFactorRequiredFrom(q))) return false;
  const factors = await factorsOf(q, person.id);
  const left =
    removing === 'totp' ? factors.passkeys : factors.passkeys - 1 + (factors.totp ? 1 : 0);
  return left <= 0;
}

function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** A password sign-in waiting for its second step: the cookie's value, to be set. */
export async function startPendingSignIn(
  q: Query,
  editorId: number,
  next: string,
  now = Date.now(),
): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  // One waiting sign-in per person: a second password sign-in replaces the first.
  await q`DELETE FROM pending_sign_ins WHERE editor_id = ${editorId} OR expires_at <= ${now}`;
  await q`
    INSERT INTO pending_sign_ins (id_hash, editor_id, next, expires_at, attempts)
    VALUES (${hashToken(token)}, ${editorId}, ${next}, ${now + PENDING_SIGN_IN_SECONDS * 1000}, 0)`;
  return token;
}

export type PendingSignIn = {
  editorId: number;
  email: string;
  role: Role;
  next: string;
  factors: Factors;
};

function isToken(token: string | undefined): token is string {
  return token?.length === 43 && /^[A-Za-z0-9_-]+$/.test(token);
}

/** The sign-in a cookie names, while it waits (not expired, not used up, not suspended). */
export async function pendingSignIn(
  q: Query,
  token: string | undefined,
  now = Date.now(),
): Promise<PendingSignIn | null> {
  if (!isToken(token)) return null;
  const [row] = await q<{ editor_id: number; email: string; role: string; next: string }>`
    SELECT p.editor_id, e.email, e.role, p.next FROM pending_sign_ins p
    JOIN editors e ON e.id = p.editor_id
    WHERE p.id_hash = ${hashToken(token)} AND p.expires_at > ${now}
      AND p.attempts < ${PENDING_SIGN_IN_ATTEMPTS} AND e.suspended_at IS NULL`;
  if (!row || !isRole(row.role)) return null;
  const editorId = Number(row.editor_id);
  return {
    editorId,
    email: row.email,
    role: row.role,
    next: row.next,
    factors: await factorsOf(q, editorId),
  };
}

/** Counts a wrong code against the waiting sign-in; how many it may still take. */
export async function countWrongCode(q: Query, token: string): Promise<number> {
  const [row] = await q<{ attempts: number | string }>`
    UPDATE pending_sign_ins SET attempts = attempts + 1
    WHERE id_hash = ${hashToken(token)} RETURNING attempts`;
  return Math.max(0, PENDING_SIGN_IN_ATTEMPTS - Number(row?.attempts ?? PENDING_SIGN_IN_ATTEMPTS));
}

/** Ends a waiting sign-in (completed, or started over). */
export async function endPendingSignIn(q: Query, token: string | undefined): Promise<void> {
  if (isToken(token)) await q`DELETE FROM pending_sign_ins WHERE id_hash = ${hashToken(token)}`;
}

export type SecurityOverview = {
  passkeys: Passkey[];
  totp: TotpStatus;
  requiredFrom: Role | null;
  /** The rule covers this person and they have no factor yet. */
  mustSetUp: boolean;
};

/** What the security screen shows a person of their own sign-in, and the site's rule. */
export async function securityOverview(person: {
  id: number;
  role: Role;
}): Promise<SecurityOverview> {
  const db = await getDatabase();
  const [passkeys, totp, requiredFrom] = await Promise.all([
    listPasskeys(db.query, person.id),
    totpStatus(db.query, person.id),
    secondFactorRequiredFrom(db.query),
  ]);
  return {
    passkeys,
    totp,
    requiredFrom,
    mustSetUp: isRequiredOf(person.role, requiredFrom) && passkeys.length === 0 && !totp.confirmed,
  };
}
