// Owns telling a shared cache in front what a committed change made stale (docs/decisions/0045):
// one HTTP request per round of claimed purges in the outbox (cache-purges.ts) to PURGE_URL,
// naming their keys in one header, and the same keys once more ECHO_MS later (a fetch in flight
// at the commit can outlive the first ban). Each server sends the purges it claims: at once after its
// own commits, and at a short poll for those of other instances and the CLI. A purge that fails (refused,
// unreachable, slower than 2 s) is tried again with backoff, then logged once at warn and
// dropped: a cache that cannot be reached is the operator's to fix, not a bug to report, and
// what it holds expires on its own (s-maxage, the VCL's TTL).
import 'server-only';
import { boundedKeys, SITE_KEY } from '../data/cache-keys';
import {
  backoffAfter,
  type ClaimedPurge,
  claimPurges,
  MAX_ATTEMPTS,
  onPurgeRecorded,
  prunePurges,
  purgeDone,
  purgeFailed,
} from '../data/cache-purges';
import type { Database } from '../data/db';
import { log } from '../observability/log';
import { sendPurgeRequest } from './purge-request';

export type PurgeTarget = {
  url: string;
  /** BAN for the shipped VCL; what a CDN's purge hook asks for otherwise. */
  method: string;
  /** The header that names the keys, space-separated. */
  header: string;
  /** Sent as `Authorization: Bearer <token>` when set. */
  token?: string;
};

export const PURGE_TIMEOUT_MS = 2_000;
/** How often each server looks for purges other processes recorded. */
const POLL_MS = 1_000;
/**
 * How long after a purge it is sent once more. A fetch the cache began before the commit (or
 * that an instance answered from its own render cache before it heard of the commit) can be
 * stored after the first ban and escape it; the shipped VCL gives a fetch at most this long
 * for its first byte (`first_byte_timeout`), so none can escape both.
 */
export const ECHO_MS = 5_000;

/** The target from the environment, or null: no purging. */
export function purgeTargetOf(env: {
  PURGE_URL?: string;
  PURGE_METHOD: string;
  PURGE_HEADER: string;
  PURGE_TOKEN?: string;
}): PurgeTarget | null {
  if (env.PURGE_URL === undefined) return null;
  return {
    url: env.PURGE_URL,
    method: env.PURGE_METHOD,
    header: env.PURGE_HEADER,
    ...(env.PURGE_TOKEN === undefined ? {} : { token: env.PURGE_TOKEN }),
  };
}

/** Sends one purge; throws an Error that says why it did not take. */
export async function sendPurge(target: PurgeTarget, keys: readonly string[]): Promise<void> {
  const headers: Record<string, string> = { [target.header]: keys.join(' ') };
  if (target.token) headers.Authorization = `Bearer ${target.token}`;
  const { status, excerpt } = await sendPurgeRequest({
    url: target.url,
    method: target.method,
    headers,
    timeoutMs: PURGE_TIMEOUT_MS,
  });
  if (status < 200 || status > 299) throw new Error(`answered ${status}: ${excerpt.trim()}`);
}

/** What several purges name together: `site` alone if one is, else their keys, bounded. */
export function unionOfKeys(purges: readonly { keys: readonly string[] }[]): string[] {
  const keys = purges.flatMap((purge) => purge.keys);
  return keys.includes(SITE_KEY) ? [SITE_KEY] : boundedKeys(keys);
}

export type Purger = {
  /** Sends what is due now; resolves when this round is done. */
  round(): Promise<void>;
  stop(): Promise<void>;
};

/** Sends the outbox's purges from this process until `stop`. */
export function startPurger(
  db: Database,
  target: PurgeTarget,
  now: () => Date = () => new Date(),
  echoMs: number = ECHO_MS,
): Purger {
  let stopped = false;
  /** Keys sent since the last echo, sent again together once `echoMs` has passed. */
  const toEcho: { keys: string[] }[] = [];
  let echoTimer: ReturnType<typeof setTimeout> | null = null;
  let running: Promise<void> | null = null;
  let again = false;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let rounds = 0;
  /** Said once per outage, not at every poll. */
  let waiting = false;

  async function once() {
    const claimed = await claimPurges(db, now());
    if (claimed.length > 0) await send(claimed);
    rounds += 1;
    // Now and then, not every second: the table stays small.
    if (rounds % 60 === 1) await prunePurges(db.query, now());
  }

  /**
   * The claimed purges as one request naming their keys' union: a ban is a ban in any order,
   * so a burst of changes costs the cache one request, not one each. Each purge keeps its own
   * attempts and backoff.
   */
  async function send(claimed: ClaimedPurge[]) {
    const keys = unionOfKeys(claimed);
    try {
      await sendPurge(target, keys);
      echoLater(keys);
      for (const purge of claimed) await purgeDone(db.query, purge.id, now());
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      const givenUp: ClaimedPurge[] = [];
      let retryIn = Number.POSITIVE_INFINITY;
      for (const purge of claimed) {
        if (await purgeFailed(db.query, purge, now())) givenUp.push(purge);
        else retryIn = Math.min(retryIn, backoffAfter(purge.attempts));
      }
      if (givenUp.length > 0)
        log.warn('the shared cache was not told what a change made stale; it expires on its own', {
          url: target.url,
          keys: unionOfKeys(givenUp).join(' '),
          version: Math.max(...givenUp.map((purge) => purge.version)),
          attempts: MAX_ATTEMPTS,
          reason,
        });
      if (Number.isFinite(retryIn)) later(retryIn);
    }
  }

  /**
   * The echo is this process's, not the outbox's: the first ban took, and an instance that dies
   * in these seconds loses only the cover for a race that needed a fetch in flight at the
   * commit. One that fails is said once at info: the first ban took, and what escaped it
   * expires with the VCL's TTL.
   */
  function echoLater(keys: string[]) {
    toEcho.push({ keys });
    if (echoTimer !== null || stopped) return;
    echoTimer = setTimeout(() => {
      echoTimer = null;
      const keys = unionOfKeys(toEcho.splice(0));
      sendPurge(target, keys).catch((error: unknown) =>
        log.info('a purge was not echoed', {
          url: target.url,
          keys: keys.join(' '),
          reason: error instanceof Error ? error.message : String(error),
        }),
      );
    }, echoMs);
  }

  function later(ms: number) {
    setTimeout(() => void round(), ms);
  }

  /** Rounds run one at a time; a kick during one runs another after it. */
  function round(): Promise<void> {
    if (stopped) return Promise.resolve();
    if (running) {
      again = true;
      return running;
    }
    running = once()
      .then(() => {
        waiting = false;
      })
      .catch((error: unknown) => {
        // The database out of reach: the next poll tries again.
        if (!waiting)
          log.warn('purges wait for the database', {
            reason: error instanceof Error ? error.message : String(error),
          });
        waiting = true;
      })
      .finally(() => {
        running = null;
        if (again && !stopped) {
          again = false;
          void round();
        }
      });
    return running;
  }

  const unsubscribe = onPurgeRecorded(() => void round());
  const poll = () => {
    if (stopped) return;
    void round().finally(() => {
      if (!stopped) timer = setTimeout(poll, POLL_MS);
    });
  };
  poll();

  return {
    round,
    async stop() {
      stopped = true;
      unsubscribe();
      if (timer) clearTimeout(timer);
      if (echoTimer) clearTimeout(echoTimer);
      await running;
    },
  };
}
