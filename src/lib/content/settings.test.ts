// The site's language, accent colour and default social image (issue 27): validated as they are
// saved, in words an editor can act on, with nothing written when one is refused; left out of a
// save (a form or script from before them), each keeps what is stored.
import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { openTestDatabase } from '../../../tests/databases';
import { type ContentStore, createContentStore, isContentError } from './content';
import { directionOf, ogLocaleOf } from './settings';

let db: Awaited<ReturnType<typeof openTestDatabase>>;
let store: ContentStore;

beforeEach(async () => {
  db = await openTestDatabase();
  store = createContentStore(db);
});
afterEach(async () => {
  await db.dispose();
});

async function refusal(work: () => Promise<unknown>): Promise<string> {
  try {
    await work();
  } catch (error) {
    if (isContentError(error) && error.code === 'invalid') return error.message;
    throw error;
  }
  throw new Error('not refused');
}

describe('site settings: language, accent colour, social image', () => {
  test('a site that never chose reads English and the default accent, and a card', async () => {
    expect(await store.getSiteSettings()).toMatchObject({
      language: 'en',
      accent: '#1f5fbf',
      socialImage: null,
    });
  });

  test('language tags are taken in BCP 47 case; anything else is refused, nothing saved', async () => {
    const settings = await store.getSiteSettings();
    for (const [typed, kept] of [
      ['en-gb', 'en-GB'],
      ['PT-br', 'pt-BR'],
      ['zh-hant-tw', 'zh-Hant-TW'],
      ['es-419', 'es-419'],
      ['de-CH-1996', 'de-CH-1996'],
      ['fr', 'fr'],
    ] as const) {
      await store.saveSiteSettings({ ...settings, language: typed });
      expect((await store.getSiteSettings()).language).toBe(kept);
    }
    for (const bad of [
      '',
      'english',
      'e',
      'en_GB',
      'en-',
      '<script>',
      'x-private',
      `en-${'a'.repeat(40)}`,
    ])
      expect(await refusal(() => store.saveSiteSettings({ ...settings, language: bad }))).toBe(
        'Use a language tag such as en, en-GB or pt-BR.',
      );
    expect((await store.getSiteSettings()).language).toBe('fr');
  });

  test('the accent is #rrggbb, kept in lower case; a bad one is refused with the reason', async () => {
    const settings = await store.getSiteSettings();
    await store.saveSiteSettings({ ...settings, accent: '#AABBCC' });
    expect((await store.getSiteSettings()).accent).toBe('#aabbcc');
    for (const bad of ['red', '#abc', '#12345g', 'aabbcc', '#aabbcc;}body{', ''])
      expect(await refusal(() => store.saveSiteSettings({ ...settings, accent: bad }))).toContain(
        'Give the accent colour as # and six hexadecimal digits',
      );
    expect((await store.getSiteSettings()).accent).toBe('#aabbcc');
  });

  test('the social image must be in the library', async () => {
    const settings = await store.getSiteSettings();
    expect(
      await refusal(() => store.saveSiteSettings({ ...settings, socialImage: 'f'.repeat(32) })),
    ).toBe('That image is not in the media library (any more): choose another.');
    expect(
      await refusal(() => store.saveSiteSettings({ ...settings, socialImage: '../etc/passwd' })),
    ).toBe('Choose the social image from the media library.');
    expect(
      await refusal(() => store.saveSiteSettings({ ...settings, favicon: 'e'.repeat(32) })),
    ).toBe('That image is not in the media library (any more): choose another.');
    expect(
      await refusal(() => store.saveSiteSettings({ ...settings, favicon: 'favicon.ico' })),
    ).toBe('Choose the icon from the media library.');
    expect(await store.getSiteSettings()).toMatchObject({ socialImage: null, favicon: null });
  });

  test('a save that leaves them out keeps them; defaults are not stored', async () => {
    const settings = await store.getSiteSettings();
    await store.saveSiteSettings({ ...settings, language: 'nl', accent: '#008000' });
    const { title, tagline, footer, navigation } = await store.getSiteSettings();
    await store.saveSiteSettings({ title: `${title}!`, tagline, footer, navigation });
    expect(await store.getSiteSettings()).toMatchObject({
      title: `${title}!`,
      language: 'nl',
      accent: '#008000',
    });
    await store.saveSiteSettings({ ...settings, language: 'en', accent: '#1f5fbf' });
    const stored = await db.query<{ key: string }>`
      SELECT key FROM settings WHERE key IN ('site_language', 'site_accent')`;
    expect(stored).toEqual([]);
  });
});

test('og:locale names a language with its territory only', () => {
  expect(ogLocaleOf('en-GB')).toBe('en_GB');
  expect(ogLocaleOf('zh-Hant-TW')).toBe('zh_TW');
  expect(ogLocaleOf('en')).toBeNull();
  expect(ogLocaleOf('es-419')).toBeNull();
});

// Hostile pass of issue 27: a site in Hebrew or Arabic was laid out left to right.
test('a language written right to left makes the document rtl; its script decides if named', () => {
  for (const rtl of ['he', 'ar', 'ar-EG', 'fa', 'ur', 'yi', 'az-Arab', 'ku-Arab'])
    expect(directionOf(rtl), rtl).toBe('rtl');
  for (const ltr of ['en', 'en-GB', 'de', 'ja', 'az', 'az-Latn', 'ku', 'sr-Cyrl'])
    expect(directionOf(ltr), ltr).toBe('ltr');
});
