// Owns the purge outbox (docs/decisions/0045): the row a committed content change leaves for a
// shared cache in front (`recordPurge`, in the change's own transaction, beside its content
// version), and the claims servers take on those rows so that, of every instance on one
// database, one sends each purge. A claim is a lease (`claimed_until`), taken by one UPDATE
// that re-checks it is free: two instances asking at once get different rows (PostgreSQL
// re-reads a row another transaction just claimed and skips it; SQLite writes one at a time),
// and an instance that dies holding one leaves it to the others when its lease ends.
import 'server-only';
import { getEnv } from '../runtime/env';
import { boundedKeys, purgeKeysOf } from './cache-keys';
import type { ContentChange } from './content-changes';
import type { Database, Query } from './db';

/** Long enough for a send (2 s) and its bookkeeping; an instance killed mid-send loses this. */
const LEASE_MS = 10_000;
/** Sends a purge at most this often; after the last failure it is logged and dropped. */
export const MAX_ATTEMPTS = 4;
/** Waits before the 2nd, 3rd and 4th attempt. */
const BACKOFF_MS = [250, 1_000, 4_000] as const;
/** A done purge is kept this long (to see what was sent), an undelivered one as long as a cache
 * could still hold a copy it names (the VCL keeps pages an hour). */
const KEEP_DONE_MS = 24 * 3_600_000;
const KEEP_UNDELIVERED_MS = 3_600_000;

export type ClaimedPurge = { id: number; version: number; keys: string[]; attempts: number };

type Listener = () => void | Promise<void>;
const listeners = new Set<Listener>();

/**
 * Called after a commit that recorded a purge: this process's purger sends it at once. The
 * listener's promise settles when the round that covers it is done.
 */
export function onPurgeRecorded(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Settles once this process's purger has sent (or failed to send) what was recorded. */
export async function purgeRecorded(): Promise<void> {
  await Promise.allSettled([...listeners].map((listener) => listener()));
}

/**
 * How long a writer waits for its change's purge before it is answered: long enough for a
 * cache on the same network (a ban takes a millisecond or two), short enough that a cache out
 * of reach (its purge waits 2 s, then backs off) costs an editor a second, not more.
 */
export const PURGE_WAIT_MS = 1_000;

/** The purge of a committed change, sent before its writer is answered, or PURGE_WAIT_MS. */
export async function purgeSentOrLater(): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([
    purgeRecorded(),
    new Promise<void>((resolve) => {
      timer = setTimeout(resolve, PURGE_WAIT_MS);
    }),
  ]);
  clearTimeout(timer);
}

/** Whether this process's writes leave purges: a shared cache in front is configured. */
export function purgesWanted(): boolean {
  return getEnv().PURGE_URL !== undefined;
}

/** Inside the change's transaction: the keys its change makes stale, to be sent after it. */
export async function recordPurge(
  q: Query,
  version: number,
  change: ContentChange,
  at: Date,
): Promise<void> {
  await recordPurgeOfKeys(q, purgeKeysOf(change), at, version);
}

/**
 * Inside a write that is not a content change (an image deleted: no page changes, but a cache
 * keeps its answers a year): these keys, bounded as any purge is. `version` is the content
 * version the write made, or 0 when it made none.
 */
export async function recordPurgeOfKeys(
  q: Query,
  keys: readonly string[],
  at: Date,
  version = 0,
): Promise<void> {
  const stamp = at.toISOString();
  await q`INSERT INTO cache_purges (version, keys, created_at, next_at)
          VALUES (${version}, ${boundedKeys(keys).join(' ')}, ${stamp}, ${stamp})`;
}

type ClaimedRow = {
  id: number | string;
  version: number | string;
  keys: string;
  attempts: number | string;
};

/**
 * Takes up to `limit` purges that are due and free, oldest first, for one lease. On PostgreSQL
 * the candidates skip rows another instance is claiming this instant (it takes other ones, not
 * fewer); the outer re-check is what makes a claim single either way.
 */
export async function claimPurges(
  db: Pick<Database, 'engine' | 'query'>,
  now: Date,
  limit = 20,
): Promise<ClaimedPurge[]> {
  const q = db.query;
  const stamp = now.toISOString();
  const until = new Date(now.getTime() + LEASE_MS).toISOString();
  const rows: ClaimedRow[] =
    db.engine === 'postgres'
      ? // The candidates in a MATERIALIZED CTE: as `id IN (SELECT … LIMIT n SKIP LOCKED)` the
        // planner may run the subquery more than once, each time skipping other rows, and a
        // claim of 1 took 2 to 4 (found in the webhooks' claim, the same shape).
        await q<ClaimedRow>`
          WITH picked AS MATERIALIZED (
            SELECT id FROM cache_purges
            WHERE done_at IS NULL AND next_at <= ${stamp}
              AND (claimed_until IS NULL OR claimed_until <= ${stamp})
            ORDER BY id LIMIT ${limit} FOR UPDATE SKIP LOCKED)
          UPDATE cache_purges SET claimed_until = ${until}, attempts = attempts + 1
          FROM picked
          WHERE cache_purges.id = picked.id
            AND done_at IS NULL AND (claimed_until IS NULL OR claimed_until <= ${stamp})
          RETURNING cache_purges.id, version, keys, attempts`
      : await q<ClaimedRow>`
          UPDATE cache_purges SET claimed_until = ${until}, attempts = attempts + 1
          WHERE id IN (
            SELECT id FROM cache_purges
            WHERE done_at IS NULL AND next_at <= ${stamp}
              AND (claimed_until IS NULL OR claimed_until <= ${stamp})
            ORDER BY id LIMIT ${limit})
            AND done_at IS NULL AND (claimed_until IS NULL OR claimed_until <= ${stamp})
          RETURNING id, version, keys, attempts`;
  return rows
    .map((row) => ({
      id: Number(row.id),
      version: Number(row.version),
      keys: row.keys.split(' ').filter(Boolean),
      attempts: Number(row.attempts),
    }))
    .sort((a, b) => a.id - b.id);
}

/** Sent. */
export async function purgeDone(q: Query, id: number, now: Date): Promise<void> {
  await q`UPDATE cache_purges SET done_at = ${now.toISOString()}, claimed_until = NULL
          WHERE id = ${id}`;
}

/**
 * Not sent: tried again after a wait, or (the last attempt) given up, which returns true so
 * the caller says so once.
 */
export async function purgeFailed(q: Query, purge: ClaimedPurge, now: Date): Promise<boolean> {
  if (purge.attempts >= MAX_ATTEMPTS) {
    await purgeDone(q, purge.id, now);
    return true;
  }
  const wait = backoffAfter(purge.attempts);
  await q`UPDATE cache_purges SET next_at = ${new Date(now.getTime() + wait).toISOString()},
          claimed_until = NULL WHERE id = ${purge.id}`;
  return false;
}

/** The wait before the next attempt of a purge that failed `attempts` times. */
export function backoffAfter(attempts: number): number {
  return BACKOFF_MS[Math.min(attempts, BACKOFF_MS.length) - 1] ?? 0;
}

/** Deletes what is no longer of use: done a day ago, or undelivered past any cache's copy. */
export async function prunePurges(q: Query, now: Date): Promise<void> {
  const done = new Date(now.getTime() - KEEP_DONE_MS).toISOString();
  const stale = new Date(now.getTime() - KEEP_UNDELIVERED_MS).toISOString();
  await q`DELETE FROM cache_purges WHERE (done_at IS NOT NULL AND done_at < ${done})
          OR (done_at IS NULL AND created_at < ${stale})`;
}
