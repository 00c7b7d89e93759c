// Owns what the page store reads: a page by slug (public or preview) or by id, where an old
// slug now points, the listings (published, all, the feed's, the sitemap's, the dashboard's
// page of rows: page-list.ts), the header's navigation, the page count, and unsaved Markdown
// rendered for the editor's preview. Reads only; every write is in write-model.ts, history.ts,
// schedules.ts and settings.ts.
import 'server-only';
import { sqlTemplate } from '../data/db';
import { renderMarkdown } from '../markdown/markdown';
import { mediaByHashes, mediaHashesIn, missingMediaIn } from '../media/media-refs';
import { traced } from '../observability/spans';
import { renamedAuthorSlugIn } from './authors';
import { FOOTER_MENU_MAX, type MenuEntry, menuPageIds, NAVIGATION_MAX } from './navigation-menus';
import { findPublishedPages, listPages, publishedByIds } from './page-list';
import type { PageListQuery } from './page-list-params';
import { type ListingRow, PAGE_BY_SLUG, type PageRow, pageById, toListing, toView } from './rows';
import { parseSeo } from './seo-fields';
import { HOME_SLUG, isValidSlug } from './slugs';
import type { StoreContext } from './store-context';
import type {
  FeedEntry,
  NavigationLink,
  PageListing,
  PageSummary,
  PageView,
  SitemapEntry,
  SitemapKey,
  SiteSettings,
} from './types';

/** The menus' query for `count` page ids (templates made once per count, at most 40). With
 * `draft`, a page's title is its draft's when it has one: the preview shows the header as it
 * will be once the drafts are published (issue 26). */
const navigationQueries = new Map<string, TemplateStringsArray>();
function navigationQuery(count: number, draft: boolean): TemplateStringsArray {
  const key = `${draft}:${count}`;
  let template = navigationQueries.get(key);
  if (!template) {
    template = sqlTemplate([
      draft
        ? `SELECT p.id, p.slug, COALESCE(d.title, r.title) AS title FROM pages p
       JOIN revisions r ON r.id = p.published_revision_id
       LEFT JOIN drafts d ON d.page_id = p.id
       WHERE p.id IN (`
        : `SELECT p.id, p.slug, r.title FROM pages p
       JOIN revisions r ON r.id = p.published_revision_id
       WHERE p.id IN (`,
      ...Array.from({ length: count - 1 }, () => ', '),
      ')',
    ]);
    navigationQueries.set(key, template);
  }
  return template;
}

// The published pages in the order of the revisions_published index (migration 9): the
// revisions are walked newest first and each is kept when its page publishes it. CROSS JOIN
// makes SQLite take the tables in the order written (revisions first, so the index gives the
// order and LIMIT stops the walk early); PostgreSQL reads it as the inner join it is. Kept as
// templates so a test can ask each engine for its plan of the very same text.
export const PUBLISHED_NEWEST_FIRST = `
  FROM revisions r CROSS JOIN pages p
  WHERE p.published_revision_id = r.id`;
export const NEWEST_FIRST = '\n  ORDER BY r.published_at DESC, r.page_id DESC\n  LIMIT ';
export const PUBLISHED_ORDER_QUERIES = {
  /** The feed's entries. Values: limit. */
  feed: sqlTemplate([
    `SELECT p.id, p.slug, r.title, r.summary, r.body_html, r.published_at,
       (SELECT MIN(f.published_at) FROM revisions f WHERE f.page_id = p.id) AS first_published_at
     ${PUBLISHED_NEWEST_FIRST}${NEWEST_FIRST}`,
    '',
  ]),
  /**
   * The sitemap's first file. Values: limit. With each page's search and sharing fields: a
   * page hidden from search engines is left out after the read (sitemapEntries), so every
   * file still starts where keyAt says.
   */
  sitemapFirst: sqlTemplate([
    `SELECT p.slug, r.published_at, r.seo${PUBLISHED_NEWEST_FIRST}${NEWEST_FIRST}`,
    '',
  ]),
  /** The key of one page in the order. Values: how many to skip. */
  keyAt: sqlTemplate([
    `SELECT r.published_at, r.page_id${PUBLISHED_NEWEST_FIRST}${NEWEST_FIRST}1 OFFSET `,
    '',
  ]),
  /** A later file, after the previous one's last key. Values: published_at, page_id, limit. */
  sitemapAfter: sqlTemplate([
    `SELECT p.slug, r.published_at, r.seo${PUBLISHED_NEWEST_FIRST}
       AND (r.published_at, r.page_id) < (`,
    ', ',
    `)${NEWEST_FIRST}`,
    '',
  ]),
};

/** The store's reads; `getSiteSettings` is the settings' own (navigation follows them). */
export function readModel(
  { read, opened }: StoreContext,
  getSiteSettings: () => Promise<SiteSettings>,
) {
  /**
   * The menus' links (navigation-menus.ts): the header's entries (at most NAVIGATION_MAX) and
   * the footer's (at most FOOTER_MENU_MAX), in their order, each page entry only while its page
   * is published — read by id in one query, so a render reads as many rows as it shows
   * whatever the site's size. Without a menu, none: the site's name links home, and a site of
   * 100 000 pages does not put 100 000 links on every page (issue 25). A page's label is the
   * editors' where they gave one, else its title; `draft` (editors' preview only): its
   * draft's title where it has one.
   */
  const menus = async ({
    draft = false,
  }: {
    draft?: boolean;
  } = {}): Promise<{
    header: NavigationLink[];
    footer: NavigationLink[];
  }> => {
    const settings = await getSiteSettings();
    const header = (settings.navigation ?? []).slice(0, NAVIGATION_MAX);
    const footer = settings.footerMenu.slice(0, FOOTER_MENU_MAX);
    const ids = [...new Set([...menuPageIds(header), ...menuPageIds(footer)])];
    const rows =
      ids.length === 0
        ? []
        : await traced('db.query', 'navigation', () =>
            read((q) =>
              q<{ id: number | string; slug: string; title: string }>(
                navigationQuery(ids.length, draft),
                ...ids,
              ),
            ),
          );
    const byId = new Map(rows.map((row) => [Number(row.id), row]));
    const links = (entries: readonly MenuEntry[]): NavigationLink[] =>
      entries.flatMap((entry): NavigationLink[] => {
        if (entry.page === undefined) return [{ href: entry.url, title: entry.label }];
        const row = byId.get(entry.page);
        if (!row) return [];
        return [
          entry.label
            ? { slug: row.slug, title: entry.label, labelled: true }
            : { slug: row.slug, title: row.title },
        ];
      });
    return { header: links(header), footer: links(footer) };
  };

  return {
    async getPage(slug: string, { draft }: { draft: boolean }): Promise<PageView | null> {
      if (!isValidSlug(slug)) return null;
      const [row] = await traced('db.query', draft ? 'getPage (draft)' : 'getPage', () =>
        read((q) => q<PageRow>(PAGE_BY_SLUG, draft, slug, draft)),
      );
      return row ? toView(row) : null;
    },

    /** A page's draft view by id (editors only: a form's page, wherever it is now). */
    async getPageById(id: number): Promise<PageView | null> {
      return read((q) => pageById(q, id));
    },

    /**
     * Whose page `id` is (the editor who made it; null for a page made before roles, or by the
     * CLI, or whose maker was removed) and whether visitors see it: what permissions ask
     * (editors/permissions.ts). `page` is its id, or its address. Null when there is no such
     * page.
     */
    async pageOwnership(
      page: number | string,
    ): Promise<{ ownerId: number | null; published: boolean } | null> {
      type Row = { created_by: number | string | null; published_revision_id: number | null };
      const [row] = await read((q) =>
        typeof page === 'number'
          ? q<Row>`SELECT created_by, published_revision_id FROM pages WHERE id = ${page}`
          : q<Row>`SELECT created_by, published_revision_id FROM pages WHERE slug = ${page}`,
      );
      if (!row) return null;
      return {
        ownerId: row.created_by === null ? null : Number(row.created_by),
        published: row.published_revision_id !== null,
      };
    },

    /**
     * Where page `id` is now, and whether it is or was at `slug` (its address, or an old one in
     * its slug history): a form made at `slug` that names this page was made for it. Null when
     * there is no such page.
     */
    async pageAddressOf(
      id: number,
      slug: string,
    ): Promise<{ slug: string; wasAt: boolean } | null> {
      const [row] = await read(
        (q) => q<{ slug: string; was_at: number | boolean }>`
          SELECT p.slug, (p.slug = ${slug} OR EXISTS (
            SELECT 1 FROM slug_history h WHERE h.page_id = p.id AND h.old_slug = ${slug})) AS was_at
          FROM pages p WHERE p.id = ${id}`,
      );
      return row ? { slug: row.slug, wasAt: Boolean(row.was_at) } : null;
    },

    /** The current slug of a page, topic or author once at `oldSlug`, if there is one to show. */
    async findRedirect(
      oldSlug: string,
      { draft = false }: { draft?: boolean } = {},
    ): Promise<string | null> {
      if (!isValidSlug(oldSlug)) return null;
      // A slug from the history redirects only while no page (that this side can see) holds it.
      const [row] = await read(
        (q) => q<{ slug: string }>`
          SELECT p.slug FROM slug_history h JOIN pages p ON p.id = h.page_id
          WHERE h.old_slug = ${oldSlug} AND (${draft} OR p.published_revision_id IS NOT NULL)
            AND NOT EXISTS (SELECT 1 FROM pages owner WHERE owner.slug = ${oldSlug}
                            AND (${draft} OR owner.published_revision_id IS NOT NULL))`,
      );
      if (row) return row.slug;
      // A renamed topic's old slug: the same rule, and a topic visitors see (one with posts).
      const [topic] = await read(
        (q) => q<{ slug: string }>`
          SELECT t.slug FROM topic_slug_history h JOIN topics t ON t.id = h.topic_id
          WHERE h.old_slug = ${oldSlug}
            AND EXISTS (SELECT 1 FROM published_post_topics pt WHERE pt.topic_id = t.id)
            AND NOT EXISTS (SELECT 1 FROM topics other WHERE other.slug = ${oldSlug})
            AND NOT EXISTS (SELECT 1 FROM pages owner WHERE owner.slug = ${oldSlug}
                            AND (${draft} OR owner.published_revision_id IS NOT NULL))`,
      );
      if (topic) return topic.slug;
      // An author's old address (their profile's address changed): the same rule again, for an
      // author visitors see (authors.ts renamedAuthorSlugIn).
      return read((q) => renamedAuthorSlugIn(q, oldSlug, { draft }));
    },

    /**
     * The `limit` most recently published pages, newest first, for the feed: read in the order
     * of the revisions_published index (migration 9), so only `limit` pages are read whatever
     * the site's size, never a sort of every page with its HTML.
     */
    async listRecentlyPublished(limit: number): Promise<FeedEntry[]> {
      const rows = await traced('db.query', 'listRecentlyPublished', () =>
        read((q) =>
          q<{
            id: number | string;
            slug: string;
            title: string;
            summary: string;
            body_html: string;
            first_published_at: string;
            published_at: string;
          }>(PUBLISHED_ORDER_QUERIES.feed, limit),
        ),
      );
      return rows.map((row) => ({
        id: Number(row.id),
        slug: row.slug,
        title: row.title,
        summary: row.summary,
        bodyHtml: row.body_html,
        firstPublishedAt: row.first_published_at,
        publishedAt: row.published_at,
      }));
    },

    /** How many pages are published (the sitemap's count of URLs): one count of an index. */
    async publishedCount(): Promise<number> {
      const [row] = await traced('db.query', 'publishedCount', () =>
        read(
          // The counts the triggers keep (migration 10): one or two rows, not a pass over every
          // published page (the sitemap index took 29–209 ms at 100 000 pages counting them).
          (q) => q<{ n: number | string | null }>`
            SELECT SUM(n) AS n FROM page_counts WHERE state IN ('published', 'changed')`,
        ),
      );
      return Number(row?.n ?? 0);
    },

    /**
     * The sitemap order's key of the `position`th published page (from 1), or null past the
     * last: where a later sitemap file starts. Walks the index to it (an offset, once per file
     * and content version, over index entries only on SQLite); the file itself is then read by
     * keyset. A window function numbering every page cost SQLite 20 times as much.
     */
    async sitemapKeyAt(position: number): Promise<SitemapKey | null> {
      const [row] = await traced('db.query', 'sitemapKeyAt', () =>
        read((q) =>
          q<{ published_at: string; page_id: number | string }>(
            PUBLISHED_ORDER_QUERIES.keyAt,
            position - 1,
          ),
        ),
      );
      return row ? { publishedAt: row.published_at, pageId: Number(row.page_id) } : null;
    },

    /**
     * Up to `limit` published pages for the sitemap, in the plan's order, after `after` (the
     * last key of the previous file; null for the first): a keyset read of the index. Pages
     * hidden from search engines (their published search fields) are left out here, after the
     * read: a file may then list fewer than `limit`, and the next still starts at its key.
     */
    async sitemapEntries(after: SitemapKey | null, limit: number): Promise<SitemapEntry[]> {
      type Row = { slug: string; published_at: string; seo: string };
      const rows = await traced('db.query', 'sitemapEntries', () =>
        read((q) =>
          after === null
            ? q<Row>(PUBLISHED_ORDER_QUERIES.sitemapFirst, limit)
            : q<Row>(PUBLISHED_ORDER_QUERIES.sitemapAfter, after.publishedAt, after.pageId, limit),
        ),
      );
      return rows
        .filter((row) => row.seo === '{}' || !parseSeo(row.seo).noindex)
        .map((row) => ({ slug: row.slug, publishedAt: row.published_at }));
    },

    async listPublished(): Promise<PageSummary[]> {
      const rows = await traced('db.query', 'listPublished', () =>
        read(
          (q) => q<{ slug: string; title: string; summary: string; published_at: string }>`
            SELECT p.slug, r.title, r.summary, r.published_at FROM pages p
            JOIN revisions r ON r.id = p.published_revision_id
            ORDER BY CASE WHEN p.slug = ${HOME_SLUG} THEN 0 ELSE 1 END, LOWER(r.title), p.slug`,
        ),
      );
      return rows.map((row) => ({
        slug: row.slug,
        title: row.title,
        summary: row.summary,
        publishedAt: row.published_at,
      }));
    },

    async listAll(): Promise<PageListing[]> {
      const rows = await read(
        (q) => q<ListingRow>`
          SELECT p.id, p.slug, COALESCE(d.title, r.title) AS title, p.updated_at, p.updated_by,
            p.last_change, r.published_at, p.publish_at, p.missed_publish_at,
            CASE WHEN p.published_revision_id IS NULL THEN 'draft-only'
                 WHEN d.page_id IS NOT NULL THEN 'changed' ELSE 'published' END AS state
          FROM pages p LEFT JOIN revisions r ON r.id = p.published_revision_id
          LEFT JOIN drafts d ON d.page_id = p.id
          ORDER BY CASE WHEN p.slug = ${HOME_SLUG} THEN 0 ELSE 1 END, p.slug`,
      );
      return rows.map(toListing);
    },

    /** One page of the editors' dashboard, filtered, sorted and searched in SQL (page-list.ts). */
    async listPages(query: PageListQuery, sizes?: { size?: number; candidates?: number }) {
      const db = await opened();
      return traced('db.query', 'listPages', () => listPages(db.query, db.engine, query, sizes));
    },

    /** The navigation picker: published pages (not home) matching a search, a few at most. */
    async findPublishedPages(text: string) {
      const db = await opened();
      return traced('db.query', 'findPublishedPages', () =>
        findPublishedPages(db.query, db.engine, text, HOME_SLUG),
      );
    },

    /** Which of these page ids are published, with their slugs and titles, in no order. */
    async publishedByIds(ids: readonly number[]) {
      return read((q) => publishedByIds(q, ids));
    },

    /**
     * Markdown as a page would show it, uploaded images with their sizes (the editor's preview
     * of unsaved text). Nothing is validated or stored.
     */
    async renderBody(markdown: string): Promise<string> {
      const media = await read((q) => mediaByHashes(q, mediaHashesIn(markdown)));
      return renderMarkdown(markdown, { media });
    },

    async pageCount(): Promise<number> {
      const [row] = await read((q) => q<{ n: number | string }>`SELECT COUNT(*) AS n FROM pages`);
      return Number(row?.n ?? 0);
    },

    menus,

    /** The header's links alone (menus). */
    async navigation({ draft = false }: { draft?: boolean } = {}): Promise<NavigationLink[]> {
      return (await menus({ draft })).header;
    },

    /** The `/media/` addresses a page's rendered HTML points at that answer no image. */
    async missingMedia(html: string): Promise<string[]> {
      return read((q) => missingMediaIn(q, html));
    },
  };
}
