// The editors' screens on a site of 2 000 pages (issue 25), against a server started as the
// README starts it: the dashboard and the settings weigh a bounded size whatever the site's
// size (they read one page of rows, never every page), its pager and search are plain GET
// addresses (no JavaScript needed), and the navigation picker searches instead of listing.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { addEditor } from '../../src/lib/editors/accounts';
import { TEST_ENGINE } from '../databases';
import { signInWithForm } from '../forms';
import { type RunningFolio, startFolio, withStore } from '../harness';

const EDITOR = { email: 'scale@example.com', password: 'the scale passphrase' };
const PAGES = 2_000;
/** The bound for an editor's screen at 100 000 pages. */
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

  test('site settings offer a bounded search, not every page', async () => {
    const settings = await screen('/preview?settings');
    expect(settings.length).toBeLessThan(MAX_BYTES);
    expect(settings).toContain('name="find"');
    expect(settings.match(/name="navigation"/g)?.length ?? 0).toBeLessThanOrEqual(40);
    const found = await screen('/preview?settings=&find=zanzibar');
    const offered = [...found.matchAll(/<code>\/(?:<!-- -->)?(bulk-\d+)<\/code>/g)].map(
      (m) => m[1],
    );
    expect(offered.length).toBeGreaterThan(0);
    for (const slug of offered) expect(Number(slug?.slice(5)) % 100).toBe(7);
  });
});
