// The ordered list of schema migrations, each written for both engines; add a numbered file
// and append it here. Ids are shared: migration 3 is the same change on SQLite and PostgreSQL.

import type { Query } from '../db';
import { migration001 } from './001-initial';
import { migration002 } from './002-links-and-throttle';
import { migration003 } from './003-editor-and-site-settings';
import { migration004 } from './004-scheduled-publishing';
import { migration005 } from './005-media';
import { migration006 } from './006-missed-schedules';
import { migration007 } from './007-content-events';
import { migration008 } from './008-share-link-makers';
import { migration009 } from './009-published-order';
import { migration010 } from './010-page-listing-and-search';
import { migration011 } from './011-media-uses-and-search';
import { migration012 } from './012-checkpoints';
import { migration013 } from './013-accent-insensitive-search';
import { migration014 } from './014-posts-and-topics';
import { migration015 } from './015-public-search';
import { migration016 } from './016-redirects';
import { migration017 } from './017-authors';
import { migration018 } from './018-bylines';
import { migration019 } from './019-seo-fields';
import { migration020 } from './020-navigation-menus';
import { migration022 } from './022-roles';
import { migration023 } from './023-people';
import { migration024 } from './024-review';
import { migration025 } from './025-audit-trail';
import { migration026 } from './026-second-factors';
import { migration027 } from './027-session-confirmations';
import { migration028 } from './028-recent-public-search';
import { migration029 } from './029-author-addresses';
import { migration030 } from './030-api-keys';
import { migration031 } from './031-cache-purges';
import { migration032 } from './032-webhooks';
import { migration033 } from './033-coedit';
import { migration034 } from './034-coedit-gone';

export type Engine = 'sqlite' | 'postgres';

export type Migration = { id: number; name: string } & Record<Engine, string> & {
    /**
     * Work the SQL cannot do, run after it in the same transaction: filling a new column from
     * what only Folio's code can read (migration 11 reads which images each page's HTML uses).
     */
    backfill?: (q: Query, engine: Engine) => Promise<void>;
  };

export const migrations: readonly Migration[] = [
  migration001,
  migration002,
  migration003,
  migration004,
  migration005,
  migration006,
  migration007,
  migration008,
  migration009,
  migration010,
  migration011,
  migration012,
  migration013,
  migration014,
  migration015,
  migration016,
  migration017,
  migration018,
  migration019,
  migration020,
  migration022,
  migration023,
  migration024,
  migration025,
  migration026,
  migration027,
  migration028,
  migration029,
  migration030,
  migration031,
  migration032,
  migration033,
  migration034,
];
