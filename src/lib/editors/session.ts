// Owns the editor's session as seen from a request: its cookie, who is signed in (looked up
// once per request), signing in (throttled) and out, and the device cookie a sign-in leaves.
import 'server-only';
import { parse, serialize } from 'hono/utils/cookie';
import { recordAudit, recordSignInRefused } from '../audit/audit';
import { getDatabase, type Query } from '../data/db';
import { isDatabaseBusy, isDatabaseUnavailable } from '../data/db-errors';
import { markPrivate, requestContext, setResponseCookie } from '../http/request-context';
import { DEVICE_COOKIE, SESSION_COOKIE } from '../http/routes';
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
import {
  createSignInThrottle,
  DEVICE_COOKIE_MAX_AGE_SECONDS,
  issueDeviceToken,
  trustedDeviceId,
} from './sign-in-throttle';

function cookieFromRequest(name: string): string | undefined {
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
  | { ok: false; reason: 'mismatch' | 'suspended' | 'busy' | 'unavailable' }
  | { ok: false; reason: 'throttled'; retryAfterSeconds: number };

/**
 * Checks an editor's credentials, counted by the throttle before the password is checked, and
 * on success starts a fresh session (a new id on every sign-in) and marks the device trusted.
 */
export async function signInEditor(email: string, password: string): Promise<SignInOutcome> {
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
    const { session, current } = await db.transaction(async (q) => {
      await reservation.succeeded(q);
      await endSession(q, cookieFromRequest(SESSION_COOKIE));
      await recordAudit(q, { action: 'sign-in', actor: editor });
      return {
        session: await createSession(q, editor.id),
        current: await credentialGeneration(q, editor.email),
      };
    });
    context.session = undefined;
    setResponseCookie(cookie(SESSION_COOKIE, session.id, SESSION_TTL_SECONDS, 'Lax'));
    if (current !== null && !trustedDeviceId(secret, deviceCookie, editor.email, current)) {
      setResponseCookie(
        cookie(
          DEVICE_COOKIE,
          issueDeviceToken(secret, editor.email, current),
          DEVICE_COOKIE_MAX_AGE_SECONDS,
          'Strict',
        ),
      );
    }
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
