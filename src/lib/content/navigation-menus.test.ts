// The menus (issue 27): what an external link may be, how stored menus read back (issue 25's
// lists of ids included, and what migration 20 makes of them), what a save takes and refuses,
// what visitors' menus hold, and which pages' writes change every page.
import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { openTestDatabase } from '../../../tests/databases';
import { migration020 } from '../data/migrations/020-navigation-menus';
import { type ContentStore, createContentStore, isContentError } from './content';
import { linkProblem, parseMenu } from './navigation-menus';
import { menuPagesIn } from './settings';

describe('external links', () => {
  test('http, https and mailto addresses are taken', () => {
    for (const url of [
      'https://example.com',
      'https://example.com/a/b?c=d#e',
      'http://example.org:8080/',
      'mailto:editor@example.com',
      'mailto:editor@example.com?subject=Hello',
    ])
      expect(linkProblem(url), url).toBeNull();
  });

  test('scripts, data, other schemes and relative addresses are refused, in words', () => {
    for (const [url, words] of [
      ['javascript:alert(1)', 'not javascript:'],
      ['JavaScript:alert(1)', 'not javascript:'],
      ['data:text/html,<script>alert(1)</script>', 'not data:'],
      ['vbscript:msgbox', 'not vbscript:'],
      ['ftp://example.com/file', 'not ftp:'],
      ['/about', 'is not a whole address'],
      ['example.com', 'is not a whole address'],
      ['//example.com/x', 'is not a whole address'],
      ['mailto:', 'names no e-mail address'],
      ['mailto:nobody', 'names no e-mail address'],
      ['https://exa mple.com', 'is not a whole address'],
      ['', 'Give the link an address'],
      [`https://example.com/${'a'.repeat(2_000)}`, 'at most 2000 characters'],
    ] as const)
      expect(linkProblem(url), url).toContain(words);
  });
});

describe('stored menus', () => {
  test('issue 25’s list of ids reads as those pages, under their titles', () => {
    expect(parseMenu('[3,1,2]')).toEqual([{ page: 3 }, { page: 1 }, { page: 2 }]);
  });

  test('entries read back; what is neither a page nor a safe link is left out', () => {
    expect(
      parseMenu(
        JSON.stringify([
          { page: 4, label: 'Our team' },
          { url: 'https://example.com', label: 'Elsewhere' },
          { url: 'javascript:alert(1)', label: 'Bad' },
          { page: -1 },
          'junk',
          { page: 5, label: '' },
        ]),
      ),
    ).toEqual([
      { page: 4, label: 'Our team' },
      { url: 'https://example.com', label: 'Elsewhere' },
      { page: 5 },
    ]);
    expect(parseMenu('not json')).toBeNull();
    expect(parseMenu('{"page":1}')).toBeNull();
    expect(parseMenu(undefined)).toBeNull();
  });
});

let db: Awaited<ReturnType<typeof openTestDatabase>>;
let store: ContentStore;

async function refusal(work: () => Promise<unknown>): Promise<string> {
  try {
    await work();
  } catch (error) {
    if (isContentError(error) && error.code === 'invalid') return error.message;
    throw error;
  }
  throw new Error('not refused');
}

describe('menus in the store', () => {
  beforeEach(async () => {
    db = await openTestDatabase();
    store = createContentStore(db);
  });
  afterEach(async () => {
    await db.dispose();
  });

  async function publish(slug: string, title: string): Promise<number> {
    await store.putPage({ slug, title, summary: '', body: 'Text.' }, { publish: true });
    const page = await store.getPage(slug, { draft: true });
    if (!page) throw new Error('not saved');
    return page.id;
  }

  test('migration 20 makes issue 25’s list of ids into page entries, in the same order', async () => {
    await db.query`INSERT INTO settings (key, value) VALUES ('site_navigation', '[7,3,"x",-2,5]')
      ON CONFLICT (key) DO UPDATE SET value = excluded.value`;
    await db.transaction((q) => migration020.backfill?.(q, db.engine) ?? Promise.resolve());
    const [row] = await db.query<{ value: string }>`
      SELECT value FROM settings WHERE key = 'site_navigation'`;
    expect(JSON.parse(row?.value ?? '')).toEqual([{ page: 7 }, { page: 3 }, { page: 5 }]);
    // Run again (a database that ran it): the entries stay as they are.
    await db.transaction((q) => migration020.backfill?.(q, db.engine) ?? Promise.resolve());
    const [again] = await db.query<{ value: string }>`
      SELECT value FROM settings WHERE key = 'site_navigation'`;
    expect(again?.value).toBe(row?.value);
  });

  test('labels, links and order show in both menus; an unpublished page is left out', async () => {
    const about = await publish('about-us', 'About us');
    const team = await publish('team', 'Team');
    const gone = await publish('gone', 'Gone soon');
    const settings = await store.getSiteSettings();
    await store.saveSiteSettings({
      ...settings,
      navigation: [
        { page: team, label: 'Our team' },
        { url: 'https://example.com/shop', label: 'Shop' },
        gone,
        about,
      ],
      footerMenu: [{ url: 'mailto:hello@example.com', label: 'Write to us' }, { page: about }],
    });
    await store.unpublish('gone');
    expect(await store.menus()).toEqual({
      header: [
        { slug: 'team', title: 'Our team', labelled: true },
        { href: 'https://example.com/shop', title: 'Shop' },
        { slug: 'about-us', title: 'About us' },
      ],
      footer: [
        { href: 'mailto:hello@example.com', title: 'Write to us' },
        { slug: 'about-us', title: 'About us' },
      ],
    });
    // Kept as chosen: republished, it is back in its place.
    expect((await store.getSiteSettings()).navigation).toHaveLength(4);
    // A save that leaves the menus out (the settings form) keeps them.
    await store.saveSiteSettings({ title: 'T', tagline: '', footer: '' });
    expect((await store.getSiteSettings()).footerMenu).toHaveLength(2);
    expect((await store.getSiteSettings()).navigation).toHaveLength(4);
  });

  test('a bad link, a missing label, a page twice, too many, a long label: refused, nothing saved', async () => {
    const about = await publish('about-us', 'About us');
    const settings = await store.getSiteSettings();
    const save = (navigation: Parameters<ContentStore['saveSiteSettings']>[0]['navigation']) =>
      store.saveSiteSettings({ ...settings, navigation });
    expect(await refusal(() => save([{ url: 'javascript:alert(1)', label: 'X' }]))).toContain(
      'not javascript:',
    );
    expect(await refusal(() => save([{ url: 'https://example.com', label: '  ' }]))).toBe(
      'Give each link a label.',
    );
    expect(await refusal(() => save([about, { page: about, label: 'Again' }]))).toBe(
      'A page is in the header once at most.',
    );
    expect(
      await refusal(() =>
        save(Array.from({ length: 21 }, (_, i) => ({ url: `https://e.com/${i}`, label: `L${i}` }))),
      ),
    ).toBe('The header holds 20 entries at most.');
    expect(await refusal(() => save([{ page: about, label: 'x'.repeat(61) }]))).toBe(
      'Use labels of at most 60 characters.',
    );
    expect((await store.getSiteSettings()).navigation).toEqual(settings.navigation);
  });

  test('the menus’ pages are the ones whose publish, rename or unpublish changes every page', async () => {
    const inHeader = await publish('in-header', 'In header');
    const inFooter = await publish('in-footer', 'In footer');
    const elsewhere = await publish('elsewhere', 'Elsewhere');
    const settings = await store.getSiteSettings();
    await store.saveSiteSettings({
      ...settings,
      navigation: [{ page: inHeader, label: 'Labelled' }],
      footerMenu: [inFooter],
    });
    const pages = await db.transaction((q) => menuPagesIn(q));
    expect(pages).toContain(inHeader);
    expect(pages).toContain(inFooter);
    expect(pages).not.toContain(elsewhere);
  });

  test('the settings version moves with a menu’s change, so a stale tab is refused', async () => {
    const before = await store.getSiteSettings();
    const { settingsVersion } = await import('./settings');
    const version = settingsVersion(before);
    await store.saveSiteSettings({
      ...before,
      footerMenu: [{ url: 'https://example.com', label: 'Elsewhere' }],
    });
    expect(settingsVersion(await store.getSiteSettings())).not.toBe(version);
    try {
      await store.saveSiteSettings({ ...before, footerMenu: [] }, { version });
      throw new Error('not refused');
    } catch (error) {
      expect(isContentError(error) && error.code).toBe('conflict');
    }
  });
});
