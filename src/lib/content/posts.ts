// Owns posts as visitors' listings read them (issue 27): keeping `published_posts` and
// `published_post_topics` (migration 14) in step with a page's published revision, what a
// publish changes in the listings (the home page and the post's topics, before and after), and
// the reads — latest posts, a topic's posts, an author's, the feed's — each newest first by
// first publish through an index, a page of LISTING_PAGE_SIZE at a bounded offset, with their
// bylines read in one more query. Published revisions only. `published_post_authors`
// (migration 18) is kept in step the same way.
import 'server-only';
import { MAX_PAGES_PER_CHANGE } from '../data/content-changes';
import { type Query, sqlTemplate } from '../data/db';
import { traced } from '../observability/spans';
import { thumbnailIn } from '../social-card/share-image';
import { type Byline, bylinesIn } from './authors';
import { hasListingDirective } from './listing-directive';
import { HOME_SLUG } from './slugs';
import type { StoreContext } from './store-context';
import { parseTopicIds, topicsByIdsIn } from './topics';
import type { FeedEntry, PostListingPage, PostSummary, SitemapEntry, Topic } from './types';

/** Posts per listing page (the home page's, a topic's). */
export const LISTING_PAGE_SIZE = 20;
/**
 * The last listing page anyone may ask for: an offset walks the index up to it, so it is
 * bounded (10 000 index entries); an older post is still in the sitemap and its topics' feeds.
 */
export const LISTING_PAGES_MAX = 500;

/** What a listing is of: every post, one topic's, or one author's. */
export type ListingOf = { topicId: number } | { authorId: number } | null;

/**
 * The pages that list posts in their text, at most `$1`: read from listing_pages out, each page
 * by its key. As a join, SQLite walked every page looking each up in listing_pages (an empty
 * table has no statistics): 4 ms a publish at 100 000 pages, three times (bench/scale-cache.ts).
 */
export const LISTERS_QUERY = sqlTemplate([
  'SELECT (SELECT p.slug FROM pages p WHERE p.id = l.page_id) AS slug FROM listing_pages l LIMIT ',
  '',
]);

/**
 * Slugs whose pages list `pageId` now (its topics, its authors, and the home page when it lists posts), or
 * none when it is not a published post. Inside the caller's transaction.
 */
export async function listingSlugsOf(q: Query, pageId: number): Promise<string[]> {
  const [post] = await q<{ page_id: number }>`
    SELECT page_id FROM published_posts WHERE page_id = ${pageId}`;
  if (!post) return [];
  const topics = await q<{ slug: string }>`
    SELECT t.slug FROM published_post_topics pt JOIN topics t ON t.id = pt.topic_id
    WHERE pt.page_id = ${pageId}`;
  const authors = await q<{ slug: string }>`
    SELECT a.slug FROM published_post_authors pa JOIN authors a ON a.id = pa.author_id
    WHERE pa.page_id = ${pageId}`;
  // The home page lists posts only when Site settings say so (settings.ts homeShows); a change
  // of that setting changes everything anyway.
  const [home] = await q<{ value: string }>`
    SELECT value FROM settings WHERE key = 'site_home_shows'`;
  // Pages that list posts in their text (a listing directive), any topic: one more than
  // a change names makes it "everything" (content-changes.ts), so no more are read.
  const listing = await q<{ slug: string | null }>(LISTERS_QUERY, MAX_PAGES_PER_CHANGE + 1);
  const slugs = [
    ...topics.map((row) => row.slug),
    ...authors.map((row) => row.slug),
    ...listing.flatMap((row) => (row.slug === null ? [] : [row.slug])),
  ];
  return home?.value === 'posts' ? [HOME_SLUG, ...slugs] : slugs;
}

/**
 * Makes the listings say what the page's published revision says now (a post with its topics,
 * or nothing when it is a page or unpublished). Returns the slugs of the listings it was in
 * before and is in now: what a publish or unpublish changed besides the page itself.
 */
export async function syncPublishedPost(q: Query, pageId: number): Promise<string[]> {
  const before = await listingSlugsOf(q, pageId);
  await q`DELETE FROM published_post_topics WHERE page_id = ${pageId}`;
  await q`DELETE FROM published_post_authors WHERE page_id = ${pageId}`;
  await q`DELETE FROM published_posts WHERE page_id = ${pageId}`;
  await q`DELETE FROM listing_pages WHERE page_id = ${pageId}`;
  const [now] = await q<{
    kind: string;
    topics: string;
    authors: string;
    body_html: string;
    first_published_at: string;
  }>`
    SELECT r.kind, r.topics, r.authors, r.body_html,
      (SELECT MIN(f.published_at) FROM revisions f WHERE f.page_id = p.id) AS first_published_at
    FROM pages p JOIN revisions r ON r.id = p.published_revision_id
    WHERE p.id = ${pageId}`;
  if (now && hasListingDirective(now.body_html))
    await q`INSERT INTO listing_pages (page_id) VALUES (${pageId})`;
  // The home page is the site's front, never a post (page-writes.ts).
  if (now?.kind === 'post') {
    await q`INSERT INTO published_posts (page_id, first_published_at)
            VALUES (${pageId}, ${now.first_published_at})`;
    // Only topics that still exist (a JSON list is not a foreign key).
    for (const topic of await topicsByIdsIn(q, parseTopicIds(now.topics)))
      await q`INSERT INTO published_post_topics (topic_id, page_id, first_published_at)
              VALUES (${topic.id}, ${pageId}, ${now.first_published_at})`;
    // Only authors that still exist; one that was deleted leaves the byline.
    for (const author of await bylinesIn(q, parseTopicIds(now.authors)))
      await q`INSERT INTO published_post_authors (author_id, page_id, first_published_at)
              VALUES (${author.id}, ${pageId}, ${now.first_published_at})`;
  }
  return [...new Set([...before, ...(await listingSlugsOf(q, pageId))])];
}

type ListedRow = {
  slug: string;
  title: string;
  summary: string;
  authors: string;
  /** The start of the published HTML: where a post's first image is, when it has one. */
  head_html: string;
  first_published_at: string;
};

// Newest first by first publish, read in the order of each listing's index. The page of index
// entries is chosen first, from the index alone (its OFFSET skips entries, not joined rows:
// page 500 of a listing had joined 10 000 pages and revisions only to drop them, 2–4× page 1's
// cost at 100 000 pages, bench/scale-publication-results.md); only the rows shown are then
// joined to their page and published revision. CROSS JOIN keeps SQLite on that page first.
// A listing shows a post's first image when its HTML starts with one: only the head of the
// HTML is read, so 20 long posts cost 20 short strings.
const LISTED = `p.slug, r.title, r.summary, r.authors, SUBSTR(r.body_html, 1, 8000) AS head_html`;
/**
 * A listing's statement: `columns` of its posts newest first by first publish, walking one
 * index — every post's, one topic's (its id the first parameter) or one author's — then, with
 * `after`, the key to start below, then the LIMIT and, for a page of a listing, the OFFSET.
 */
export function listingStatement(
  columns: string,
  of: 'all' | 'topic' | 'author',
  { paged, after = false }: { paged: boolean; after?: boolean },
): TemplateStringsArray {
  const [table, alias, key] =
    of === 'topic'
      ? ['published_post_topics', 'pt', 'topic_id']
      : of === 'author'
        ? ['published_post_authors', 'pa', 'author_id']
        : ['published_posts', 'pp', null];
  const order = `ORDER BY ${alias}.first_published_at DESC, ${alias}.page_id DESC`;
  const head = `SELECT ${columns}, ${alias}.first_published_at
   FROM (SELECT ${alias}.page_id, ${alias}.first_published_at FROM ${table} ${alias}`;
  const limit = ` ${order} LIMIT `;
  const tail = `) ${alias} CROSS JOIN pages p CROSS JOIN revisions r
   WHERE p.id = ${alias}.page_id AND r.id = p.published_revision_id
   ${order}`;
  // `after`: a keyset page, the entries older than a key (first publish, page id) given after
  // the listing's own parameter — a cursor of the content API (api-reads.ts).
  const older = `(${alias}.first_published_at, ${alias}.page_id) < (`;
  const parts =
    key === null
      ? after
        ? [`${head} WHERE ${older}`, ', ', `)${limit}`]
        : [head + limit]
      : after
        ? [`${head} WHERE ${alias}.${key} = `, ` AND ${older}`, ', ', `)${limit}`]
        : [`${head} WHERE ${alias}.${key} = `, limit];
  return sqlTemplate(paged ? [...parts, ' OFFSET ', tail] : [...parts, tail]);
}
const LATEST = listingStatement(LISTED, 'all', { paged: true });
const OF_TOPIC = listingStatement(LISTED, 'topic', { paged: true });
const OF_AUTHOR = listingStatement(LISTED, 'author', { paged: true });
const FEED_COLUMNS = `p.id, p.slug, r.title, r.summary, r.body_html, r.published_at, r.topics,
  r.authors`;
const FEED_LATEST = listingStatement(FEED_COLUMNS, 'all', { paged: false });
const FEED_OF_TOPIC = listingStatement(FEED_COLUMNS, 'topic', { paged: false });
const FEED_OF_AUTHOR = listingStatement(FEED_COLUMNS, 'author', { paged: false });
/** The listings' statements, for a test that asks each engine for its plan. */
export const LISTING_QUERIES = {
  LATEST,
  OF_TOPIC,
  OF_AUTHOR,
  FEED_LATEST,
  FEED_OF_TOPIC,
  FEED_OF_AUTHOR,
};

/** Each row's bylines, read in one query for all of them (a listing's 20, a feed's). */
async function bylinesOfRows(q: Query, rows: readonly { authors: string }[]): Promise<Byline[][]> {
  const ids = rows.map((row) => parseTopicIds(row.authors));
  const found = new Map((await bylinesIn(q, [...new Set(ids.flat())])).map((a) => [a.id, a]));
  return ids.map((list) => list.flatMap((id) => found.get(id) ?? []));
}

/** A listing page number as asked (1…LISTING_PAGES_MAX), or null: never read. */
export function validListingPage(page: number): boolean {
  return Number.isSafeInteger(page) && page >= 1 && page <= LISTING_PAGES_MAX;
}

function toPage(rows: ListedRow[], bylines: Byline[][], page: number): PostListingPage {
  return {
    page,
    hasNext: rows.length > LISTING_PAGE_SIZE && page < LISTING_PAGES_MAX,
    posts: rows.slice(0, LISTING_PAGE_SIZE).map(
      (row, index): PostSummary => ({
        slug: row.slug,
        title: row.title,
        summary: row.summary,
        firstPublishedAt: row.first_published_at,
        authors: bylines[index] ?? [],
        image: thumbnailIn(row.head_html),
      }),
    ),
  };
}

/** The sitemap's topics and authors with a published post. Values: limit. */
export const SITEMAP_LISTINGS = sqlTemplate([
  `SELECT slug, published_at FROM (
     SELECT t.slug, (SELECT MAX(pt.first_published_at) FROM published_post_topics pt
       WHERE pt.topic_id = t.id) AS published_at
     FROM topics t
     UNION ALL
     SELECT a.slug, (SELECT MAX(pa.first_published_at) FROM published_post_authors pa
       WHERE pa.author_id = a.id) AS published_at
     FROM authors a
   ) listed
   WHERE published_at IS NOT NULL
   ORDER BY published_at DESC, slug LIMIT `,
  '',
]);

export type FeedPost = FeedEntry & { topics: Topic[]; authors: Byline[] };

export function postStore({ read }: StoreContext) {
  return {
    /**
     * The pages that list posts, for the sitemap (hostile pass: they were missing): every
     * topic and author with a published post, lastmod its newest post's first publish, newest
     * first, at most `limit`. Read per content version (the sitemap is cached), one index
     * entry per topic and author: each newest post is the last entry of the topic's (author's)
     * range in the listing index. A MAX over a join grouped by slug read every entry instead
     * (36 ms at 100 000 posts, SQLite: the uncached sitemap index grew with the site).
     */
    async sitemapListingEntries(limit: number): Promise<SitemapEntry[]> {
      const rows = await traced('db.query', 'sitemapListingEntries', () =>
        read((q) => q<{ slug: string; published_at: string }>(SITEMAP_LISTINGS, limit)),
      );
      return rows.map((row) => ({ slug: row.slug, publishedAt: row.published_at }));
    },

    /**
     * Page `page` (from 1) of the newest published posts, or of one topic's; null for a page
     * number out of bounds. A page past the last is an empty page (the caller answers 404).
     */
    async listPosts(page: number, of: ListingOf = null): Promise<PostListingPage | null> {
      if (!validListingPage(page)) return null;
      const offset = (page - 1) * LISTING_PAGE_SIZE;
      const name = of === null ? 'latestPosts' : 'topicId' in of ? 'topicPosts' : 'authorPosts';
      return traced('db.query', name, () =>
        read(async (q) => {
          const rows =
            of === null
              ? await q<ListedRow>(LATEST, LISTING_PAGE_SIZE + 1, offset)
              : 'topicId' in of
                ? await q<ListedRow>(OF_TOPIC, of.topicId, LISTING_PAGE_SIZE + 1, offset)
                : await q<ListedRow>(OF_AUTHOR, of.authorId, LISTING_PAGE_SIZE + 1, offset);
          const shown = rows.slice(0, LISTING_PAGE_SIZE);
          return toPage(rows, await bylinesOfRows(q, shown), page);
        }),
      );
    },

    /** The feed's newest `limit` posts (of one topic or author, or all), with topics, authors. */
    async feedPosts(limit: number, of: ListingOf = null): Promise<FeedPost[]> {
      type Row = {
        id: number | string;
        slug: string;
        title: string;
        summary: string;
        body_html: string;
        published_at: string;
        topics: string;
        authors: string;
        first_published_at: string;
      };
      return traced('db.query', 'feedPosts', () =>
        read(async (q) => {
          const rows =
            of === null
              ? await q<Row>(FEED_LATEST, limit)
              : 'topicId' in of
                ? await q<Row>(FEED_OF_TOPIC, of.topicId, limit)
                : await q<Row>(FEED_OF_AUTHOR, of.authorId, limit);
          const bylines = await bylinesOfRows(q, rows);
          const ids = rows.map((row) => parseTopicIds(row.topics));
          const topics = new Map(
            (await topicsByIdsIn(q, [...new Set(ids.flat())])).map((t) => [t.id, t]),
          );
          return rows.map((row, index) => ({
            id: Number(row.id),
            slug: row.slug,
            title: row.title,
            summary: row.summary,
            bodyHtml: row.body_html,
            firstPublishedAt: row.first_published_at,
            publishedAt: row.published_at,
            topics: (ids[index] ?? []).flatMap((id) => topics.get(id) ?? []),
            authors: bylines[index] ?? [],
          }));
        }),
      );
    },
  };
}
