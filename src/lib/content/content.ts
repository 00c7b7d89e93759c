// Owns the page store's public face: the names every caller imports (the store, its types and
// errors) and the process's own store. The store itself is split by responsibility — reads
// (read-model.ts), writes (write-model.ts on page-writes.ts), history, schedules, site
// settings — and composed in store.ts; this module only re-exports them, so callers keep one
// import path.
import 'server-only';
import { getDatabase } from '../data/db';
import { processSingleton } from '../runtime/process-singleton';
import { type ContentStore, createContentStore } from './store';

/** What a cached feed or sitemap keys by (docs/decisions/0028): serve what was built under
 * it while it returns the same number. */
export { listingsVersion } from '../data/content-version';
export type { Checkpoint, CheckpointSummary } from './checkpoints';
export {
  BUSY_MESSAGE,
  ContentError,
  type ContentErrorCode,
  databaseTroubleOf,
  FULL_MESSAGE,
  isContentError,
  UNAVAILABLE_MESSAGE,
} from './errors';
export type {
  ContentEvent,
  ContentEventType,
  EventDispatcher,
  EventSubscriber,
} from './events';
export { type PageFields, pageFieldsSchema } from './page-fields';
export type {
  PageCursor,
  PageListQuery,
  PageListResult,
  PageListSort,
  PageListState,
} from './page-list-params';
export {
  NEW_PAGE_KIND,
  PAGE_KINDS,
  parseTopicNames,
  TOPIC_NAME_MAX,
  TOPICS_PER_POST_MAX,
  type TopicFields,
  topicFieldsSchema,
} from './post-fields';
export { LISTING_PAGE_SIZE } from './posts';
export { NAVIGATION_MAX, settingsVersion, siteSettingsSchema } from './settings';
export { type ContentStore, createContentStore } from './store';
export type {
  Expectation,
  FeedEntry,
  MissedSchedule,
  NavigationLink,
  PageChange,
  PageKind,
  PageListing,
  PageState,
  PageSummary,
  PageView,
  PostListingPage,
  PostSummary,
  Revision,
  RevisionSummary,
  SaveResult,
  Schedule,
  ScheduledPublish,
  SitemapEntry,
  SitemapKey,
  SiteSettings,
  Topic,
  TopicListing,
} from './types';

/** The store over the process's database (opened on first use). */
export function contentStore(): ContentStore {
  return processSingleton('content-store', () => createContentStore(getDatabase));
}
