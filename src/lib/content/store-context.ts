// Owns what every part of the page store shares: the database (or the function that opens it:
// the process's store is made before its database is open), the clock, and the one way to
// write (a transaction that announces a new content version after it commits, and turns a busy
// or unreachable database into a ContentError) and to read.
import 'server-only';
import { purgeRecorded, purgesWanted, recordPurge } from '../data/cache-purges';
import { type ContentChange, EVERYTHING, mergeChanges } from '../data/content-changes';
import { contentVersionOf } from '../data/content-version';
import type { Database, Query } from '../data/db';
import { isDatabaseBusy, isDatabaseFull, isDatabaseUnavailable } from '../data/db-errors';
import { BUSY_MESSAGE, ContentError, FULL_MESSAGE, UNAVAILABLE_MESSAGE } from './errors';
import { eventsCommitted } from './events';

/**
 * Says, inside a write, that visitors see something else now: which pages (their addresses,
 * old and new), or — without an argument — everything (docs/decisions/0028).
 */
export type Changed = (change?: ContentChange) => Promise<void>;

export type StoreContext = {
  opened: () => Promise<Database>;
  now: () => Date;
  write: <T>(work: (q: Query, changed: Changed) => Promise<T>) => Promise<T>;
  read: <T>(work: (q: Query) => Promise<T>) => Promise<T>;
};

export function createStoreContext(
  database: Database | (() => Promise<Database>),
  now: () => Date,
): StoreContext {
  const opened = () => (typeof database === 'function' ? database() : Promise.resolve(database));

  /**
   * A write transaction. Its work says what it changed for visitors (`changed`, any number of
   * times); at its end, still inside the transaction, the content version is bumped once with
   * all of it, and announced after the commit. A database locked past the busy timeout
   * (SQLite) or out of reach (PostgreSQL) is a ContentError with words for the editor.
   */
  async function write<T>(work: (q: Query, changed: Changed) => Promise<T>): Promise<T> {
    const db = await opened();
    const version = contentVersionOf(db);
    let change: ContentChange | null = null;
    let bumped: number | null = null;
    try {
      const result = await db.transaction(async (q) => {
        change = null;
        const done = await work(q, async (what = EVERYTHING) => {
          change = mergeChanges(change, what);
        });
        if (change !== null) {
          bumped = await version.bump(q, change);
          // A shared cache in front forgets what this changed, once it commits (0045).
          if (purgesWanted()) await recordPurge(q, bumped, change, now());
        }
        return done;
      });
      if (bumped !== null) {
        await version.committed(bumped, change ?? EVERYTHING);
        purgeRecorded();
        eventsCommitted();
      }
      return result;
    } catch (error) {
      if (isDatabaseBusy(error)) throw new ContentError('busy', BUSY_MESSAGE);
      if (isDatabaseUnavailable(error)) throw new ContentError('unavailable', UNAVAILABLE_MESSAGE);
      // Out of space is, to an editor, "cannot save right now": the same answer, its own words.
      if (isDatabaseFull(error)) throw new ContentError('unavailable', FULL_MESSAGE);
      throw error;
    }
  }

  async function read<T>(work: (q: Query) => Promise<T>): Promise<T> {
    return work((await opened()).query);
  }

  return { opened, now, write, read };
}
