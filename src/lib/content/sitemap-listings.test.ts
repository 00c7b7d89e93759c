import { afterEach, beforeEach, expect, test } from 'bun:test';
import { openTestDatabase } from '../../../tests/databases';
import { insertPublishedPages } from '../../../tests/generated-site';
import { type Query, sqlTemplate } from '../data/db';
import { createContentStore } from './content';
import { SITEMAP_LISTINGS } from './posts';

// The sitemap's topics and authors (issue 27's scale bench): a MAX over a join grouped by slug
// read every entry of the listing indexes, so the uncached sitemap index grew with the site
// (36 ms at 100 000 posts on SQLite). Each topic's and author's newest post is now one index
// entry, on the run's engine (FOLIO_TEST_ENGINE).
let db: Awaited<ReturnType<typeof openTestDatabase>>;

beforeEach(async () => {
  db = await openTestDatabase();
});

afterEach(async () => {
  await db.dispose();
});

test("the sitemap's topics and authors: each newest post, one index entry each", async () => {
  await insertPublishedPages(db, 2_000, { topics: 4, authors: 3 });
  // A topic and an author with no published post are left out.
  const at = '2026-01-01T00:00:00.000Z';
  await db.query`INSERT INTO topics (name, slug, created_at, updated_at) VALUES ('Empty', 'empty-topic', ${at}, ${at})`;
  await db.query.unsafe(db.engine === 'postgres' ? 'VACUUM ANALYZE' : 'ANALYZE');
  const newest = await db.query<{ slug: string; published_at: string }>`
    SELECT t.slug, MAX(pt.first_published_at) AS published_at
    FROM topics t JOIN published_post_topics pt ON pt.topic_id = t.id GROUP BY t.slug
    UNION ALL
    SELECT a.slug, MAX(pa.first_published_at) AS published_at
    FROM authors a JOIN published_post_authors pa ON pa.author_id = a.id GROUP BY a.slug`;
  const entries = await createContentStore(db).sitemapListingEntries(50_000);
  expect(entries).toHaveLength(7);
  expect([...entries].sort((a, b) => a.slug.localeCompare(b.slug))).toEqual(
    newest
      .map((row) => ({ slug: row.slug, publishedAt: row.published_at }))
      .sort((a, b) => a.slug.localeCompare(b.slug)),
  );
  expect(await createContentStore(db).sitemapListingEntries(2)).toEqual(entries.slice(0, 2));

  const explain = db.engine === 'sqlite' ? 'EXPLAIN QUERY PLAN ' : 'EXPLAIN (ANALYZE, COSTS OFF) ';
  const explained = sqlTemplate([`${explain}${SITEMAP_LISTINGS[0]}`, ...SITEMAP_LISTINGS.slice(1)]);
  const rows = await (db.query as Query)<Record<string, unknown>>(explained, 50_000);
  const plan = rows.map((row) => String(row.detail ?? row['QUERY PLAN'])).join('\n');
  if (db.engine === 'sqlite') {
    // The newest entry of each topic's range: a subquery per topic, never a pass over them.
    expect(plan).toMatch(/CORRELATED SCALAR SUBQUERY[^\n]*\n[^\n]*SEARCH pt USING COVERING INDEX/);
    expect(plan).toMatch(/CORRELATED SCALAR SUBQUERY[^\n]*\n[^\n]*SEARCH pa USING COVERING INDEX/);
    expect(plan).not.toMatch(/SCAN p[ta]\b|GROUP BY/);
  } else {
    const scans = plan
      .split('\n')
      .filter((line) => /Scan.* on published_post_(topics|authors)/.test(line));
    expect(scans.length).toBeGreaterThan(0);
    // Each reads one entry a topic (or author), not the topic's posts.
    for (const line of scans) expect(line).toMatch(/Index Only Scan Backward.* rows=[01] loops=/);
  }
});
