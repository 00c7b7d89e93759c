// The editors' screens on a site of 2 000 pages (issue 25), against a server started as the
// README starts it: the dashboard, the settings and the media library weigh a bounded size
// whatever the site's size (they read one page of rows, never every page), their pagers and
// searches are plain GET addresses (no JavaScript needed), and the menus' page picker searches
// instead of listing.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { addEditor } from '../../src/lib/editors/accounts';
import { TEST_ENGINE } from '../databases';
import { signInWithForm } from '../forms';
import { type RunningFolio, startFolio, withStore } from '../harness';

const EDITOR = { email: 'scale@example.com', password: 'the scale passphrase' };
const PAGES = 2_000;
/** The issue's bound for an editor's screen at 100 000 pages. */
const MAX_BYTES = 200 * 1024;

let folio: RunningFolio;
let cookie = '';

beforeAll(async () => {
  folio = await startFolio();
  await addEditor(await folio.database(), EDITOR.email, EDITOR.password);
  cookie = (await signInWithForm(folio.url, EDITOR.email, EDITOR.password)).cookie;
  await withStore(folio, (store) =>
    store.putPages(
      Array.from({ length: PAGES }, (_, i) => ({
        slug: `bulk-${String(i).padStart(4, '0')}`,
        title: `Bulk page ${i}`,
        summary: `Summary ${i}`,
        body: `A body for page ${i}, with ${i % 100 === 7 ? 'zanzibar' : 'ordinary'} words.`,
        publish: i % 3 !== 0,
      })),
    ),
  );
}, 180_000);

afterAll(async () => {
  await folio?.stop();
});

async function screen(pathname: string): Promise<string> {
  const response = await fetch(`${folio.url}${pathname}`, { headers: { cookie } });
  expect(response.status, pathname).toBe(200);
  return response.text();
}

const rowsIn = (html: string) =>
  [...html.matchAll(/<tr><td><a href="\/preview\/([a-z0-9-]+)"/g)].map((m) => m[1]);
const linkIn = (html: string, text: string) =>
  html
    .match(new RegExp(`<a href="([^"]+)" rel="(?:next|prev)">${text}</a>`))?.[1]
    ?.replaceAll('&amp;', '&');

describe(`editors' screens at ${PAGES} pages on ${TEST_ENGINE}`, () => {
  test('the dashboard shows one page of rows, bounded in size, and pages through GET links', async () => {
    const first = await screen('/preview');
    expect(first.length).toBeLessThan(MAX_BYTES);
    const rows = rowsIn(first);
    expect(rows).toHaveLength(50);
    // Every page is counted (the seed's and the bulk), though only 50 are read.
    expect(Number(first.match(/>(\d+) pages</)?.[1])).toBeGreaterThan(PAGES);
    const older = linkIn(first, 'Older');
    if (!older) throw new Error('no "Older" link');
    const second = await screen(older);
    const secondRows = rowsIn(second);
    expect(secondRows).toHaveLength(50);
    expect(secondRows.some((slug) => rows.includes(slug))).toBe(false);
    const newer = linkIn(second, 'Newer');
    if (!newer) throw new Error('no "Newer" link');
    expect(rowsIn(await screen(newer))).toEqual(rows);
  });

  test('search, filter and sort narrow in SQL and keep their place across pages', async () => {
    const found = await screen('/preview?q=zanzibar');
    expect(rowsIn(found).sort()).toEqual(
      Array.from({ length: PAGES / 100 }, (_, i) => `bulk-${String(i * 100 + 7).padStart(4, '0')}`),
    );
    expect(found).toContain(`${PAGES / 100} of`);
    const drafts = await screen('/preview?state=draft-only&sort=title');
    const draftRows = rowsIn(drafts);
    expect(draftRows).toHaveLength(50);
    expect(drafts).toContain('data-state="draft-only"');
    expect(drafts).not.toContain('data-state="published"');
    const next = linkIn(drafts, 'Next page');
    if (!next) throw new Error('no "Next page" link');
    expect(next).toContain('state=draft-only');
    expect(next).toContain('sort=title');
    expect(rowsIn(await screen(next))).toHaveLength(50);
  });

  test('the menus screen offers a bounded search, not every page', async () => {
    const menus = await screen('/preview?navigation');
    expect(menus.length).toBeLessThan(MAX_BYTES);
    expect(menus).toContain('name="find"');
    expect(menus.match(/value="add-page:header:/g)?.length ?? 0).toBeLessThanOrEqual(40);
    const found = await screen('/preview?navigation=&find=zanzibar');
    const offered = [...found.matchAll(/<code>\/(?:<!-- -->)?(bulk-\d+)<\/code>/g)].map(
      (m) => m[1],
    );
    expect(offered.length).toBeGreaterThan(0);
    for (const slug of offered) expect(Number(slug?.slice(5)) % 100).toBe(7);
  });
});

const IMAGES = 130;
/** The page's text: no tags, no React's text separators. */
const plain = (html: string) => html.replaceAll('<!-- -->', '').replace(/<[^>]+>/g, '');
const imagesIn = (html: string) =>
  [...html.matchAll(/<code class="markdown-snippet">!\[[^\]]*\]\(\/media\/([0-9a-f]{32})\)/g)].map(
    (m) => m[1],
  );

describe(`the media library at ${PAGES} pages and ${IMAGES} images on ${TEST_ENGINE}`, () => {
  test('shows 40 images a page, bounded in size, with their use, paged and searched by GET', async () => {
    const db = await folio.database();
    const hashOf = (i: number) => i.toString(16).padStart(32, '0');
    await db.transaction(async (q) => {
      for (let i = 0; i < IMAGES; i++)
        await q`INSERT INTO media (hash, filename, alt, format, width, height, bytes, created_at)
                VALUES (${hashOf(i)}, ${`photo-${i}.jpg`},
                        ${i % 50 === 7 ? 'A wombat asleep' : `Photograph ${i}`}, 'jpeg', 40, 30,
                        100, ${new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString()})`;
    });
    // The newest image on 60 published pages and a draft; the import's allowance lets pages name
    // images that have no bytes here (the list reads only their rows).
    await withStore(folio, (store) =>
      store.putPages(
        Array.from({ length: 61 }, (_, i) => ({
          slug: `pictured-${i}`,
          title: `Pictured ${i}`,
          summary: '',
          body: `![x](/media/${hashOf(IMAGES - 1)})`,
          publish: i > 0,
        })),
        { allowMissingMedia: true },
      ),
    );
    const first = await screen('/preview?media');
    expect(first.length).toBeLessThan(MAX_BYTES);
    const shown = imagesIn(first);
    expect(shown).toHaveLength(40);
    expect(shown[0]).toBe(hashOf(IMAGES - 1));
    expect(first).toContain(`${IMAGES} images`);
    expect(plain(first)).toContain(
      'Used on 61 pages: /pictured-0 (draft), /pictured-1 (published), /pictured-2 (published) and 58 more',
    );
    expect(first).toContain('Not used on any page.');
    const earlier = linkIn(first, 'Earlier');
    if (!earlier) throw new Error('no "Earlier" link');
    const second = await screen(earlier);
    const secondShown = imagesIn(second);
    expect(secondShown).toHaveLength(40);
    expect(secondShown.some((hash) => shown.includes(hash))).toBe(false);
    const newer = linkIn(second, 'Newer');
    if (!newer) throw new Error('no "Newer" link');
    expect(imagesIn(await screen(newer))).toEqual(shown);
    const wombats = await screen('/preview?media&q=wombat');
    expect(imagesIn(wombats).sort()).toEqual([7, 57, 107].map(hashOf).sort());
    expect(plain(wombats)).toContain('3 of 130 images');
  });

  // Hostile pass: a hand-made cursor holding a NUL was a 500 on PostgreSQL (it refuses NUL in
  // a parameter); a lone surrogate is not UTF-8 either. Both are no cursor: the first page.
  test('a cursor holding a control character or a lone surrogate is the first page, never a 500', async () => {
    const cursor = (value: unknown[]) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const first = rowsIn(await screen('/preview'));
    for (const pathname of [
      `/preview?after=${cursor(['2026-11-26T09:25:33.712Z', '\u0000'])}`,
      `/preview?sort=title&before=${cursor(['a\u0000', 'b'])}`,
      `/preview?after=${cursor(['2026-11-26T09:25:33.712Z', '\ud800'])}`,
    ])
      expect(rowsIn(await screen(pathname)), pathname).toEqual(
        pathname.includes('sort=title') ? rowsIn(await screen('/preview?sort=title')) : first,
      );
    await screen(`/preview?media&after=${cursor(['2026-11-26T09:35:14.885Z\u0000', 32])}`);
    expect(folio.unexpectedErrors()).toEqual([]);
  });

  // Hostile pass (issue 26): a cursor past the list's end showed the count over an empty list
  // and a link to every page; it says nothing more is here and leads to the list's first page.
  test('a cursor past the end says the list has nothing more, and leads back to its start', async () => {
    const cursor = (value: unknown[]) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const html = await screen(
      `/preview?state=published&after=${cursor(['1970-01-01T00:00:00.000Z', 'a'])}`,
    );
    expect(rowsIn(html)).toEqual([]);
    expect(plain(html)).toContain('Nothing more in this list. Back to its first page');
    expect(html).toContain('href="/preview?state=published">Back to its first page');
  });

  // Hostile pass: a search of only punctuation or emoji was dropped without a word.
  test('a search with no word in it says so, and lists every page or image', async () => {
    const pages = plain(await screen(`/preview?q=${encodeURIComponent('😀 (^)')}`));
    expect(pages).toContain('search looks for words and numbers, and “😀 (^)” has none');
    const images = plain(await screen('/preview?media&q=*'));
    expect(images).toContain('search looks for words and numbers, and “*” has none');
    expect(plain(await screen('/preview?q=wombat'))).not.toContain('has none');
  });
});
