// Issue 25, what visitors ask for on a site of many pages, against the server as the README
// starts it, on a site of 1 000 generated pages (what `folio import` leaves: no navigation
// chosen, no demo content). Each test failed before its fix.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { openDatabase } from '../../src/lib/data/db';
import { createThrowAwayDatabase, type ThrowAwayDatabase } from '../databases';
import { generatedSlug, insertPublishedPages } from '../generated-site';
import { type RunningFolio, startFolio, withStore } from '../harness';
import { xmlProblem } from '../xml-check';

const PAGES = 1_000;
// One public origin for the server and its successor (each on a port of its own): a file's tag
// names the origin it was built for.
const SERVER_ENV = { SITE_URL: 'https://folio.example' };
let made: ThrowAwayDatabase;
let folio: RunningFolio;
let firstId = 0;

beforeAll(async () => {
  made = await createThrowAwayDatabase();
  const db = await openDatabase(made.url);
  ({ firstId } = await insertPublishedPages(db, PAGES));
  await db.close();
  folio = await startFolio({ database: made, keepDatabase: true, env: SERVER_ENV });
}, 90_000);
afterAll(async () => {
  await folio?.stop();
  await made?.drop();
});

const get = (path: string, headers: Record<string, string> = {}) =>
  fetch(`${folio.url}${path}`, { headers, redirect: 'manual' });

/** The hrefs of the public header's links. */
function headerLinks(html: string): string[] {
  const nav = /<nav aria-label="Site"[\s\S]*?<\/nav>/.exec(html)?.[0] ?? '';
  return [...nav.matchAll(/href="([^"]*)"/g)].map((m) => m[1] ?? '');
}

describe('the header', () => {
  test('with no navigation chosen it links the home page only, not every page', async () => {
    const response = await get(`/${generatedSlug('gen', 500)}`);
    expect(response.status).toBe(200);
    const html = await response.text();
    // It linked all 1 000 pages: 428 KB of HTML for a page of 1.5 KB.
    expect(headerLinks(html)).toEqual(['/']);
    expect(html.length).toBeLessThan(60_000);
  });

  test('with pages chosen it links those, in their order', async () => {
    const chosen = [firstId + 9, firstId + 1];
    await withStore(folio, async (store) => {
      const settings = await store.getSiteSettings();
      await store.saveSiteSettings({ ...settings, navigation: chosen });
    });
    try {
      const html = await (await get(`/${generatedSlug('gen', 500)}`)).text();
      // The site's name, the row of links (a phone's folded menu repeats them past four).
      expect(headerLinks(html)).toEqual(['/', '/gen-000010', '/gen-000002']);
    } finally {
      await withStore(folio, async (store) => {
        const settings = await store.getSiteSettings();
        await store.saveSiteSettings({ ...settings, navigation: null });
      });
    }
  });
});

describe('sitemap', () => {
  test('lists every published page in one file; a part past it, or junk, is a 404', async () => {
    const response = await get('/sitemap.xml');
    expect(response.status).toBe(200);
    const xml = await response.text();
    expect(xmlProblem(xml)).toBeNull();
    expect(xml.match(/<url>/g)).toHaveLength(PAGES);
    const first = await get('/sitemap.xml?page=1');
    expect(first.status).toBe(200);
    expect((await first.text()).match(/<url>/g)).toHaveLength(PAGES);
    for (const path of ['/sitemap.xml?page=2', '/sitemap.xml?page=x', '/sitemap.xml?page=0']) {
      const missing = await get(path);
      expect(missing.status, path).toBe(404);
      await missing.arrayBuffer();
    }
    expect(folio.unexpectedErrors()).toEqual([]);
  });
});

describe('feed and sitemap', () => {
  test('are built once per content version, and a current copy gets a 304 before any read', async () => {
    const feed = await get('/feed.xml');
    const feedBody = await feed.text();
    const feedTag = feed.headers.get('etag') ?? '';
    const sitemap = await get('/sitemap.xml');
    const sitemapBody = await sitemap.text();
    const sitemapTag = sitemap.headers.get('etag') ?? '';
    expect(feedBody).toContain('<entry>');
    // The pages move out of reach without a new content version: whatever needs a
    // read from now on fails.
    const db = await folio.database();
    await db.query.unsafe('ALTER TABLE pages RENAME TO pages_away');
    // The sitemap index counts from page_counts (what the triggers keep): out of reach too.
    await db.query.unsafe('ALTER TABLE page_counts RENAME TO page_counts_away');
    try {
      const again = await get('/feed.xml');
      expect(again.status).toBe(200);
      expect(await again.text()).toBe(feedBody);
      expect(await (await get('/sitemap.xml')).text()).toBe(sitemapBody);
      expect((await get('/feed.xml', { 'if-none-match': feedTag })).status).toBe(304);
      // A file never asked for needs the database, and fails: the answers above read nothing.
      const unbuilt = await get('/sitemap.xml?page=3');
      expect(unbuilt.status).toBe(500);
      await unbuilt.arrayBuffer();

      // A new process has nothing in memory, and still answers a current copy with a 304.
      await folio.stop();
      folio = await startFolio({ database: made, keepDatabase: true, env: SERVER_ENV });
      for (const [path, tag] of [
        ['/feed.xml', feedTag],
        ['/sitemap.xml', sitemapTag],
      ] as const) {
        const current = await get(path, { 'if-none-match': tag });
        expect(current.status, path).toBe(304);
        expect(current.headers.get('cache-control'), path).toContain('public');
        const plain = await get(path);
        expect(plain.status, path).toBe(500);
        await plain.arrayBuffer();
      }
    } finally {
      const again = await folio.database();
      await again.query.unsafe('ALTER TABLE pages_away RENAME TO pages');
      await again.query.unsafe('ALTER TABLE page_counts_away RENAME TO page_counts');
    }
    const restored = await get('/feed.xml');
    expect(restored.headers.get('etag')).toBe(feedTag);
    expect(await restored.text()).toBe(feedBody);
  }, 90_000);
});
