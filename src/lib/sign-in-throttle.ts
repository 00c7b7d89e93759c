// Owns sign-in throttling: failed attempts counted per account and per client address, so
// guessing is slow whether it targets one account from many addresses or many from one.
import 'server-only';

export const WINDOW_MS = 15 * 60 * 1000;
export const MAX_FAILURES_PER_ACCOUNT = 5;
export const MAX_FAILURES_PER_ADDRESS = 20;

type Counter = { failures: number; windowStart: number };

export function createSignInThrottle({
  windowMs = WINDOW_MS,
  perAccount = MAX_FAILURES_PER_ACCOUNT,
  perAddress = MAX_FAILURES_PER_ADDRESS,
} = {}) {
  const counters = new Map<string, Counter>();

  function current(key: string, now: number): Counter {
    const counter = counters.get(key);
    if (!counter || now - counter.windowStart >= windowMs) {
      const fresh = { failures: 0, windowStart: now };
      counters.set(key, fresh);
      return fresh;
    }
    return counter;
  }

  const keys = (email: string, address: string) =>
    [
      [`account:${email.trim().toLowerCase()}`, perAccount],
      [`address:${address}`, perAddress],
    ] as const;

  return {
    /** Seconds to wait before trying again, or 0 when an attempt is allowed now. */
    retryAfterSeconds(email: string, address: string, now = Date.now()): number {
      let wait = 0;
      for (const [key, limit] of keys(email, address)) {
        const counter = current(key, now);
        if (counter.failures >= limit) {
          wait = Math.max(wait, Math.ceil((counter.windowStart + windowMs - now) / 1000));
        }
      }
      return wait;
    },
    recordFailure(email: string, address: string, now = Date.now()): void {
      for (const [key] of keys(email, address)) current(key, now).failures += 1;
      // Bounded memory under a spray of addresses: forget the oldest windows first.
      if (counters.size > 50_000) {
        for (const [key, counter] of counters) {
          if (now - counter.windowStart >= windowMs || counters.size > 40_000) counters.delete(key);
        }
      }
    },
    recordSuccess(email: string): void {
      counters.delete(`account:${email.trim().toLowerCase()}`);
    },
  };
}

export type SignInThrottle = ReturnType<typeof createSignInThrottle>;

const KEY = Symbol.for('folio.sign-in-throttle');
const holder = globalThis as unknown as { [KEY]?: SignInThrottle };

export function signInThrottle(): SignInThrottle {
  holder[KEY] ??= createSignInThrottle();
  return holder[KEY];
}
