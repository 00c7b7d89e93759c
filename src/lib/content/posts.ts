// Owns posts as visitors' listings read them (issue 27): keeping `published_posts` and
// `published_post_topics` (migration 14) in step with a page's published revision, what a
// publish changes in the listings (the home page and the post's topics, before and after), and
// the reads — latest posts, a topic's posts, the feed's — each newest first by first publish
// through an index, a page of LISTING_PAGE_SIZE at a bounded offset. Published revisions only.
import 'server-only';
import { MAX_PAGES_PER_CHANGE } from '../data/content-changes';
import { type Query, sqlTemplate } from '../data/db';
import { traced } from '../observability/spans';
import { hasListingDirective } from './listing-directive';
import { HOME_SLUG } from './slugs';
import type { StoreContext } from './store-context';
import { parseTopicIds, topicsByIdsIn } from './topics';
import type { FeedEntry, PostListingPage, PostSummary, Topic } from './types';

/** Posts per listing page (the home page's, a topic's). */
export const LISTING_PAGE_SIZE = 20;
/**
 * The last listing page anyone may ask for: an offset walks the index up to it, so it is
 * bounded (10 000 index entries); an older post is still in the sitemap and its topics' feeds.
 */
export const LISTING_PAGES_MAX = 500;

/**
 * Slugs whose pages list `pageId` now (its topics, and the home page when it lists posts), or
 * none when it is not a published post. Inside the caller's transaction.
 */
export async function listingSlugsOf(q: Query, pageId: number): Promise<string[]> {
  const [post] = await q<{ page_id: number }>`
    SELECT page_id FROM published_posts WHERE page_id = ${pageId}`;
  if (!post) return [];
  const topics = await q<{ slug: string }>`
    SELECT t.slug FROM published_post_topics pt JOIN topics t ON t.id = pt.topic_id
    WHERE pt.page_id = ${pageId}`;
  // The home page lists posts only when Site settings say so (settings.ts homeShows); a change
  // of that setting changes everything anyway.
  const [home] = await q<{ value: string }>`
    SELECT value FROM settings WHERE key = 'site_home_shows'`;
  // Pages that list posts in their text (a listing directive), any topic: one more than
  // a change names makes it "everything" (content-changes.ts), so no more are read.
  const listing = await q<{ slug: string }>`
    SELECT p.slug FROM listing_pages l JOIN pages p ON p.id = l.page_id
    LIMIT ${MAX_PAGES_PER_CHANGE + 1}`;
  const slugs = [...topics, ...listing].map((row) => row.slug);
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
  await q`DELETE FROM published_posts WHERE page_id = ${pageId}`;
  await q`DELETE FROM listing_pages WHERE page_id = ${pageId}`;
  const [now] = await q<{
    kind: string;
    topics: string;
    body_html: string;
    first_published_at: string;
  }>`
    SELECT r.kind, r.topics, r.body_html,
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
  }
  return [...new Set([...before, ...(await listingSlugsOf(q, pageId))])];
}

type ListedRow = {
  slug: string;
  title: string;
  summary: string;
  first_published_at: string;
};

// Newest first by first publish, read in the order of each listing's index: CROSS JOIN keeps
// SQLite on the index first (so LIMIT stops the walk), PostgreSQL reads it as the inner join.
const LATEST = sqlTemplate([
  `SELECT p.slug, r.title, r.summary, pp.first_published_at
   FROM published_posts pp CROSS JOIN pages p CROSS JOIN revisions r
   WHERE p.id = pp.page_id AND r.id = p.published_revision_id
   ORDER BY pp.first_published_at DESC, pp.page_id DESC LIMIT `,
  ' OFFSET ',
  '',
]);
const OF_TOPIC = sqlTemplate([
  `SELECT p.slug, r.title, r.summary, pt.first_published_at
   FROM published_post_topics pt CROSS JOIN pages p CROSS JOIN revisions r
   WHERE pt.topic_id = `,
  ` AND p.id = pt.page_id AND r.id = p.published_revision_id
   ORDER BY pt.first_published_at DESC, pt.page_id DESC LIMIT `,
  ' OFFSET ',
  '',
]);
const FEED_COLUMNS = `p.id, p.slug, r.title, r.summary, r.body_html, r.published_at, r.topics`;
const FEED_LATEST = sqlTemplate([
  `SELECT ${FEED_COLUMNS}, pp.first_published_at
   FROM published_posts pp CROSS JOIN pages p CROSS JOIN revisions r
   WHERE p.id = pp.page_id AND r.id = p.published_revision_id
   ORDER BY pp.first_published_at DESC, pp.page_id DESC LIMIT `,
  '',
]);
const FEED_OF_TOPIC = sqlTemplate([
  `SELECT ${FEED_COLUMNS}, pt.first_published_at
   FROM published_post_topics pt CROSS JOIN pages p CROSS JOIN revisions r
   WHERE pt.topic_id = `,
  ` AND p.id = pt.page_id AND r.id = p.published_revision_id
   ORDER BY pt.first_published_at DESC, pt.page_id DESC LIMIT `,
  '',
]);
/** The listings' statements, for a test that asks each engine for its plan. */
export const LISTING_QUERIES = { LATEST, OF_TOPIC, FEED_LATEST, FEED_OF_TOPIC };

/** A listing page number as asked (1…LISTING_PAGES_MAX), or null: never read. */
export function validListingPage(page: number): boolean {
  return Number.isSafeInteger(page) && page >= 1 && page <= LISTING_PAGES_MAX;
}

function toPage(rows: ListedRow[], page: number): PostListingPage {
  return {
    page,
    hasNext: rows.length > LISTING_PAGE_SIZE && page < LISTING_PAGES_MAX,
    posts: rows.slice(0, LISTING_PAGE_SIZE).map(
      (row): PostSummary => ({
        slug: row.slug,
        title: row.title,
        summary: row.summary,
        firstPublishedAt: row.first_published_at,
      }),
    ),
  };
}

export type FeedPost = FeedEntry & { topics: Topic[] };

export function postStore({ read }: StoreContext) {
  return {
    /**
     * Page `page` (from 1) of the newest published posts, or of one topic's; null for a page
     * number out of bounds. A page past the last is an empty page (the caller answers 404).
     */
    async listPosts(page: number, topicId: number | null = null): Promise<PostListingPage | null> {
      if (!validListingPage(page)) return null;
      const offset = (page - 1) * LISTING_PAGE_SIZE;
      const rows = await traced('db.query', topicId === null ? 'latestPosts' : 'topicPosts', () =>
        read((q) =>
          topicId === null
            ? q<ListedRow>(LATEST, LISTING_PAGE_SIZE + 1, offset)
            : q<ListedRow>(OF_TOPIC, topicId, LISTING_PAGE_SIZE + 1, offset),
        ),
      );
      return toPage(rows, page);
    },

    /** The feed's newest `limit` posts (of one topic, or all), each with its topics. */
    async feedPosts(limit: number, topicId: number | null = null): Promise<FeedPost[]> {
      type Row = {
        id: number | string;
        slug: string;
        title: string;
        summary: string;
        body_html: string;
        published_at: string;
        topics: string;
        first_published_at: string;
      };
      return traced('db.query', 'feedPosts', () =>
        read(async (q) => {
          const rows =
            topicId === null
              ? await q<Row>(FEED_LATEST, limit)
              : await q<Row>(FEED_OF_TOPIC, topicId, limit);
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
          }));
        }),
      );
    },
  };
}
