// Owns the authenticator app's second factor (TOTP, RFC 6238, issue 28): one secret per person,
// set up in two steps (a secret offered, then confirmed with a code the app shows), the codes
// checked with otpauth, each 30-second step usable once (a code seen on a shoulder or in a
// phishing proxy cannot be played again, and an older code never after a newer one), and ten
// one-time recovery codes, shown once and stored only as hashes.
import 'server-only';
import { createHash, randomInt } from 'node:crypto';
import * as OTPAuth from 'otpauth';
import { recordAudit } from '../audit/audit';
import type { Query } from '../data/db';

/** What the authenticator app shows as the account's issuer. */
export const TOTP_ISSUER = 'Folio';
const PERIOD_SECONDS = 30;
const DIGITS = 6;
/** Codes one step early or late are taken: a phone's clock drifts, and a person types slowly. */
const WINDOW = 1;
export const RECOVERY_CODE_COUNT = 10;
// No 0/O, 1/I/L: a recovery code is read off paper and typed.
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

function totpOf(secret: string, label = ''): OTPAuth.TOTP {
  return new OTPAuth.TOTP({
    issuer: TOTP_ISSUER,
    label,
    algorithm: 'SHA1',
    digits: DIGITS,
    period: PERIOD_SECONDS,
    secret: OTPAuth.Secret.fromBase32(secret),
  });
}

/** A new random secret (160 bits, RFC 4226's recommendation), in base32 as apps take it. */
export function newTotpSecret(): string {
  return new OTPAuth.Secret({ size: 20 }).base32;
}

/** The otpauth:// address an app reads from the QR code (or the person types in). */
export function totpUri(secret: string, email: string): string {
  return totpOf(secret, email).toString();
}

/** The code an app shows for `secret` at `now` (tests, and nothing else, need to make one). */
export function totpCode(secret: string, now = Date.now()): string {
  return totpOf(secret).generate({ timestamp: now });
}

/** A code as typed: spaces and dashes (apps show "123 456") dropped. */
function digitsOf(code: string): string {
  return code.replace(/[\s-]/g, '');
}

/**
 * The 30-second step `code` belongs to for `secret`, within a step of `now`, or null when it is
 * no code of this secret's.
 */
export function totpStep(secret: string, code: string, now = Date.now()): number | null {
  const token = digitsOf(code);
  if (!/^\d{6}$/.test(token)) return null;
  const delta = totpOf(secret).validate({ token, timestamp: now, window: WINDOW });
  return delta === null ? null : Math.floor(now / 1000 / PERIOD_SECONDS) + delta;
}

export type TotpStatus = {
  /** Set up and confirmed: sign-in asks for a code. */
  confirmed: boolean;
  /** A secret offered and not yet confirmed (the set-up screen shows it again). */
  pendingSecret: string | null;
  recoveryCodesLeft: number;
};

export async function totpStatus(q: Query, editorId: number): Promise<TotpStatus> {
  const [row] = await q<{ secret: string; confirmed_at: string | null }>`
    SELECT secret, confirmed_at FROM editor_totp WHERE editor_id = ${editorId}`;
  const [count] = await q<{ n: number | string }>`
    SELECT COUNT(*) AS n FROM editor_recovery_codes WHERE editor_id = ${editorId}`;
  return {
    confirmed: row?.confirmed_at != null,
    pendingSecret: row && row.confirmed_at == null ? row.secret : null,
    recoveryCodesLeft: Number(count?.n ?? 0),
  };
}

/**
 * Offers a new secret to confirm, replacing one offered before (a QR code scanned into the wrong
 * app is started over). Null when an app is already set up: it is turned off first, on purpose.
 */
export async function offerTotpSecret(q: Query, editorId: number): Promise<string | null> {
  const [row] = await q<{ confirmed_at: string | null }>`
    SELECT confirmed_at FROM editor_totp WHERE editor_id = ${editorId}`;
  if (row?.confirmed_at != null) return null;
  const secret = newTotpSecret();
  await q`DELETE FROM editor_totp WHERE editor_id = ${editorId}`;
  await q`
    INSERT INTO editor_totp (editor_id, secret, confirmed_at, last_step)
    VALUES (${editorId}, ${secret}, NULL, 0)`;
  return secret;
}

/**
 * Confirms the offered secret with a code from the app: from now on sign-in asks for one. The
 * ten recovery codes, in clear, to be shown once (only their hashes are kept); or null when the
 * code is not the app's (or nothing was offered), and nothing changes.
 */
export async function confirmTotp(
  q: Query,
  editorId: number,
  code: string,
  now = Date.now(),
): Promise<string[] | null> {
  const [row] = await q<{ secret: string }>`
    SELECT secret FROM editor_totp WHERE editor_id = ${editorId} AND confirmed_at IS NULL`;
  const step = row ? totpStep(row.secret, code, now) : null;
  if (step === null) return null;
  await q`
    UPDATE editor_totp SET confirmed_at = ${new Date(now).toISOString()}, last_step = ${step}
    WHERE editor_id = ${editorId}`;
  await recordAudit(q, { action: 'second-factor.enabled', detail: { method: 'totp' } });
  return replaceRecoveryCodes(q, editorId);
}

/** Turns the app off: its secret and the recovery codes go. */
export async function removeTotp(q: Query, editorId: number): Promise<boolean> {
  const removed =
    await q`DELETE FROM editor_totp WHERE editor_id = ${editorId} RETURNING editor_id`;
  await q`DELETE FROM editor_recovery_codes WHERE editor_id = ${editorId}`;
  if (removed.length > 0)
    await recordAudit(q, { action: 'second-factor.disabled', detail: { method: 'totp' } });
  return removed.length > 0;
}

export type CodeCheck = 'accepted' | 'wrong' | 'reused';

/**
 * Checks a sign-in code against the person's confirmed secret and, when it is right, marks its
 * step used — in the caller's transaction, by one conditional UPDATE, so two requests racing
 * with the same code cannot both pass: the second finds the step taken ('reused').
 */
export async function spendTotpCode(
  q: Query,
  editorId: number,
  code: string,
  now = Date.now(),
): Promise<CodeCheck> {
  const [row] = await q<{ secret: string }>`
    SELECT secret FROM editor_totp WHERE editor_id = ${editorId} AND confirmed_at IS NOT NULL`;
  const step = row ? totpStep(row.secret, code, now) : null;
  if (step === null) return 'wrong';
  const taken = await q`
    UPDATE editor_totp SET last_step = ${step}
    WHERE editor_id = ${editorId} AND last_step < ${step} RETURNING editor_id`;
  return taken.length > 0 ? 'accepted' : 'reused';
}

/** A recovery code as typed: case, spaces and dashes do not matter. */
function normaliseRecoveryCode(code: string): string {
  return code.toLowerCase().replace(/[\s-]/g, '');
}

function hashRecoveryCode(code: string): string {
  // 50 random bits each, so a fast hash is enough: nobody can try 2^50 guesses against it,
  // and sign-in attempts are throttled before any is checked.
  return createHash('sha256').update(normaliseRecoveryCode(code)).digest('hex');
}

function newRecoveryCode(): string {
  const chars = Array.from(
    { length: 10 },
    () => RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)],
  ).join('');
  return `${chars.slice(0, 5)}-${chars.slice(5)}`;
}

/** Ten new recovery codes, in clear, replacing any left (the old ones stop working). */
export async function replaceRecoveryCodes(q: Query, editorId: number): Promise<string[]> {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  await q`DELETE FROM editor_recovery_codes WHERE editor_id = ${editorId}`;
  for (const code of codes)
    await q`
      INSERT INTO editor_recovery_codes (editor_id, code_hash)
      VALUES (${editorId}, ${hashRecoveryCode(code)})`;
  return codes;
}

/** Uses up one recovery code: true when it was one of the person's, and it is gone now. */
export async function spendRecoveryCode(
  q: Query,
  editorId: number,
  code: string,
): Promise<boolean> {
  if (!/^[a-z0-9]{10}$/.test(normaliseRecoveryCode(code))) return false;
  const used = await q`
    DELETE FROM editor_recovery_codes
    WHERE editor_id = ${editorId} AND code_hash = ${hashRecoveryCode(code)} RETURNING code_hash`;
  return used.length > 0;
}
