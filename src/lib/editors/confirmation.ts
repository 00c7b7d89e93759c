// Owns "confirm it is you" (issue 28, docs/decisions/0042): changing how one signs in — a
// passkey, the authenticator app, recovery codes — needs the password typed in this session
// within the last ten minutes (a sign-in counts), so someone at an unlocked, signed-in computer
// cannot add their own passkey or turn the owner's app off. The time is on the session's row
// (migration 27), never in a cookie. A confirmation's password is counted by the sign-in
// throttle, in the same buckets as a sign-in's, before it is checked.
import 'server-only';
import { recordAudit, recordAuditAlone } from '../audit/audit';
import { getDatabase } from '../data/db';
import { isDatabaseBusy, isDatabaseUnavailable } from '../data/db-errors';
import { requestContext } from '../http/request-context';
import { DEVICE_COOKIE, SESSION_COOKIE } from '../http/routes';
import { siteSecret } from '../runtime/secrets';
import {
  confirmSession,
  credentialGeneration,
  type EditorSession,
  verifyCredentials,
} from './accounts';
import { cookieFromRequest } from './session';
import { createSignInThrottle, trustedDeviceId } from './sign-in-throttle';

/** How long a confirmation lasts: long enough for one sitting at the security screen. */
export const CONFIRMATION_MINUTES = 10;
const CONFIRMATION_MS = CONFIRMATION_MINUTES * 60 * 1000;

/** Whether `session`'s person typed their password in it within the last ten minutes. */
export function confirmedRecently(session: EditorSession, now = Date.now()): boolean {
  const at = session.confirmedAt?.getTime();
  // A time ahead of the clock (another instance's, running fast) counts as now, not forever.
  return at !== undefined && now - Math.min(at, now) < CONFIRMATION_MS;
}

export type ConfirmOutcome =
  | { ok: true }
  | { ok: false; reason: 'mismatch' | 'signed-out' | 'busy' | 'unavailable' }
  | { ok: false; reason: 'throttled'; retryAfterSeconds: number };

/**
 * Checks the password of `session`'s person, counted by the sign-in throttle first (a wrong one
 * uses up the same attempts a sign-in would), and on success marks this request's session
 * confirmed, in one commit with the throttle's reset and the audit entry.
 */
export async function confirmIdentity(
  session: EditorSession,
  password: string,
): Promise<ConfirmOutcome> {
  const { email, id } = session.editor;
  const actor = { id, email };
  try {
    const db = await getDatabase();
    const secret = await siteSecret(db);
    const generation = await credentialGeneration(db.query, email);
    const reservation = await createSignInThrottle(db).reserve({
      email,
      address: requestContext().clientAddress,
      deviceId: trustedDeviceId(secret, cookieFromRequest(DEVICE_COOKIE), email, generation),
    });
    if (!reservation.allowed) {
      await recordAuditAlone(db, {
        action: 'identity.confirm_failed',
        actor,
        detail: { reason: 'throttled' },
      });
      return { ok: false, reason: 'throttled', retryAfterSeconds: reservation.retryAfterSeconds };
    }
    const checked = await verifyCredentials(db, email, password);
    if (checked?.id !== id) {
      await recordAuditAlone(db, {
        action: 'identity.confirm_failed',
        actor,
        detail: { reason: 'mismatch' },
      });
      return { ok: false, reason: 'mismatch' };
    }
    const confirmed = await db.transaction(async (q) => {
      if (!(await confirmSession(q, cookieFromRequest(SESSION_COOKIE)))) return false;
      await reservation.succeeded(q);
      await recordAudit(q, { action: 'identity.confirmed', actor });
      return true;
    });
    // Ended meanwhile (signed out everywhere from another tab): nothing to confirm.
    if (!confirmed) return { ok: false, reason: 'signed-out' };
    // The screen the action lands on may render in this request: it reads the session anew.
    requestContext().session = undefined;
    return { ok: true };
  } catch (error) {
    if (isDatabaseBusy(error)) return { ok: false, reason: 'busy' };
    if (isDatabaseUnavailable(error)) return { ok: false, reason: 'unavailable' };
    throw error;
  }
}
