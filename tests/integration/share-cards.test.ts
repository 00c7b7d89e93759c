// Pages that look right where they are shared (issue 27): the Open Graph and Twitter tags, the
// share image (a page's first image, else a card drawn from its published title), the card at
// its /media/ address for the current published revision only, and the JSON-LD, read from the
// HTML a server sends, as a crawler reads it.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import sharp from 'sharp';
import { addEditor } from '../../src/lib/editors/accounts';
import { processImage } from '../../src/lib/media/images';
import { createMediaStore } from '../../src/lib/media/media';
import { cardKey } from '../../src/lib/social-card/card-address';
import { formWithButton, signInWithForm, submitForm } from '../forms';
import { type RunningFolio, startFolio, withStore } from '../harness';

const SITE_URL = 'https://folio.example';
const EDITOR = 'cards@example.com';
let folio: RunningFolio;

beforeAll(async () => {
  folio = await startFolio({ env: { SITE_URL } });
}, 60_000);
afterAll(async () => {
  await folio?.stop();
});

const html = async (path: string) => {
  const response = await fetch(`${folio.url}${path}`);
  expect(response.status).toBe(200);
  return response.text();
};

/** The content of each `<meta property|name=…>` in the page, by its name. */
function metaOf(page: string): Map<string, string> {
  const found = new Map<string, string>();
  for (const [, name = '', content = ''] of page.matchAll(
    /<meta (?:property|name)="([^"]+)" content="([^"]*)"\/>/g,
  ))
    found.set(name, content.replace(/&amp;/g, '&').replace(/&quot;/g, '"'));
  return found;
}

/** Every JSON-LD block, parsed. */
function jsonLdOf(page: string): Record<string, unknown>[] {
  return [...page.matchAll(/<script type="application\/ld\+json">([^<]*)<\/script>/g)].map(
    ([, text = '']) => JSON.parse(text) as Record<string, unknown>,
  );
}

const byType = (blocks: Record<string, unknown>[], type: string) =>
  blocks.find((block) => block['@type'] === type);

/** The width and height in a PNG's IHDR chunk (bytes 16–23), after its signature. */
function pngSize(bytes: Uint8Array): { width: number; height: number } {
  expect([...bytes.slice(0, 8)]).toEqual([137, 80, 78, 71, 13, 10, 26, 10]);
  expect(new TextDecoder().decode(bytes.slice(12, 16))).toBe('IHDR');
  const view = new DataView(bytes.buffer, bytes.byteOffset);
  return { width: view.getUint32(16), height: view.getUint32(20) };
}

async function publishPage(slug: string, title: string, body = 'Some words.') {
  await withStore(folio, async (store) => {
    const page = await store.getPage(slug, { draft: true });
    const saved = await store.saveDraft(
      {
        slug,
        title,
        summary: `About ${slug}`,
        body,
        expectedVersion: page?.version ?? null,
        editor: EDITOR,
      },
      { publish: true },
    );
    expect(saved.ok).toBe(true);
  });
}

describe('a page with no image of its own', () => {
  test('is shared with a generated card, 1200×630, named absolutely under SITE_URL', async () => {
    await publishPage('plain-card', 'Plain card');
    const page = await html('/plain-card');
    const meta = metaOf(page);
    expect(meta.get('twitter:card')).toBe('summary_large_image');
    expect(meta.get('og:image:width')).toBe('1200');
    expect(meta.get('og:image:height')).toBe('630');
    expect(meta.get('og:image:alt')).toBe('Plain card');
    const image = meta.get('og:image') ?? '';
    expect(image).toMatch(/^https:\/\/folio\.example\/media\/[0-9a-f]{32}\/card-\d+\.png$/);

    const card = await fetch(`${folio.url}${new URL(image).pathname}`);
    expect(card.status).toBe(200);
    expect(card.headers.get('content-type')).toBe('image/png');
    expect(card.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const etag = card.headers.get('etag') ?? '';
    expect(pngSize(new Uint8Array(await card.arrayBuffer()))).toEqual({ width: 1200, height: 630 });
    // A copy the client holds is current while the card is.
    const again = await fetch(`${folio.url}${new URL(image).pathname}`, {
      headers: { 'if-none-match': etag },
    });
    expect(again.status).toBe(304);
  });

  test('an old revision’s card, a draft-only page’s, an unknown page’s: 404', async () => {
    await publishPage('moving-card', 'First title');
    const first = new URL(metaOf(await html('/moving-card')).get('og:image') ?? '').pathname;
    expect((await fetch(`${folio.url}${first}`)).status).toBe(200);
    await publishPage('moving-card', 'Second title');
    const second = new URL(metaOf(await html('/moving-card')).get('og:image') ?? '').pathname;
    expect(second).not.toBe(first);
    expect((await fetch(`${folio.url}${first}`)).status).toBe(404);
    expect((await fetch(`${folio.url}${second}`)).status).toBe(200);

    // A draft-only page: the key it would have if its draft were published answers nothing.
    const draft = await withStore(folio, async (store) => {
      const saved = await store.saveDraft({
        slug: 'draft-card',
        title: 'Secret draft',
        summary: '',
        body: 'Not yet.',
        expectedVersion: null,
        editor: EDITOR,
      });
      if (!saved.ok) throw new Error('not saved');
      const page = await store.getPage('draft-card', { draft: true });
      const settings = await store.getSiteSettings();
      return { page, settings };
    });
    const id = draft.page?.id ?? 0;
    const guessed = cardKey({
      pageId: id,
      publishedAt: draft.page?.updatedAt ?? '',
      title: 'Secret draft',
      siteTitle: draft.settings.title,
      accent: draft.settings.accent,
    });
    const drafts = await fetch(`${folio.url}/media/${guessed}/card-${id}.png`);
    expect(drafts.status).toBe(404);
    expect(drafts.headers.get('cache-control')).toBe('no-store');
    expect((await fetch(`${folio.url}/media/${guessed}/card-999999.png`)).status).toBe(404);
    expect((await fetch(`${folio.url}/media/${'0'.repeat(32)}/card-1.png`)).status).toBe(404);
    for (const name of [
      'card-0.png',
      'card-9999999999999999.png',
      'card-2147483648.png',
      'card-1.PNG',
    ])
      expect((await fetch(`${folio.url}/media/${'0'.repeat(32)}/${name}`)).status).toBe(404);
  });

  test('a long title, emoji, right-to-left and CJK text still make a card', async () => {
    const titles = [
      `${'A long title that goes on '.repeat(8)}`.slice(0, 200),
      'Launch day 🚀🎉 👩‍👩‍👧',
      'مرحبا بالعالم — שלום עולם',
      '日本語のタイトルと中文标题',
    ];
    for (const [index, title] of titles.entries()) {
      await publishPage(`hostile-card-${index}`, title);
      const image = metaOf(await html(`/hostile-card-${index}`)).get('og:image') ?? '';
      const card = await fetch(`${folio.url}${new URL(image).pathname}`);
      expect(card.status).toBe(200);
      expect(pngSize(new Uint8Array(await card.arrayBuffer()))).toEqual({
        width: 1200,
        height: 630,
      });
    }
    expect(folio.unexpectedErrors()).toEqual([]);
  }, 60_000);
});

describe('a page that shows an uploaded image', () => {
  test('is shared with its first image, its size and alt text', async () => {
    const png = await sharp({
      create: { width: 640, height: 400, channels: 3, background: '#3366aa' },
    })
      .png()
      .toBuffer();
    const item = await createMediaStore(await folio.database()).add(
      await processImage(new Uint8Array(png)),
      { alt: 'A blue "field" & sky', filename: 'blue.png', editor: EDITOR },
    );
    await publishPage(
      'with-image',
      'With an image',
      `Text.\n\n![A blue field](/media/${item.hash})`,
    );
    const meta = metaOf(await html('/with-image'));
    expect(meta.get('og:image')).toBe(`${SITE_URL}/media/${item.hash}/original.png`);
    expect(meta.get('og:image:width')).toBe('640');
    expect(meta.get('og:image:height')).toBe('400');
    expect(meta.get('og:image:alt')).toBe('A blue field');
    expect(meta.get('twitter:card')).toBe('summary_large_image');
  });
});

describe('JSON-LD', () => {
  test('a page is an Article with its dates and publisher, under a BreadcrumbList', async () => {
    await publishPage('ld-article', 'Structured');
    await publishPage('ld-article', 'Structured, again');
    const page = await withStore(folio, (store) => store.getPage('ld-article', { draft: false }));
    const blocks = jsonLdOf(await html('/ld-article'));
    const article = byType(blocks, 'Article');
    expect(article).toMatchObject({
      '@context': 'https://schema.org',
      headline: 'Structured, again',
      url: `${SITE_URL}/ld-article`,
      datePublished: page?.firstPublishedAt,
      dateModified: page?.publishedAt,
      publisher: { '@type': 'Organization', name: 'Folio' },
    });
    expect(article?.datePublished).not.toBe(article?.dateModified);
    expect(String(article?.image)).toMatch(/^https:\/\/folio\.example\/media\//);
    expect(byType(blocks, 'BreadcrumbList')).toMatchObject({
      itemListElement: [
        { position: 1, name: 'Folio', item: `${SITE_URL}/` },
        { position: 2, name: 'Structured, again', item: `${SITE_URL}/ld-article` },
      ],
    });
  });

  test('the home page is the WebSite, with its search action', async () => {
    const blocks = jsonLdOf(await html('/'));
    expect(byType(blocks, 'WebSite')).toMatchObject({
      name: 'Folio',
      url: `${SITE_URL}/`,
      potentialAction: {
        '@type': 'SearchAction',
        target: `${SITE_URL}/?q={search_term_string}`,
        'query-input': 'required name=search_term_string',
      },
    });
    expect(byType(blocks, 'Article')).toBeUndefined();
  });

  test('a title with </script> cannot end the script it is in', async () => {
    const title = '</script><script>alert(1)</script><!-- & the end';
    await publishPage('ld-hostile', title);
    const page = await html('/ld-hostile');
    // Each block is read up to the first </script>, as a browser does: had the title ended
    // the element, the block would be cut short and not parse.
    const blocks = [...page.matchAll(/<script type="application\/ld\+json">(.*?)<\/script>/gs)];
    expect(blocks).toHaveLength(2);
    for (const [, text = ''] of blocks) expect(text).not.toMatch(/[<>]/);
    expect(byType(jsonLdOf(page), 'Article')?.headline).toBe(title);
    // No element the title made: the page's only plain <script>s are Folio's own.
    expect(page).not.toContain('<script>alert(1)</script>');
  });
});

describe('the site’s language and accent colour', () => {
  test('reach <html lang>, og:locale, the stylesheet and the card’s address', async () => {
    const before = metaOf(await html('/about')).get('og:image');
    await withStore(folio, async (store) => {
      const settings = await store.getSiteSettings();
      await store.saveSiteSettings({ ...settings, language: 'en-gb', accent: '#AA3300' });
    });
    const page = await html('/about');
    expect(page).toContain('<html lang="en-GB"');
    const meta = metaOf(page);
    expect(meta.get('og:locale')).toBe('en_GB');
    expect(page).toContain('--accent:#aa3300');
    // The card shows the accent: a new address, and the old one is gone.
    expect(meta.get('og:image')).not.toBe(before);
    expect((await fetch(`${folio.url}${new URL(before ?? '').pathname}`)).status).toBe(404);
    expect(
      (await fetch(`${folio.url}${new URL(meta.get('og:image') ?? '').pathname}`)).status,
    ).toBe(200);
    await withStore(folio, async (store) => {
      const settings = await store.getSiteSettings();
      await store.saveSiteSettings({ ...settings, language: 'en', accent: '#1f5fbf' });
    });
    const reset = await html('/about');
    expect(reset).toContain('<html lang="en"');
    expect(metaOf(reset).has('og:locale')).toBe(false);
    expect(metaOf(reset).get('og:image')).toBe(before);
  });
});

describe('the settings form', () => {
  test('refuses a bad colour or language with 422 and its reason, keeping what was typed', async () => {
    await addEditor(await folio.database(), EDITOR, 'a long enough passphrase');
    const { cookie } = await signInWithForm(folio.url, EDITOR, 'a long enough passphrase');
    const before = await withStore(folio, (store) => store.getSiteSettings());
    const post = async (set: Record<string, string>) => {
      const screen = await fetch(`${folio.url}/preview?settings`, { headers: { cookie } });
      const form = await formWithButton(await screen.text(), 'Save settings');
      return submitForm(`${folio.url}/preview?settings`, form, { cookie, set });
    };
    try {
      const colour = await post({ accent: '#12345g', tagline: 'Typed tagline' });
      expect(colour.status).toBe(422);
      const colourAnswer = await colour.text();
      expect(colourAnswer).toContain('Give the accent colour as # and six hexadecimal digits');
      expect(colourAnswer).toContain('#12345g');
      expect(colourAnswer).toContain('Typed tagline');

      const language = await post({ language: 'english please', footer: 'Typed footer' });
      expect(language.status).toBe(422);
      const languageAnswer = await language.text();
      expect(languageAnswer).toContain('Use a language tag such as en, en-GB or pt-BR.');
      expect(languageAnswer).toContain('english please');
      expect(languageAnswer).toContain('Typed footer');

      for (const field of ['social_image', 'favicon']) {
        const unknownImage = await post({ [field]: `/media/${'a'.repeat(32)}` });
        expect(unknownImage.status).toBe(422);
        expect(await unknownImage.text()).toContain('not in the media library');
      }
      // Nothing was saved by any of them.
      expect(await withStore(folio, (store) => store.getSiteSettings())).toEqual(before);

      // A default social image from the library stands for pages without one of their own.
      const png = await sharp({
        create: { width: 1200, height: 700, channels: 3, background: '#aa6633' },
      })
        .jpeg()
        .toBuffer();
      const item = await createMediaStore(await folio.database()).add(
        await processImage(new Uint8Array(png)),
        { alt: 'The site in brown', filename: 'brown.jpg', editor: EDITOR },
      );
      const saved = await post({
        language: 'pt-br',
        accent: '#AA0000',
        social_image: `/media/${item.hash}`,
        favicon: `${SITE_URL}/media/${item.hash}/original.jpg`,
      });
      expect(saved.status).toBe(303);
      expect(await withStore(folio, (store) => store.getSiteSettings())).toMatchObject({
        language: 'pt-BR',
        accent: '#aa0000',
        socialImage: item.hash,
        favicon: item.hash,
      });
      const contact = await html('/contact');
      expect(contact).toContain(`<link rel="icon" href="/media/${item.hash}"/>`);
      expect(contact).not.toContain('/favicon.svg');
      const meta = metaOf(contact);
      expect(meta.get('og:image')).toBe(`${SITE_URL}/media/${item.hash}/original.jpg`);
      expect(meta.get('og:image:width')).toBe('1200');
      expect(meta.get('og:image:alt')).toBe('The site in brown');
      expect(meta.get('og:locale')).toBe('pt_BR');
    } finally {
      await withStore(folio, (store) => store.saveSiteSettings(before));
    }
  });
});
