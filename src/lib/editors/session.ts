// Owns the editor's session as seen from a request: its cookie, who is signed in (looked up
// once per request), signing in (throttled) and out, and the device cookie a sign-in leaves.
// Signing in is one of three ways (issue 28): a password alone; a password and then a second
// step (an authenticator app's code or a recovery code) for a person who has a second factor;
// or a passkey, with no password at all.
import 'server-only';
import type { AuthenticationResponseJSON } from '@simplewebauthn/server';
import { parse, serialize } from 'hono/utils/cookie';
import { recordAudit, recordAuditAlone, recordSignInRefused } from '../audit/audit';
import { type Database, getDatabase, type Query } from '../data/db';
import { isDatabaseBusy, isDatabaseUnavailable } from '../data/db-errors';
import { markPrivate, requestContext, setResponseCookie } from '../http/request-context';
import { DEVICE_COOKIE, SECOND_STEP_COOKIE, SESSION_COOKIE } from '../http/routes';
import { siteSecret } from '../runtime/secrets';
import { revokeLinksMadeBy } from '../share-links/share-links';
import {
  createSession,
  credentialGeneration,
  type Editor,
  type EditorSession,
  endAllSessions,
  endSession,
  getSession,
  SESSION_TTL_SECONDS,
  sessionIsOpen,
  verifyCredentials,
} from './accounts';
import { PASSKEY_REFUSALS, verifyPasskeySignIn } from './passkeys';
import {
  countWrongCode,
  endPendingSignIn,
  factorsOf,
  hasSecondFactor,
  PENDING_SIGN_IN_SECONDS,
  type PendingSignIn,
  pendingSignIn,
  startPendingSignIn,
} from './second-factor';
import {
  createSignInThrottle,
  DEVICE_COOKIE_MAX_AGE_SECONDS,
  issueDeviceToken,
  trustedDeviceId,
} from './sign-in-throttle';
import { type CodeCheck, spendRecoveryCode, spendTotpCode } from './totp';

/** A cookie of the current request, by name (the session, the device, the second step). */
export function cookieFromRequest(name: string): string | undefined {
  const header = requestContext().request.headers.get('cookie');
  return header ? parse(header, name)[name] : undefined;
}

/** The signed-in editor of the current request, or null. Marks the response private. */
export async function currentEditorSession(): Promise<EditorSession | null> {
  const context = requestContext();
  context.session ??= getDatabase().then((db) => getSession(db, cookieFromRequest(SESSION_COOKIE)));
  const session = await context.session;
  if (session) markPrivate();
  return session;
}

/**
 * This request's session, to be asked again inside a write (share-links.ts): whether it is
 * still open once every reset or removal queued before that write has committed.
 */
export function sessionStillOpen(): (q: Query) => Promise<boolean> {
  const id = cookieFromRequest(SESSION_COOKIE);
  return (q) => sessionIsOpen(q, id);
}

/**
 * Whether an editor is signed in on this request, for the edge's limits (an upload's room is
 * for editors only). Looked up once, like currentEditorSession; a database that cannot say
 * counts as no: nobody is given more on trust, and the action's guard answers the outage.
 */
export async function hasEditorSession(): Promise<boolean> {
  try {
    return (await currentEditorSession()) !== null;
  } catch {
    return false;
  }
}

function cookie(name: string, value: string, maxAge: number, sameSite: 'Lax' | 'Strict'): string {
  return serialize(name, value, {
    httpOnly: true,
    sameSite,
    secure: requestContext().https,
    path: '/',
    maxAge,
  });
}

export type SignInOutcome =
  | { ok: true; editor: Editor }
  | { ok: false; reason: 'mismatch' | 'suspended' | 'busy' | 'unavailable' | 'second-factor' }
  | { ok: false; reason: 'throttled'; retryAfterSeconds: number };

/**
 * Checks an editor's credentials, counted by the throttle before the password is checked, and
 * on success starts a fresh session (a new id on every sign-in) and marks the device trusted —
 * or, for a person with a second factor, starts the second step instead ('second-factor': no
 * session yet; `next` is where the completed sign-in goes).
 */
export async function signInEditor(
  email: string,
  password: string,
  next = '/preview',
): Promise<SignInOutcome> {
  const context = requestContext();
  const deviceCookie = cookieFromRequest(DEVICE_COOKIE);
  // Every write below can find the database locked by another process beyond the busy
  // timeout, or out of reach: then the editor is told to try again, and nothing half-done is
  // kept.
  try {
    const db = await getDatabase();
    const secret = await siteSecret(db);
    const generation = await credentialGeneration(db.query, email);
    const reservation = await createSignInThrottle(db).reserve({
      email,
      address: context.clientAddress,
      deviceId: trustedDeviceId(secret, deviceCookie, email, generation),
    });
    if (!reservation.allowed) {
      await recordSignInRefused(db, email, 'throttled');
      return { ok: false, reason: 'throttled', retryAfterSeconds: reservation.retryAfterSeconds };
    }
    const editor = await verifyCredentials(db, email, password);
    if (!editor) {
      await recordSignInRefused(db, email, 'mismatch');
      return { ok: false, reason: 'mismatch' };
    }
    // Only someone who knows the password learns the account is suspended: the words help
    // them ask the right person, and say nothing to anyone else.
    if (editor.suspended) {
      await recordSignInRefused(db, email, 'suspended');
      return { ok: false, reason: 'suspended' };
    }
    if (hasSecondFactor(await factorsOf(db.query, editor.id))) {
      await awaitSecondStep(db, editor.id, next, reservation.succeeded);
      return { ok: false, reason: 'second-factor' };
    }
    await openSession(db, editor, 'password', reservation.succeeded);
    return { ok: true, editor };
  } catch (error) {
    if (isDatabaseBusy(error)) return { ok: false, reason: 'busy' };
    if (isDatabaseUnavailable(error)) return { ok: false, reason: 'unavailable' };
    throw error;
  }
}

/**
 * Signs out: this session, or with `everywhere` every session of the editor, and then with
 * `revokeLinks` every share link they made too, in the same commit (a lost laptop's links
 * are as much a worry as its sessions). Whether every session ended (a stale form of an
 * ended session ends nothing), and how many links were revoked.
 */
export async function endEditorSession({
  everywhere = false,
  revokeLinks = false,
} = {}): Promise<{ signedOutEverywhere: boolean; linksRevoked: number }> {
  const context = requestContext();
  const db = await getDatabase();
  const id = cookieFromRequest(SESSION_COOKIE);
  const session = await getSession(db, id);
  const linksRevoked = await db.transaction(async (q) => {
    let revoked = 0;
    if (everywhere && session) {
      await endAllSessions(q, session.editor.id);
      if (revokeLinks) revoked = await revokeLinksMadeBy(q, session.editor.email);
    }
    await endSession(q, id);
    if (session)
      await recordAudit(q, {
        action: everywhere ? 'sign-out.everywhere' : 'sign-out',
        actor: session.editor,
        detail: { linksRevoked: revoked },
      });
    return revoked;
  });
  context.session = Promise.resolve(null);
  setResponseCookie(cookie(SESSION_COOKIE, '', 0, 'Lax'));
  return { signedOutEverywhere: everywhere && session !== null, linksRevoked };
}

// --- The second step, and passkeys (issue 28, docs/decisions/0042) ------------------------------

/**
 * The password was right and the person has a second factor: no session yet, only a waiting
 * sign-in named by a cookie (its row holds nothing the page shows). The password's throttle
 * starts afresh as on any right password; the codes have their own (completeSecondStep).
 */
async function awaitSecondStep(
  db: Database,
  editorId: number,
  next: string,
  passwordSucceeded: (q: Query) => Promise<void>,
): Promise<void> {
  const token = await db.transaction(async (q) => {
    await passwordSucceeded(q);
    return startPendingSignIn(q, editorId, next);
  });
  setResponseCookie(cookie(SECOND_STEP_COOKIE, token, PENDING_SIGN_IN_SECONDS, 'Lax'));
}

/**
 * The sign-in waiting for its second step on this browser, or null. Without its cookie nothing
 * is asked of the database; a database that cannot say leaves the password's form, which then
 * says what the database did (the sign-in form is where a failed sign-in is answered).
 */
export async function pendingSecondStep(): Promise<PendingSignIn | null> {
  const token = cookieFromRequest(SECOND_STEP_COOKIE);
  if (!token) return null;
  try {
    const db = await getDatabase();
    return await pendingSignIn(db.query, token);
  } catch (error) {
    if (isDatabaseBusy(error) || isDatabaseUnavailable(error)) return null;
    throw error;
  }
}

/**
 * Starts the session of a person who has proved who they are (a password and a code, or a
 * passkey), in one commit with `alongside` (the code's use, the waiting sign-in's end): a new
 * session id, the old session and any waiting sign-in of this browser ended, the device trusted.
 */
async function openSession(
  db: Database,
  editor: Editor,
  method: 'password' | 'second-factor' | 'passkey',
  alongside: (q: Query) => Promise<void>,
): Promise<void> {
  const context = requestContext();
  const secret = await siteSecret(db);
  const deviceCookie = cookieFromRequest(DEVICE_COOKIE);
  const { session, current } = await db.transaction(async (q) => {
    await alongside(q);
    await endSession(q, cookieFromRequest(SESSION_COOKIE));
    await endPendingSignIn(q, cookieFromRequest(SECOND_STEP_COOKIE));
    // Nobody is signed in yet in this request: the person is named, not looked up.
    await recordAudit(q, {
      action: 'sign-in',
      actor: { id: editor.id, email: editor.email },
      detail: { method },
    });
    return {
      session: await createSession(q, editor.id),
      current: await credentialGeneration(q, editor.email),
    };
  });
  context.session = undefined;
  setResponseCookie(cookie(SESSION_COOKIE, session.id, SESSION_TTL_SECONDS, 'Lax'));
  if (cookieFromRequest(SECOND_STEP_COOKIE))
    setResponseCookie(cookie(SECOND_STEP_COOKIE, '', 0, 'Lax'));
  if (current !== null && !trustedDeviceId(secret, deviceCookie, editor.email, current))
    setResponseCookie(
      cookie(
        DEVICE_COOKIE,
        issueDeviceToken(secret, editor.email, current),
        DEVICE_COOKIE_MAX_AGE_SECONDS,
        'Strict',
      ),
    );
}

export type SecondStepOutcome =
  | { ok: true; editor: Editor; next: string }
  | { ok: false; reason: 'expired' | 'reused' | 'busy' | 'unavailable' }
  | { ok: false; reason: 'wrong'; attemptsLeft: number }
  | { ok: false; reason: 'throttled'; retryAfterSeconds: number };

/** What throttles second-step codes: the account's own bucket, apart from its passwords'. */
function secondStepThrottleKey(email: string): string {
  return `second-step:${email}`;
}

/**
 * The second step: a code from the authenticator app (each usable once) or a recovery code
 * (letters: used up). Counted by the sign-in throttle before it is checked, and against the
 * waiting sign-in, which a few wrong codes end (the password is asked again).
 */
export async function completeSecondStep(code: string): Promise<SecondStepOutcome> {
  const context = requestContext();
  const token = cookieFromRequest(SECOND_STEP_COOKIE);
  try {
    const db = await getDatabase();
    const pending = await pendingSignIn(db.query, token);
    if (!pending || !token) return { ok: false, reason: 'expired' };
    const secret = await siteSecret(db);
    const generation = await credentialGeneration(db.query, pending.email);
    const reservation = await createSignInThrottle(db).reserve({
      email: secondStepThrottleKey(pending.email),
      address: context.clientAddress,
      deviceId: trustedDeviceId(
        secret,
        cookieFromRequest(DEVICE_COOKIE),
        pending.email,
        generation,
      ),
    });
    if (!reservation.allowed) {
      // Each refused attempt leaves one entry, a throttled one too (guessing shows in the trail).
      await recordAuditAlone(db, {
        action: 'second-factor.failed',
        actor: { id: pending.editorId, email: pending.email },
        detail: { reused: false, throttled: true },
      });
      return { ok: false, reason: 'throttled', retryAfterSeconds: reservation.retryAfterSeconds };
    }
    const recovery = /[a-z]/i.test(code);
    const editor: Editor = { id: pending.editorId, email: pending.email, role: pending.role };
    // Set inside the transaction below (TypeScript cannot see a callback assign it).
    let check = 'wrong' as CodeCheck;
    try {
      await openSession(db, editor, 'second-factor', async (q) => {
        check = recovery
          ? (await spendRecoveryCode(q, editor.id, code))
            ? 'accepted'
            : 'wrong'
          : await spendTotpCode(q, editor.id, code);
        if (check !== 'accepted') throw new SecondStepRefused();
        await reservation.succeeded(q);
      });
    } catch (error) {
      if (!(error instanceof SecondStepRefused)) throw error;
    }
    if (check === 'accepted') return { ok: true, editor, next: pending.next };
    if (check === 'reused') {
      // A code used already: someone saw it (a shoulder, a phishing proxy) — said in the trail.
      await recordAuditAlone(db, {
        action: 'second-factor.failed',
        actor: { id: editor.id, email: editor.email },
        detail: { reused: true },
      });
      return { ok: false, reason: 'reused' };
    }
    const attemptsLeft = await db.transaction(async (q) => {
      await recordAudit(q, {
        action: 'second-factor.failed',
        actor: { id: editor.id, email: editor.email },
        detail: { reused: false },
      });
      return countWrongCode(q, token);
    });
    if (attemptsLeft === 0) setResponseCookie(cookie(SECOND_STEP_COOKIE, '', 0, 'Lax'));
    return { ok: false, reason: 'wrong', attemptsLeft };
  } catch (error) {
    if (isDatabaseBusy(error)) return { ok: false, reason: 'busy' };
    if (isDatabaseUnavailable(error)) return { ok: false, reason: 'unavailable' };
    throw error;
  }
}

/** Rolls back the session's commit when the code was not right (nothing of it is kept). */
class SecondStepRefused extends Error {}

/** "Start over": the waiting sign-in ends, and the password is asked again. */
export async function cancelSecondStep(): Promise<void> {
  const db = await getDatabase();
  await db.transaction((q) => endPendingSignIn(q, cookieFromRequest(SECOND_STEP_COOKIE)));
  setResponseCookie(cookie(SECOND_STEP_COOKIE, '', 0, 'Lax'));
}

export type PasskeySignInOutcome =
  | { ok: true; editor: Editor }
  | { ok: false; message: string; reason?: 'busy' | 'unavailable' };

/** Signs in with a passkey's answer: no password, no second step (a passkey is both). */
export async function signInWithPasskey(
  response: AuthenticationResponseJSON,
): Promise<PasskeySignInOutcome> {
  try {
    const db = await getDatabase();
    const verified = await verifyPasskeySignIn(db, response);
    if (!verified.ok) {
      // A replay, another origin or relying party, a suspended person…: one entry each, naming
      // whose passkey it was when the credential was found (nobody when it was not).
      await recordAuditAlone(db, {
        action: 'sign-in.failed',
        actor: verified.email === undefined ? null : { email: verified.email },
        detail: { reason: verified.refusal, method: 'passkey' },
      });
      return { ok: false, message: PASSKEY_REFUSALS[verified.refusal] };
    }
    await openSession(db, verified.editor, 'passkey', async () => undefined);
    return { ok: true, editor: verified.editor };
  } catch (error) {
    if (isDatabaseBusy(error))
      return { ok: false, reason: 'busy', message: 'Folio is busy. Try again in a moment.' };
    if (isDatabaseUnavailable(error))
      return {
        ok: false,
        reason: 'unavailable',
        message: 'Folio cannot reach its database right now. Try again in a moment.',
      };
    throw error;
  }
}
