// Owns the shapes the page store hands out: pages as each side sees them, listings, revisions,
// schedules, site settings, topics and post listings, and what a save answers. Types only, so
// any layer may import them.
import type { ShareImage } from '../social-card/share-image';
import type { MenuEntry } from './navigation-menus';
import type { PageKind } from './post-fields';
import type { SeoFields } from './seo-fields';

export type { PageKind };
export type PageState = 'published' | 'draft-only' | 'changed';

/** What happened to a page last: the dashboard shows it, and a stale save says it. */
export type PageChange =
  | 'saved'
  | 'published'
  | 'unpublished'
  | 'discarded'
  | 'renamed'
  | 'restored';

export type PageView = {
  id: number;
  slug: string;
  title: string;
  summary: string;
  bodyMarkdown: string;
  bodyHtml: string;
  /** For a public read this is never 'changed' or 'draft-only': drafts are invisible there. */
  state: PageState;
  showingDraft: boolean;
  version: number;
  createdAt: string;
  updatedAt: string;
  publishedAt: string | null;
  /** When the page was first published (its oldest revision), or null if never. */
  firstPublishedAt: string | null;
  draftUpdatedAt: string | null;
  draftUpdatedBy: string | null;
  /** Who changed the page last (any change: a save, a publish, a discard…), and how. */
  updatedBy: string | null;
  lastChange: PageChange;
  /** A post (listed, in the feed) or a page; a draft's, when the view shows the draft. */
  kind: PageKind;
  /** Its topics' ids, in the editor's order (a draft's, when the view shows the draft). */
  topicIds: number[];
  /** Its authors' ids, in byline order (a draft's, when the view shows the draft). */
  authorIds: number[];
  /** Its search and sharing fields (a draft's, when the view shows the draft). */
  seo: SeoFields;
};

/** A topic: a page of its own at `/<slug>` while a published post has it. */
export type Topic = { id: number; name: string; slug: string; intro: string; introHtml: string };
/** A topic on the editors' screen: how many published posts have it. */
export type TopicListing = Topic & {
  posts: number;
  /** Its last change: a form made before another tab's save is refused (hostile pass). */
  updatedAt: string;
};

/** A published post as a listing shows it. */
export type PostSummary = {
  slug: string;
  title: string;
  summary: string;
  firstPublishedAt: string;
  /** Its byline, in order. */
  authors: { id: number; slug: string; name: string }[];
  /** The first library image its HTML shows, when near its start. */
  image: ShareImage | null;
};
/** One page of a listing, newest first. */
export type PostListingPage = { page: number; hasNext: boolean; posts: PostSummary[] };

export type PageSummary = {
  slug: string;
  title: string;
  summary: string;
  publishedAt: string | null;
};
/** A published page as a feed shows it: its published text and when it was first published. */
export type FeedEntry = {
  id: number;
  slug: string;
  title: string;
  summary: string;
  bodyHtml: string;
  firstPublishedAt: string;
  publishedAt: string;
};

/** A published page's place in the sitemap's order (newest publish first): a keyset key. */
export type SitemapKey = { publishedAt: string; pageId: number };
/** A published page as the sitemap lists it. */
export type SitemapEntry = { slug: string; publishedAt: string };

export type PageListing = {
  id: number;
  slug: string;
  title: string;
  state: PageState;
  updatedAt: string;
  updatedBy: string | null;
  lastChange: PageChange;
  publishedAt: string | null;
  /** When a schedule will publish the page's draft (UTC ISO), or null. */
  publishAt: string | null;
  /** When a schedule that did not publish was due (MissedSchedule), or null. */
  missedPublishAt: string | null;
  /** Post or page, where the list reads it (the dashboard). */
  kind?: PageKind;
  /** Who made it (null: nobody, made before roles or by the CLI), where the list reads it. */
  ownerId?: number | null;
};

/** A page's pending scheduled publish: when, and on whose behalf. */
export type Schedule = { publishAt: string; scheduledBy: string | null };

/** A schedule that came due and did not publish: when it was for, whose, and why not. */
export type MissedSchedule = Schedule & { reason: string };

/** A page a schedule published (for the log and the CLI). */
export type ScheduledPublish = {
  slug: string;
  publishAt: string;
  scheduledBy: string | null;
  /** Why it was not published after all (its schedule is cleared; the draft stays). */
  refused?: string;
};

/**
 * A published version of a page as its history lists it: when, by whom, no text. A page
 * published hundreds of times with a long body must not load every body to list them; the
 * one or two a view shows or compares are read by id (Revision).
 */
export type RevisionSummary = {
  id: number;
  pageId: number;
  publishedAt: string;
  publishedBy: string | null;
  /** True when a schedule published it (on behalf of `publishedBy`). */
  bySchedule: boolean;
  /** The revision visitors see now. */
  current: boolean;
};

/** A published version of a page, with its text. */
export type Revision = RevisionSummary & {
  title: string;
  summary: string;
  bodyMarkdown: string;
  bodyHtml: string;
};

/** The site's own settings, edited in preview. `navigation` null: the header has no menu. */
export type SiteSettings = {
  title: string;
  tagline: string;
  footer: string;
  /** The header's menu (navigation-menus.ts), in its order. */
  navigation: readonly MenuEntry[] | null;
  /** The footer's menu, beside the footer line (empty: none). */
  footerMenu: readonly MenuEntry[];
  /** The site's language, a BCP 47 tag: `<html lang>` and `og:locale` (issue 27). */
  language: string;
  /** `#rrggbb`: links and the generated social card. */
  accent: string;
  /** A library image's hash: the share image of a page that shows none (null: a card). */
  socialImage: string | null;
  /** A library image's hash: the browser's tab icon (null: Folio's own). */
  favicon: string | null;
  /** What `/` shows: the home page's own text, or it as an introduction to the latest posts. */
  homeShows: HomeShows;
};

export type HomeShows = 'page' | 'posts';

/**
 * Settings as a save takes them: what a caller leaves out (a form or script from before these
 * fields existed) keeps its stored value.
 */
export type SiteSettingsInput = Omit<
  SiteSettings,
  'language' | 'accent' | 'socialImage' | 'favicon' | 'homeShows' | 'navigation' | 'footerMenu'
> &
  Partial<Pick<SiteSettings, 'language' | 'accent' | 'socialImage' | 'favicon' | 'homeShows'>> & {
    /** A bare id is that page under its title (as issue 25's callers give them). */
    navigation?: readonly (number | MenuEntry)[] | null;
    footerMenu?: readonly (number | MenuEntry)[];
  };

/**
 * A menu's link as visitors see it: a page of the site (`slug`) or an external address
 * (`href`), under its label (a page's title when the editors gave none).
 */
export type NavigationLink =
  | { slug: string; href?: undefined; title: string /** The editors named it. */; labelled?: true }
  | { href: string; slug?: undefined; title: string };

export type SaveResult =
  | {
      ok: true;
      version: number;
      pageId: number;
      slug: string;
      /** A save asked to publish too: whether it did (not when there was nothing to publish). */
      published?: boolean;
      /** The save cancelled a pending scheduled publish, and asked for review again. */
      unscheduled?: boolean;
    }
  | { ok: false; reason: 'conflict'; current: PageView | null };

/** What an editor's form says it acts on: the page it was made for, and the version it showed. */
export type Expectation = { pageId?: number; version?: number };
