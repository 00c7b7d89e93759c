// Owns sign-in throttling (docs/decisions/0011). Every attempt is counted before its password
// is checked — in the database, in one transaction — so simultaneous guesses cannot slip past
// the count, and every process sees the same numbers. An attempt from a device where this
// editor signed in before (a signed device cookie: OWASP's "device cookies") is counted against
// that device alone: someone who exhausts the account's and the address's budget locks out
// unknown devices, never the owner's own.
import 'server-only';
import { randomBytes } from 'node:crypto';
import type { Database, Query } from '../data/db';
import { signPayload, verifyPayload } from '../runtime/signing';

export const WINDOW_MS = 15 * 60 * 1000;
/** Attempts per window: for an account and a client address (untrusted devices), a device. */
export const ATTEMPT_LIMITS = { account: 5, address: 20, device: 10 } as const;
export const DEVICE_COOKIE_MAX_AGE_SECONDS = 365 * 24 * 60 * 60;

export type Attempt = {
  email: string;
  address: string;
  /** The device id from a valid device cookie issued to this email, else null. */
  deviceId: string | null;
};

export type Reservation =
  | { allowed: true; succeeded: (q: Query) => Promise<void> }
  | { allowed: false; retryAfterSeconds: number };

function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

export function createSignInThrottle(
  db: Database,
  {
    windowMs = WINDOW_MS,
    limits = ATTEMPT_LIMITS,
    now = Date.now,
  }: { windowMs?: number; limits?: typeof ATTEMPT_LIMITS; now?: () => number } = {},
) {
  const bucketsOf = ({ email, address, deviceId }: Attempt): [string, number][] =>
    deviceId
      ? [[`device:${deviceId}`, limits.device]]
      : [
          [`account:${normaliseEmail(email)}`, limits.account],
          [`address:${address}`, limits.address],
        ];

  return {
    /**
     * Counts an attempt in each of its buckets, or refuses it when one is full (nothing is
     * counted then), in one write transaction. Call `succeeded(q)` (inside the transaction
     * that starts the session) when the password was right.
     */
    async reserve(attempt: Attempt): Promise<Reservation> {
      const at = now();
      const buckets = bucketsOf(attempt);
      return db.transaction(async (q): Promise<Reservation> => {
        let wait = 0;
        for (const [bucket, limit] of buckets) {
          const [row] = await q<{ attempts: number; window_start: number | string }>`
            SELECT attempts, window_start FROM sign_in_attempts WHERE bucket = ${bucket}`;
          const start = Number(row?.window_start);
          if (row && at - start < windowMs && Number(row.attempts) >= limit)
            wait = Math.max(wait, Math.ceil((start + windowMs - at) / 1000));
        }
        if (wait > 0) return { allowed: false, retryAfterSeconds: wait };
        for (const [bucket] of buckets)
          await q`
            INSERT INTO sign_in_attempts (bucket, attempts, window_start) VALUES (${bucket}, 1, ${at})
            ON CONFLICT (bucket) DO UPDATE SET
              attempts = CASE WHEN ${at} - sign_in_attempts.window_start >= ${windowMs}
                         THEN 1 ELSE sign_in_attempts.attempts + 1 END,
              window_start = CASE WHEN ${at} - sign_in_attempts.window_start >= ${windowMs}
                             THEN ${at} ELSE sign_in_attempts.window_start END`;
        // Now and then, forget windows that are over.
        if (Math.random() < 0.01)
          await q`DELETE FROM sign_in_attempts WHERE window_start <= ${at - windowMs}`;
        return {
          allowed: true,
          succeeded: async (success: Query) => {
            // The account (or device) starts afresh. An attempt counted against the address
            // is given back, so editors behind one address do not use up each other's budget
            // by signing in; a device's attempt never touched the address.
            const [first, address] = buckets;
            if (first) await success`DELETE FROM sign_in_attempts WHERE bucket = ${first[0]}`;
            if (address)
              await success`
                UPDATE sign_in_attempts
                SET attempts = CASE WHEN attempts > 0 THEN attempts - 1 ELSE 0 END
                WHERE bucket = ${address[0]}`;
          },
        };
      });
    },
  };
}

export type SignInThrottle = ReturnType<typeof createSignInThrottle>;

// v2 added `g`, the editor's credential generation: a v1 cookie is no longer trusted (its
// owner's next sign-in replaces it).
type DeviceClaim = { v: 2; e: string; g: string; d: string };

/**
 * A device cookie's value for `email`: a new device id, tied to the editor's credential
 * generation (editors.credentialGeneration), signed with the site secret.
 */
export function issueDeviceToken(secret: string, email: string, generation: string): string {
  const claim: DeviceClaim = {
    v: 2,
    e: normaliseEmail(email),
    g: generation,
    d: randomBytes(12).toString('base64url'),
  };
  return signPayload(secret, claim);
}

/**
 * The device id a cookie proves for `email` as its credentials are now (`generation`), or null:
 * no cookie, forged, another email, or issued before a password reset (or to a removed editor,
 * whose generation is null).
 */
export function trustedDeviceId(
  secret: string,
  token: string | undefined,
  email: string,
  generation: string | null,
): string | null {
  if (!token || generation === null) return null;
  const claim = verifyPayload(secret, token) as Partial<DeviceClaim> | null;
  if (
    claim?.v !== 2 ||
    typeof claim.d !== 'string' ||
    typeof claim.e !== 'string' ||
    claim.g !== generation
  )
    return null;
  return claim.e === normaliseEmail(email) ? claim.d : null;
}
