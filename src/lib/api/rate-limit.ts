// Owns counting the content API's requests per client and window, across instances
// (docs/decisions/0047). A request is decided from memory: each instance counts its own
// requests and, about once a second, adds them to the client's row of `api_rate_counts` and
// reads back the sum every instance has added. So the database is written once a second per
// busy client and instance, never by a request — except that an instance which has let a
// client through `quota` times since it last heard the sum (a tenth of the limit) asks first:
// that is what bounds how far over its limit a client spread across N instances can get,
//
//   limit + (N − 1) × quota, quota = ceil(limit / 10)
//
// (each instance's requests since its last sum are at most `quota`, and the instance that
// summed last saw every other's earlier ones). One instance is exact. Windows are fixed,
// `windowSeconds` long from 1970 (a minute starts on the minute). A refused request is not
// counted: a client over its limit is back at the next window whatever it kept sending. When
// the database cannot be written, each instance goes on counting alone (the limit holds per
// instance) and says so once in the log.
import 'server-only';
import type { Database } from '../data/db';
import { log } from '../observability/log';

/** What one request was told: let through or not, and what the RateLimit headers say. */
export type RateDecision = {
  allowed: boolean;
  limit: number;
  /** Requests left in this window after this one (0 when refused). */
  remaining: number;
  /** Seconds until the window ends (at least 1). */
  resetSeconds: number;
};

type Entry = {
  bucket: string;
  window: number;
  /** The sum of every instance's counts as the database last said it (ours included). */
  shared: number;
  /** Counted here and being added to the database now. */
  inFlight: number;
  /** Counted here since. */
  pending: number;
  /** The addition under way, if any: true when it was written. */
  flushing: Promise<boolean> | null;
};

/** The share of a limit an instance may let through without hearing the others: a tenth. */
export const LOCAL_SHARE = 10;

export function quotaOf(limit: number): number {
  return Math.max(1, Math.ceil(limit / LOCAL_SHARE));
}

export type RateLimiterOptions = {
  database: () => Promise<Database>;
  windowSeconds: number;
  now?: () => number;
};

export function createRateLimiter({ database, windowSeconds, now = Date.now }: RateLimiterOptions) {
  const entries = new Map<string, Entry>();
  let warned = false;
  let cleanedWindow = -1;
  /** When an addition last failed: for a second, requests do not wait on the database. */
  let failedAt = Number.NEGATIVE_INFINITY;

  const windowOf = (ms: number) => Math.floor(ms / 1000 / windowSeconds) * windowSeconds;

  async function add(entry: Entry): Promise<void> {
    const count = entry.pending;
    if (count === 0) return;
    entry.pending = 0;
    entry.inFlight += count;
    try {
      const db = await database();
      const [row] = await db.query<{ count: number | string }>`
        INSERT INTO api_rate_counts (bucket, window_start, count)
        VALUES (${entry.bucket}, ${entry.window}, ${count})
        ON CONFLICT (bucket, window_start)
        DO UPDATE SET count = api_rate_counts.count + excluded.count
        RETURNING count`;
      entry.shared = Math.max(entry.shared, Number(row?.count ?? 0));
      warned = false;
    } catch (error) {
      // Counted here still: the limit holds on this instance until the database answers.
      entry.pending += count;
      failedAt = now();
      if (!warned)
        log.warn('API rate counts not shared: each instance counts alone for now', {
          reason: error instanceof Error ? error.message : String(error),
        });
      warned = true;
      throw error;
    } finally {
      entry.inFlight -= count;
    }
  }

  /**
   * Adds an entry's counts; one addition at a time per entry, and whoever asks while one is
   * under way waits for that one (its answer is theirs too). False when it failed.
   */
  function flush(entry: Entry): Promise<boolean> {
    if (entry.flushing) return entry.flushing;
    if (entry.pending === 0) return Promise.resolve(true);
    const flushing = add(entry)
      .then(
        () => true,
        () => false,
      )
      .finally(() => {
        entry.flushing = null;
      });
    entry.flushing = flushing;
    return flushing;
  }

  return {
    /** Counts one request of `bucket` against `limit`, or refuses it. */
    async take(bucket: string, limit: number): Promise<RateDecision> {
      const at = now();
      const window = windowOf(at);
      const name = `${window} ${bucket}`;
      let entry = entries.get(name);
      if (!entry) {
        entry = { bucket, window, shared: 0, inFlight: 0, pending: 0, flushing: null };
        entries.set(name, entry);
      }
      // Past this instance's share since the last sum: hear the others before letting more in.
      // Asked again after each wait: requests that came while one sum was being asked for all
      // wait for it, and then only a share of them goes in before the next (hostile pass,
      // 2026-11-27 — they all went in, and two instances let 114 through a limit of 60).
      while (entry.pending + entry.inFlight >= quotaOf(limit) && now() - failedAt >= 1000)
        if (!(await flush(entry))) break;
      const resetSeconds = Math.max(1, Math.ceil(window + windowSeconds - at / 1000));
      const used = entry.shared + entry.inFlight + entry.pending;
      if (used >= limit) return { allowed: false, limit, remaining: 0, resetSeconds };
      entry.pending += 1;
      return { allowed: true, limit, remaining: Math.max(0, limit - used - 1), resetSeconds };
    },

    /**
     * Adds every instance-local count to the database (the server calls it about once a
     * second), forgets past windows, and now and then deletes their rows.
     */
    async flushAll(): Promise<void> {
      const current = windowOf(now());
      const work: Promise<boolean>[] = [];
      for (const [name, entry] of entries) {
        if (entry.pending > 0) work.push(flush(entry));
        else if (entry.window < current && entry.inFlight === 0 && !entry.flushing)
          entries.delete(name);
      }
      await Promise.all(work);
      if (cleanedWindow !== current) {
        cleanedWindow = current;
        try {
          const db = await database();
          await db.query`DELETE FROM api_rate_counts WHERE window_start < ${current - windowSeconds}`;
        } catch {
          // Tried again next window; a leftover row only takes space.
          cleanedWindow = -1;
        }
      }
    },

    /** How many clients this instance is counting (tests). */
    size: () => entries.size,
  };
}

export type RateLimiter = ReturnType<typeof createRateLimiter>;

/**
 * The part of a client address that is one client: an IPv4 address (also as `::ffff:a.b.c.d`),
 * or an IPv6 address's /64 — one household or server gets a whole /64, and counting each of its
 * addresses apart would give it 2⁶⁴ limits.
 */
export function addressBucket(address: string): string {
  const v4 = /^(?:::ffff:)?(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address);
  if (v4) return v4[1] as string;
  if (!address.includes(':')) return address;
  const bare = address.replace(/%.*$/, '').toLowerCase();
  const [head = '', tail] = bare.split('::');
  const left = head === '' ? [] : head.split(':');
  const right = tail === undefined || tail === '' ? [] : tail.split(':');
  const groups =
    tail === undefined
      ? left
      : [...left, ...Array(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right];
  return `${groups
    .slice(0, 4)
    .map((group) => group.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}
