// Owns passkeys (WebAuthn, issue 28) with @simplewebauthn/server: several per person, each
// with a name they choose, registered as discoverable credentials so that signing in needs no
// email and no password. The relying party is the configured SITE_URL — never the request's
// Host, which a client chooses — or, without one, the local origin `bun run start` serves
// (http://localhost:PORT, docs/decisions/0042). Every challenge is stored server-side, expires
// in five minutes, and is deleted by the first answer that names it: a replayed answer finds
// none. An answer from another origin or for another relying party is refused in words.
import 'server-only';
import {
  type AuthenticationResponseJSON,
  generateAuthenticationOptions,
  generateRegistrationOptions,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from '@simplewebauthn/server';
import { recordAudit } from '../audit/audit';
import type { Database, Query } from '../data/db';
import { getEnv } from '../runtime/env';
import type { Editor } from './accounts';
import { isRole } from './permissions';

/** How long a challenge may be answered: as long as the browser's own prompt waits. */
export const CHALLENGE_SECONDS = 5 * 60;
export const PASSKEY_NAME_MAX = 60;
export const PASSKEYS_PER_PERSON_MAX = 20;

export type RelyingParty = { id: string; origin: string; name: string };

/** Who passkeys are made for: SITE_URL's host and origin, or localhost on PORT. */
export function relyingParty(): RelyingParty {
  const env = getEnv();
  const origin = env.SITE_URL ? new URL(env.SITE_URL).origin : `http://localhost:${env.PORT}`;
  return { id: new URL(origin).hostname, origin, name: 'Folio' };
}

export type Passkey = { id: string; name: string; createdAt: string; lastUsedAt: string | null };

export async function listPasskeys(q: Query, editorId: number): Promise<Passkey[]> {
  const rows = await q<{
    id: string;
    name: string;
    created_at: string;
    last_used_at: string | null;
  }>`
    SELECT id, name, created_at, last_used_at FROM editor_passkeys
    WHERE editor_id = ${editorId} ORDER BY created_at, id`;
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    createdAt: row.created_at,
    lastUsedAt: row.last_used_at,
  }));
}

/** Renames one of the person's own passkeys; false when it is not theirs (or gone). */
export async function renamePasskey(
  q: Query,
  editorId: number,
  id: string,
  name: string,
): Promise<boolean> {
  const renamed = await q`
    UPDATE editor_passkeys SET name = ${name}
    WHERE id = ${id} AND editor_id = ${editorId} RETURNING id`;
  return renamed.length > 0;
}

/** Removes one of the person's own passkeys; false when it is not theirs (or gone). */
export async function removePasskey(q: Query, editorId: number, id: string): Promise<boolean> {
  const removed = await q<{ name: string }>`
    DELETE FROM editor_passkeys WHERE id = ${id} AND editor_id = ${editorId} RETURNING name`;
  if (removed[0])
    await recordAudit(q, { action: 'passkey.removed', detail: { name: removed[0].name } });
  return removed.length > 0;
}

async function storeChallenge(
  q: Query,
  challenge: string,
  purpose: 'register' | 'sign-in',
  editorId: number | null,
  now: number,
): Promise<void> {
  // Expired challenges nobody answered are cleared as new ones are made.
  await q`DELETE FROM webauthn_challenges WHERE expires_at <= ${now}`;
  await q`
    INSERT INTO webauthn_challenges (challenge, purpose, editor_id, expires_at)
    VALUES (${challenge}, ${purpose}, ${editorId}, ${now + CHALLENGE_SECONDS * 1000})`;
}

/**
 * Takes the challenge an answer names, if the server made it for this purpose (and person) and
 * it has not expired: deleted, so it is never accepted twice, whatever the answer's fate.
 */
async function takeChallenge(
  q: Query,
  challenge: string,
  purpose: 'register' | 'sign-in',
  editorId: number | null,
  now: number,
): Promise<boolean> {
  const taken = await q<{ editor_id: number | null; expires_at: number | string }>`
    DELETE FROM webauthn_challenges WHERE challenge = ${challenge} AND purpose = ${purpose}
    RETURNING editor_id, expires_at`;
  const [row] = taken;
  if (!row || Number(row.expires_at) <= now) return false;
  return editorId === null || Number(row.editor_id) === editorId;
}

/** What the browser's client data says: the challenge and the origin it was asked from. */
function clientData(clientDataJSON: string): { challenge: string; origin: string } | null {
  try {
    const data = JSON.parse(Buffer.from(clientDataJSON, 'base64url').toString('utf8'));
    return typeof data?.challenge === 'string' && typeof data?.origin === 'string'
      ? { challenge: data.challenge, origin: data.origin }
      : null;
  } catch {
    return null;
  }
}

/** Why a passkey answer was refused, in the words the person reads. */
export const PASSKEY_REFUSALS = {
  challenge:
    'This passkey request has expired or was already used. Try again: a new one is made each time.',
  origin: 'This passkey answer was made for another site address, so it is refused.',
  'relying-party': 'This passkey belongs to another site, so it is refused.',
  unknown: 'This passkey is not registered on this site (it may have been removed).',
  invalid: 'The passkey could not be verified. Try again.',
  'user-verification':
    'This passkey did not check it is you (no PIN, fingerprint or face): use one that does.',
  suspended: 'This account is suspended. Ask an Administrator of this site to restore it.',
  full: `You have ${PASSKEYS_PER_PERSON_MAX} passkeys already: remove one first.`,
  duplicate: 'This passkey is registered already.',
} as const;
export type PasskeyRefusal = keyof typeof PASSKEY_REFUSALS;

/** The library's refusal of an origin or relying party as ours; anything else is 'invalid'. */
function refusalOf(error: unknown): PasskeyRefusal {
  const message = error instanceof Error ? error.message : '';
  if (/origin/i.test(message)) return 'origin';
  if (/RP ?ID/i.test(message)) return 'relying-party';
  if (/user verification/i.test(message)) return 'user-verification';
  return 'invalid';
}

/** Registration options for the person's next passkey (the challenge stored for them). */
export async function registrationOptions(
  db: Database,
  editor: Editor,
  now = Date.now(),
): Promise<PublicKeyCredentialCreationOptionsJSON> {
  const rp = relyingParty();
  const existing = await db.query<{ id: string; transports: string }>`
    SELECT id, transports FROM editor_passkeys WHERE editor_id = ${editor.id}`;
  const options = await generateRegistrationOptions({
    rpName: rp.name,
    rpID: rp.id,
    userName: editor.email,
    // The user handle: the person's id, which says nothing a passkey list should not show.
    userID: new TextEncoder().encode(`folio-${editor.id}`),
    attestationType: 'none',
    // The same authenticator is not registered twice.
    excludeCredentials: existing.map((row) => ({
      id: row.id,
      transports: row.transports ? row.transports.split(',') : undefined,
    })),
    // Discoverable, so the sign-in form can ask "which account?" of the authenticator itself.
    // User verification (the device's PIN, fingerprint or face) required: the passkey is the
    // whole sign-in, so it must be something the person has *and* is or knows.
    authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
    timeout: CHALLENGE_SECONDS * 1000,
  });
  await db.transaction((q) => storeChallenge(q, options.challenge, 'register', editor.id, now));
  return options;
}

/** Verifies a new passkey's answer and keeps it under `name`; or why not. */
export async function registerPasskey(
  db: Database,
  editor: Editor,
  name: string,
  response: RegistrationResponseJSON,
  now = Date.now(),
): Promise<{ ok: true } | { ok: false; refusal: PasskeyRefusal }> {
  const rp = relyingParty();
  const data = clientData(response.response.clientDataJSON);
  if (!data) return { ok: false, refusal: 'invalid' };
  return db.transaction(async (q) => {
    if (!(await takeChallenge(q, data.challenge, 'register', editor.id, now)))
      return { ok: false, refusal: 'challenge' };
    if (data.origin !== rp.origin) return { ok: false, refusal: 'origin' };
    let verified: Awaited<ReturnType<typeof verifyRegistrationResponse>>;
    try {
      verified = await verifyRegistrationResponse({
        response,
        expectedChallenge: data.challenge,
        expectedOrigin: rp.origin,
        expectedRPID: rp.id,
        requireUserVerification: true,
      });
    } catch (error) {
      return { ok: false, refusal: refusalOf(error) };
    }
    if (!verified.verified) return { ok: false, refusal: 'invalid' };
    const { credential } = verified.registrationInfo;
    const [count] = await q<{ n: number | string }>`
      SELECT COUNT(*) AS n FROM editor_passkeys WHERE editor_id = ${editor.id}`;
    if (Number(count?.n ?? 0) >= PASSKEYS_PER_PERSON_MAX) return { ok: false, refusal: 'full' };
    const [taken] = await q`SELECT 1 AS taken FROM editor_passkeys WHERE id = ${credential.id}`;
    if (taken) return { ok: false, refusal: 'duplicate' };
    await q`
      INSERT INTO editor_passkeys
        (id, editor_id, public_key, counter, transports, name, created_at, last_used_at)
      VALUES (${credential.id}, ${editor.id},
        ${Buffer.from(credential.publicKey).toString('base64url')}, ${credential.counter},
        ${(credential.transports ?? []).join(',')}, ${name}, ${new Date(now).toISOString()}, NULL)`;
    await recordAudit(q, {
      action: 'passkey.added',
      actor: { id: editor.id, email: editor.email },
      detail: { name },
    });
    return { ok: true };
  });
}

/** Options for signing in with any passkey of this site (discoverable: no account named). */
export async function signInOptions(
  db: Database,
  now = Date.now(),
): Promise<PublicKeyCredentialRequestOptionsJSON> {
  const options = await generateAuthenticationOptions({
    rpID: relyingParty().id,
    userVerification: 'required',
    timeout: CHALLENGE_SECONDS * 1000,
  });
  await db.transaction((q) => storeChallenge(q, options.challenge, 'sign-in', null, now));
  return options;
}

export type PasskeySignIn =
  | { ok: true; editor: Editor }
  /** `email`: whose passkey answered, once the credential is found (for the audit trail). */
  | { ok: false; refusal: PasskeyRefusal; email?: string };

/**
 * Verifies a sign-in answer: its challenge (taken, so never twice), origin, relying party and
 * signature, the credential's counter; the person it belongs to, unless suspended.
 */
export async function verifyPasskeySignIn(
  db: Database,
  response: AuthenticationResponseJSON,
  now = Date.now(),
): Promise<PasskeySignIn> {
  const rp = relyingParty();
  const data = clientData(response.response.clientDataJSON);
  if (!data) return { ok: false, refusal: 'invalid' };
  return db.transaction(async (q): Promise<PasskeySignIn> => {
    if (!(await takeChallenge(q, data.challenge, 'sign-in', null, now)))
      return { ok: false, refusal: 'challenge' };
    if (data.origin !== rp.origin) return { ok: false, refusal: 'origin' };
    const [row] = await q<{
      id: string;
      editor_id: number;
      public_key: string;
      counter: number | string;
      transports: string;
      email: string;
      role: string;
      suspended_at: string | null;
    }>`
      SELECT p.id, p.editor_id, p.public_key, p.counter, p.transports,
        e.email, e.role, e.suspended_at
      FROM editor_passkeys p JOIN editors e ON e.id = p.editor_id
      WHERE p.id = ${response.id}`;
    if (!row) return { ok: false, refusal: 'unknown' };
    // The authenticator says whose credential it is: it must be the one it was registered to.
    const handle = response.response.userHandle;
    if (handle && Buffer.from(handle, 'base64url').toString('utf8') !== `folio-${row.editor_id}`)
      return { ok: false, refusal: 'invalid', email: row.email };
    let verified: Awaited<ReturnType<typeof verifyAuthenticationResponse>>;
    try {
      verified = await verifyAuthenticationResponse({
        response,
        expectedChallenge: data.challenge,
        expectedOrigin: rp.origin,
        expectedRPID: rp.id,
        credential: {
          id: row.id,
          publicKey: new Uint8Array(Buffer.from(row.public_key, 'base64url')),
          counter: Number(row.counter),
          transports: row.transports ? row.transports.split(',') : undefined,
        },
        requireUserVerification: true,
      });
    } catch (error) {
      return { ok: false, refusal: refusalOf(error), email: row.email };
    }
    if (!verified.verified) return { ok: false, refusal: 'invalid', email: row.email };
    if (row.suspended_at !== null) return { ok: false, refusal: 'suspended', email: row.email };
    await q`
      UPDATE editor_passkeys
      SET counter = ${verified.authenticationInfo.newCounter},
        last_used_at = ${new Date(now).toISOString()}
      WHERE id = ${row.id}`;
    return {
      ok: true,
      editor: {
        id: Number(row.editor_id),
        email: row.email,
        role: isRole(row.role) ? row.role : 'contributor',
      },
    };
  });
}
