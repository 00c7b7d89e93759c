import { afterEach, beforeEach, expect, test } from 'bun:test';
import { openTestDatabase } from '../../../tests/databases';
import { insertPublishedPages } from '../../../tests/generated-site';
import { type Query, sqlTemplate } from '../data/db';
import { API_QUERIES, itemsByIds, type ListingKey } from './api-reads';
import { type ContentStore, createContentStore } from './content';

// The content API's reads (docs/decisions/0044), on the run's engine (FOLIO_TEST_ENGINE).
let db: Awaited<ReturnType<typeof openTestDatabase>>;
let store: ContentStore;

beforeEach(async () => {
  db = await openTestDatabase();
  store = createContentStore(db);
});
afterEach(async () => {
  await db.dispose();
});

test('a keyset walk of the posts is the site listing, page for page', async () => {
  await insertPublishedPages(db, 130, { topics: 3, authors: 2 });
  const site: string[] = [];
  for (let page = 1; ; page += 1) {
    const listed = await store.listPosts(page);
    site.push(...(listed?.posts.map((post) => post.slug) ?? []));
    if (!listed?.hasNext) break;
  }
  const walked: string[] = [];
  let after: ListingKey | null = null;
  do {
    const found = await store.apiPosts({ listing: null, after, limit: 17, updatedSince: null });
    walked.push(...found.items.map((item) => item.slug));
    after = found.next;
  } while (after !== null);
  expect(walked).toEqual(site);
  expect(new Set(walked).size).toBe(walked.length);
});

test('every API read walks an index in order: no sort, no scan', async () => {
  // PostgreSQL plans by statistics: a site of some size, analysed as autovacuum would. Building
  // 10 000 pages takes PostgreSQL 3–5 s alone and over 20 s beside a busy run (seen: publishing
  // them in one UPDATE took 13 s with two other test runs on both cores), hence its minute.
  await insertPublishedPages(db, 10_000, { topics: 99, authors: 2 });
  // Topics and authors by the thousand, most with no published post (editors' leftovers).
  const counting = 'WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 3000)';
  await db.query.unsafe(`${counting} INSERT INTO topics (name, slug, created_at, updated_at)
    SELECT 'Extra ' || i, 'extra-' || i, '2025-01-01', '2025-01-01' FROM n`);
  await db.query.unsafe(`${counting} INSERT INTO authors (slug, name, bio, created_at, updated_at)
    SELECT 'extra-author-' || i, 'Extra ' || i, '', '2025-01-01', '2025-01-01' FROM n`);
  await db.query.unsafe('ANALYZE');
  const prefix = db.engine === 'sqlite' ? 'EXPLAIN QUERY PLAN ' : 'EXPLAIN ';
  const planOf = async (template: TemplateStringsArray, values: unknown[]) => {
    const explained = sqlTemplate([`${prefix}${template[0]}`, ...template.slice(1)]);
    const rows = await (db.query as Query)<Record<string, unknown>>(explained, ...values);
    return rows.map((row) => String(row.detail ?? row['QUERY PLAN'])).join('\n');
  };
  const key = ['2025-01-01T02:00:00.000Z', 7200];
  const cases: [string, TemplateStringsArray, unknown[], RegExp][] = [
    ['posts', API_QUERIES.posts.first, [21], /published_posts_newest/],
    ['posts after', API_QUERIES.posts.after, [...key, 21], /published_posts_newest/],
    ['topic', API_QUERIES.topicPosts.first, [1, 21], /published_post_topics_newest/],
    ['topic after', API_QUERIES.topicPosts.after, [1, ...key, 21], /published_post_topics_newest/],
    ['author', API_QUERIES.authorPosts.first, [1, 21], /published_post_authors_newest/],
    [
      'author after',
      API_QUERIES.authorPosts.after,
      [1, ...key, 21],
      /published_post_authors_newest/,
    ],
    ['pages', API_QUERIES.publishedKeysFirst, [500], /revisions_published/],
    ['pages after', API_QUERIES.publishedKeysAfter, [...key, 500], /revisions_published/],
    ['posts since', API_QUERIES.postKeys.after, [...key, 500], /published_posts_newest/],
    [
      'topic since',
      API_QUERIES.topicPostKeys.after,
      [1, ...key, 500],
      /published_post_topics_newest/,
    ],
    [
      'author since',
      API_QUERIES.authorPostKeys.after,
      [1, ...key, 500],
      /published_post_authors_newest/,
    ],
    ['items by id', itemsByIds(3), [5, 600, 1200], /pages_pkey|INTEGER PRIMARY KEY/],
    ['topics', API_QUERIES.topicsFirst, [21], /sqlite_autoindex_topics|topics_slug_key/],
    ['topics after', API_QUERIES.topicsAfter, ['a', 21], /sqlite_autoindex_topics|topics_slug_key/],
    ['authors', API_QUERIES.authorsFirst, [21], /sqlite_autoindex_authors|authors_slug_key/],
    [
      'authors after',
      API_QUERIES.authorsAfter,
      ['a', 21],
      /sqlite_autoindex_authors|authors_slug_key/,
    ],
  ];
  for (const [what, template, values, index] of cases) {
    const plan = await planOf(template, values);
    expect(plan, what).toMatch(index);
    expect(plan, what).not.toMatch(/TEMP B-TREE|Sort/);
    // Walking an index in its order is what a keyset read is; a scan of a table is not.
    // (SQLite's SCAN of `pp`, `t` or `a` is of a window's few rows, not of a table.)
    // A topic's or author's "has a published post" is one LIMIT 1 probe per row of the window;
    // at 10 000 posts PostgreSQL may probe the small table itself rather than its index (its
    // statistics say the first row comes at once), so that probe alone is not held to it.
    const checked = /^(topics|authors)/.test(what)
      ? plan.replace(
          /Seq Scan on published_post_(topics|authors) pt|Seq Scan on published_post_(topics|authors) pa/g,
          '',
        )
      : plan;
    expect(checked, what).not.toMatch(
      /\bSCAN (p|r|pages|revisions|topics|authors|published_\w+)\b(?! USING)|Seq Scan/,
    );
  }
}, 60_000);
