import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { openTestDatabase } from '../../../tests/databases';
import { generatedSlug, insertPublishedPages } from '../../../tests/generated-site';
import { type Database, type Query, sqlTemplate } from '../data/db';
import { createContentStore } from './content';
import { PUBLISHED_ORDER_QUERIES } from './read-model';

// Issue 25: what a visitor's requests read must not grow with the site. The feed and the
// sitemap walk the published-order index (migration 9) instead of sorting every page; a public
// render (settings, header, the page) reads as many rows at 2 000 pages as at 50. Both engines.
let db: Awaited<ReturnType<typeof openTestDatabase>>;

beforeEach(async () => {
  db = await openTestDatabase();
});
afterEach(async () => {
  await db.dispose();
});

/** The engine's plan for `template` with `values`, one line per step. */
async function planOf(template: TemplateStringsArray, values: unknown[]): Promise<string> {
  const prefix = db.engine === 'sqlite' ? 'EXPLAIN QUERY PLAN ' : 'EXPLAIN ';
  const explained = sqlTemplate([`${prefix}${template[0]}`, ...template.slice(1)]);
  const rows = await db.query<Record<string, unknown>>(explained, ...values);
  return rows.map((row) => String(row.detail ?? row['QUERY PLAN'])).join('\n');
}

describe('the published-order index', () => {
  test('the feed and every sitemap file read it in order: no sort, no scan of pages', async () => {
    await insertPublishedPages(db, 2_000);
    // PostgreSQL plans by statistics: gathered as autovacuum would on a real site.
    await db.query.unsafe('ANALYZE');
    const queries: [string, TemplateStringsArray, unknown[]][] = [
      ['feed', PUBLISHED_ORDER_QUERIES.feed, [20]],
      // Files of a tenth of the site. (Where one file is most of the table, PostgreSQL may
      // rather hash and sort what it must read anyway: the file's rows, no more.)
      ['sitemap, first file', PUBLISHED_ORDER_QUERIES.sitemapFirst, [200]],
      ['sitemap, where a file starts', PUBLISHED_ORDER_QUERIES.keyAt, [199]],
      [
        'sitemap, a later file',
        PUBLISHED_ORDER_QUERIES.sitemapAfter,
        ['2025-01-01T00:20:00.000Z', 1200, 200],
      ],
    ];
    for (const [what, template, values] of queries) {
      const plan = await planOf(template, values);
      expect(plan, what).toContain('revisions_published');
      expect(plan, what).toContain('pages_published_revision');
      // SQLite sorts in a temporary B-tree; PostgreSQL says Sort. Neither may.
      expect(plan, what).not.toMatch(/TEMP B-TREE|Sort/);
      expect(plan, what).not.toMatch(/SCAN p\b|Seq Scan on pages/);
    }
  });
});

/** `db` whose every query counts the rows it returns (a real database underneath). */
function counting(inner: Database): { db: Database; rows: () => number; reset: () => void } {
  let rows = 0;
  const query = Object.assign(
    async <T>(strings: TemplateStringsArray, ...values: unknown[]) => {
      const result = await inner.query<T>(strings, ...values);
      rows += result.length;
      return result;
    },
    { unsafe: inner.query.unsafe },
  ) as Query;
  return {
    db: { ...inner, query },
    rows: () => rows,
    reset: () => {
      rows = 0;
    },
  };
}

describe('a public render', () => {
  test('reads as many rows at 2 000 pages as at 50, with no navigation chosen or three', async () => {
    const counted = counting(db);
    const store = createContentStore(counted.db);
    const slug = generatedSlug('gen', 10);
    // What the public layout and a page read (src/pages/(site)/_layout.tsx, [slug].tsx).
    const render = async () => {
      counted.reset();
      await Promise.all([store.getSiteSettings(), store.navigation()]);
      expect(await store.getPage(slug, { draft: false })).not.toBeNull();
      return counted.rows();
    };
    const settings = await store.getSiteSettings();
    const choose = (navigation: number[] | null) =>
      store.saveSiteSettings({ ...settings, navigation });
    const { firstId } = await insertPublishedPages(db, 50);
    const chosen = [firstId + 2, firstId, firstId + 40];
    const none = await render();
    await choose(chosen);
    const three = await render();
    // The three pages, and the stored choice (read by the layout and by the header).
    expect(three).toBeLessThanOrEqual(none + chosen.length + 2);
    expect((await store.navigation()).map((link) => link.slug)).toEqual([
      generatedSlug('gen', 3),
      generatedSlug('gen', 1),
      generatedSlug('gen', 41),
    ]);

    await insertPublishedPages(db, 1_950, { prefix: 'more' });
    expect(await render()).toBe(three);
    await choose(null);
    expect(await render()).toBe(none);
    // No navigation chosen: the header has no links (the site's name leads home).
    expect(await store.navigation()).toEqual([]);
  });
});
