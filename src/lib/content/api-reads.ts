// Owns the content API's reads (docs/decisions/0044): published posts and pages, and the
// topics and authors visitors can see, a keyset page at a time. Built from the public site's
// own statements and rules — the listings' index walks (posts.ts listingStatement), the
// published-order walk of the feed and sitemap (read-model.ts), the "a published post has it"
// rule of a topic's and an author's page — so the API cannot disagree with the site about
// what is published. Every read takes at most `limit + 1` index entries, whatever the site's
// size; a filter the index cannot answer (a page among posts, `updated_since` among posts) is
// applied to those entries, so a page of results may hold fewer than `limit`.
import 'server-only';
import { type Query, sqlTemplate } from '../data/db';
import { traced } from '../observability/spans';
import { type ListingOf, listingStatement } from './posts';
import { NEWEST_FIRST, PUBLISHED_NEWEST_FIRST } from './read-model';
import { parseSeo, type SeoFields } from './seo-fields';
import type { StoreContext } from './store-context';
import { parseTopicIds } from './topic-ids';
import { withIdList } from './topics';

/** A place in a listing's order: its date (first publish for posts, last for pages) and id. */
export type ListingKey = { at: string; id: number };

/** A published post or page, its published revision only. */
export type PublishedItem = {
  id: number;
  slug: string;
  kind: 'post' | 'page';
  title: string;
  summary: string;
  bodyHtml: string;
  firstPublishedAt: string;
  publishedAt: string;
  topicIds: number[];
  authorIds: number[];
  seo: SeoFields;
};

/** What one read found, and where the next starts (null: the listing is done). */
export type ListingPage<T> = { items: T[]; next: ListingKey | null };

type ItemRow = {
  id: number | string;
  slug: string;
  kind: string;
  title: string;
  summary: string;
  body_html: string;
  published_at: string;
  first_published_at: string;
  topics: string;
  authors: string;
  seo: string;
};

const ITEM_COLUMNS = `p.id, p.slug, r.kind, r.title, r.summary, r.body_html, r.published_at,
  r.topics, r.authors, r.seo`;

const of = (kind: 'all' | 'topic' | 'author') => ({
  first: listingStatement(ITEM_COLUMNS, kind, { paged: false }),
  after: listingStatement(ITEM_COLUMNS, kind, { paged: false, after: true }),
});
const FIRST_PUBLISHED = `(SELECT MIN(f.published_at) FROM revisions f WHERE f.page_id = p.id)
  AS first_published_at`;

// A topic or author is public while a published post has it: the rule of getPublicTopic and
// getPublicAuthor, asked of each row of a window read from the unique index on slug (the
// window first, as the listings choose their page of index entries first), as one probe of
// its index (LIMIT 1: an EXISTS, PostgreSQL hashed every post's topic row to answer 21 rows).
// 1 when public, null when not.
const TOPIC_PUBLIC = `(SELECT 1 FROM published_post_topics pt WHERE pt.topic_id = t.id LIMIT 1)`;
const AUTHOR_PUBLIC = `(SELECT 1 FROM published_post_authors pa WHERE pa.author_id = a.id LIMIT 1)`;
const TOPIC_WINDOW = 'SELECT id, name, slug, intro_html FROM topics';
const AUTHOR_WINDOW = 'SELECT id, slug, name, bio, photo, links FROM authors';

/** The published text of `count` pages by id (a filtered listing's kept ones). */
export const itemsByIds = (count: number) =>
  withIdList(
    `SELECT ${ITEM_COLUMNS}, ${FIRST_PUBLISHED} FROM pages p
     JOIN revisions r ON r.id = p.published_revision_id WHERE p.id IN`,
    count,
  );

/** What a filtered listing reads of each entry first: its key and what the filter asks. */
const KEY_COLUMNS = 'p.id, r.kind, r.published_at';
const keysOf = (kind: 'all' | 'topic' | 'author') => ({
  first: listingStatement(KEY_COLUMNS, kind, { paged: false }),
  after: listingStatement(KEY_COLUMNS, kind, { paged: false, after: true }),
});

/**
 * Index entries a filtered listing reads per request (a pages listing among posts, posts
 * updated since a date): enough that a filter that keeps few still fills a page in one or a few
 * requests, few enough that a request stays bounded — keys only, the text is then read for the
 * kept ones alone.
 */
export const FILTER_WINDOW = 500;

/** The API's statements, for a test that asks each engine for its plan. */
export const API_QUERIES = {
  postKeys: keysOf('all'),
  topicPostKeys: keysOf('topic'),
  authorPostKeys: keysOf('author'),
  /** Keys of the published-order walk. Values: limit; or published_at, page_id, limit. */
  publishedKeysFirst: sqlTemplate([
    `SELECT ${KEY_COLUMNS}${PUBLISHED_NEWEST_FIRST}${NEWEST_FIRST}`,
    '',
  ]),
  publishedKeysAfter: sqlTemplate([
    `SELECT ${KEY_COLUMNS}${PUBLISHED_NEWEST_FIRST}
       AND (r.published_at, r.page_id) < (`,
    ', ',
    `)${NEWEST_FIRST}`,
    '',
  ]),
  posts: of('all'),
  topicPosts: of('topic'),
  authorPosts: of('author'),
  // Topics and authors: a window of `limit + 1` by slug, each with whether it is public.
  topicsFirst: sqlTemplate([
    `SELECT t.id, t.name, t.slug, t.intro_html, ${TOPIC_PUBLIC} AS public
     FROM (${TOPIC_WINDOW} ORDER BY slug LIMIT `,
    ') t ORDER BY t.slug',
  ]),
  topicsAfter: sqlTemplate([
    `SELECT t.id, t.name, t.slug, t.intro_html, ${TOPIC_PUBLIC} AS public
     FROM (${TOPIC_WINDOW} WHERE slug > `,
    ' ORDER BY slug LIMIT ',
    ') t ORDER BY t.slug',
  ]),
  authorsFirst: sqlTemplate([
    `SELECT a.id, a.slug, a.name, a.bio, a.photo, a.links, ${AUTHOR_PUBLIC} AS public
     FROM (${AUTHOR_WINDOW} ORDER BY slug LIMIT `,
    ') a ORDER BY a.slug',
  ]),
  authorsAfter: sqlTemplate([
    `SELECT a.id, a.slug, a.name, a.bio, a.photo, a.links, ${AUTHOR_PUBLIC} AS public
     FROM (${AUTHOR_WINDOW} WHERE slug > `,
    ' ORDER BY slug LIMIT ',
    ') a ORDER BY a.slug',
  ]),
};

function toItem(row: ItemRow): PublishedItem {
  return {
    id: Number(row.id),
    slug: row.slug,
    kind: row.kind === 'post' ? 'post' : 'page',
    title: row.title,
    summary: row.summary,
    bodyHtml: row.body_html,
    firstPublishedAt: row.first_published_at,
    publishedAt: row.published_at,
    topicIds: parseTopicIds(row.topics),
    authorIds: parseTopicIds(row.authors),
    seo: parseSeo(row.seo),
  };
}

/** Public topic as the API lists it. */
export type ApiTopicRow = { id: number; name: string; slug: string; introHtml: string };
/** Public author as the API lists them (never their editor's email: the row has none). */
export type ApiAuthorRow = {
  id: number;
  slug: string;
  name: string;
  bio: string;
  photo: string | null;
  links: readonly string[];
};

function linksOf(text: string): string[] {
  try {
    const parsed: unknown = JSON.parse(text);
    return Array.isArray(parsed) ? parsed.filter((l): l is string => typeof l === 'string') : [];
  } catch {
    return [];
  }
}

export function apiReads({ read }: StoreContext) {
  /** A window of `limit + 1` topics or authors: the first `limit`, the public ones kept. */
  function paged<R, T>(
    rows: (R & { public: number | null })[],
    limit: number,
    keyOf: (row: R) => ListingKey,
    toValue: (row: R) => T,
  ): ListingPage<T> {
    const scanned = rows.slice(0, limit);
    const last = scanned.at(-1);
    return {
      items: scanned.filter((row) => row.public !== null).map(toValue),
      next: rows.length > limit && last ? keyOf(last) : null,
    };
  }

  type KeyRow = {
    id: number | string;
    kind: string;
    published_at: string;
    /** Posts' listings only. */
    first_published_at?: string;
  };

  /**
   * A filtered listing: its window of keys read, the first `limit` kept (or up to a 'stop'),
   * then the text of those alone, by id, in the window's order. `next` follows the last key
   * looked at, so the walk goes on where this one ended.
   */
  async function filtered(
    q: Query,
    keys: KeyRow[],
    limit: number,
    keyOf: (row: KeyRow) => ListingKey,
    keep: (row: KeyRow) => boolean | 'stop',
  ): Promise<ListingPage<PublishedItem>> {
    const ids: number[] = [];
    let looked = 0;
    let stopped = false;
    for (const row of keys) {
      if (ids.length === limit) break;
      looked += 1;
      const kept = keep(row);
      if (kept === 'stop') {
        stopped = true;
        break;
      }
      if (kept) ids.push(Number(row.id));
    }
    const last = keys[looked - 1];
    const more = !stopped && (looked < keys.length || keys.length === FILTER_WINDOW);
    const rows = ids.length === 0 ? [] : await q<ItemRow>(itemsByIds(ids.length), ...ids);
    const byId = new Map(rows.map((row) => [Number(row.id), toItem(row)]));
    return {
      // A page unpublished between the two reads is gone from the second: left out.
      items: ids.flatMap((id) => byId.get(id) ?? []),
      next: more && last ? keyOf(last) : null,
    };
  }

  return {
    /**
     * Published posts newest first by first publish (the site's listings' order), of one
     * topic or author or all, below `after`. `updatedSince` keeps those published since.
     */
    async apiPosts({
      listing,
      after,
      limit,
      updatedSince,
    }: {
      listing: ListingOf;
      after: ListingKey | null;
      limit: number;
      updatedSince: string | null;
    }): Promise<ListingPage<PublishedItem>> {
      const id =
        listing === null ? [] : ['topicId' in listing ? listing.topicId : listing.authorId];
      const at = after === null ? [] : [after.at, after.id];
      const keyOf = (row: { id: number | string; first_published_at?: string }) => ({
        at: row.first_published_at ?? '',
        id: Number(row.id),
      });
      if (updatedSince !== null) {
        const statements =
          listing === null
            ? API_QUERIES.postKeys
            : 'topicId' in listing
              ? API_QUERIES.topicPostKeys
              : API_QUERIES.authorPostKeys;
        return traced('db.query', 'apiPosts (updated since)', () =>
          read(async (q) => {
            const keys = await q<KeyRow>(
              after === null ? statements.first : statements.after,
              ...id,
              ...at,
              FILTER_WINDOW,
            );
            return filtered(q, keys, limit, keyOf, (row) => row.published_at >= updatedSince);
          }),
        );
      }
      const statements =
        listing === null
          ? API_QUERIES.posts
          : 'topicId' in listing
            ? API_QUERIES.topicPosts
            : API_QUERIES.authorPosts;
      const rows = await traced('db.query', 'apiPosts', () =>
        read((q) =>
          q<ItemRow>(after === null ? statements.first : statements.after, ...id, ...at, limit + 1),
        ),
      );
      const items = rows.slice(0, limit);
      const last = items.at(-1);
      return {
        items: items.map(toItem),
        next: rows.length > limit && last ? keyOf(last) : null,
      };
    },

    /**
     * Published pages (not posts) newest first by last publish: the published-order walk (the
     * feed's and sitemap's), keeping the pages among what it reads. `updatedSince` ends the walk
     * at that date.
     */
    async apiPages({
      after,
      limit,
      updatedSince,
    }: {
      after: ListingKey | null;
      limit: number;
      updatedSince: string | null;
    }): Promise<ListingPage<PublishedItem>> {
      return traced('db.query', 'apiPages', () =>
        read(async (q) => {
          const keys =
            after === null
              ? await q<KeyRow>(API_QUERIES.publishedKeysFirst, FILTER_WINDOW)
              : await q<KeyRow>(API_QUERIES.publishedKeysAfter, after.at, after.id, FILTER_WINDOW);
          return filtered(
            q,
            keys,
            limit,
            (row) => ({ at: row.published_at, id: Number(row.id) }),
            (row) =>
              updatedSince !== null && row.published_at < updatedSince
                ? 'stop'
                : row.kind === 'page',
          );
        }),
      );
    },

    /** Topics visitors can see, by slug, after `after`. */
    async apiTopics(after: string | null, limit: number): Promise<ListingPage<ApiTopicRow>> {
      type Row = {
        id: number | string;
        name: string;
        slug: string;
        intro_html: string;
        public: number | null;
      };
      const rows = await read((q) =>
        after === null
          ? q<Row>(API_QUERIES.topicsFirst, limit + 1)
          : q<Row>(API_QUERIES.topicsAfter, after, limit + 1),
      );
      return paged(
        rows,
        limit,
        (row) => ({ at: row.slug, id: Number(row.id) }),
        (row) => ({
          id: Number(row.id),
          name: row.name,
          slug: row.slug,
          introHtml: row.intro_html,
        }),
      );
    },

    /** Authors visitors can see, by slug, after `after`. */
    async apiAuthors(after: string | null, limit: number): Promise<ListingPage<ApiAuthorRow>> {
      type Row = {
        id: number | string;
        slug: string;
        name: string;
        bio: string;
        photo: string | null;
        links: string;
        public: number | null;
      };
      const rows = await read((q) =>
        after === null
          ? q<Row>(API_QUERIES.authorsFirst, limit + 1)
          : q<Row>(API_QUERIES.authorsAfter, after, limit + 1),
      );
      return paged(
        rows,
        limit,
        (row) => ({ at: row.slug, id: Number(row.id) }),
        (row) => ({
          id: Number(row.id),
          slug: row.slug,
          name: row.name,
          bio: row.bio,
          photo: row.photo,
          links: linksOf(row.links),
        }),
      );
    },
  };
}
