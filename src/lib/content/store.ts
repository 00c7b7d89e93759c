// Owns putting the page store together: one StoreContext (database, clock, transactions)
// shared by the reads, the writes, the history, the schedules and the site settings, composed
// into the one ContentStore object every caller uses.
import 'server-only';
import type { Database } from '../data/db';
import { apiReads } from './api-reads';
import { authorsStore } from './authors';
import { createEventDispatcher } from './events';
import { exportReads } from './export-reads';
import { history } from './history';
import { postStore } from './posts';
import { publicSearch } from './public-search';
import { readModel } from './read-model';
import { redirectsStore } from './redirects';
import { reviewStore } from './review';
import { schedules } from './schedules';
import { siteSettings } from './settings';
import { createStoreContext } from './store-context';
import { topicStore } from './topics';
import { writeModel } from './write-model';

/**
 * The page store over a database (or a function that opens it: the process's store is made
 * before its database is open). Every method is async; writes are transactions that either commit
 * whole or leave nothing, and expected refusals are ContentErrors.
 */
export function createContentStore(
  database: Database | (() => Promise<Database>),
  now: () => Date = () => new Date(),
) {
  const context = createStoreContext(database, now);
  const settings = siteSettings(context);
  const events = createEventDispatcher(context.opened, now);
  return {
    ...readModel(context, () => settings.getSiteSettings()),
    ...exportReads(context),
    ...history(context),
    ...publicSearch(context),
    ...writeModel(context),
    ...schedules(context),
    ...settings,
    ...postStore(context),
    ...topicStore(context),
    ...redirectsStore(context),
    ...authorsStore(context),
    ...reviewStore(context),
    ...apiReads(context),
    /** Subscribes to content events in this process (events.ts); returns the unsubscribe. */
    subscribeToEvents: events.subscribe,
    /** One dispatch round (the scheduler runs one at each check); how many were delivered. */
    dispatchEvents: events.dispatch,
  };
}

export type ContentStore = ReturnType<typeof createContentStore>;
