// A page's search and sharing fields (issue 27) through the editor's form without JavaScript,
// against the server as the README starts it: saved as a draft they change nothing public;
// published, the page's <head> carries its meta title and description, its chosen social image,
// its canonical address and noindex, and the sitemap leaves a hidden page out. Bad input (a
// javascript: canonical, an image too small for a card) is refused in words, the typed values
// kept; a first image too small is skipped for the generated card.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import sharp from 'sharp';
import type { ContentStore } from '../../src/lib/content/content';
import { addEditor } from '../../src/lib/editors/accounts';
import { processImage } from '../../src/lib/media/images';
import { createMediaStore } from '../../src/lib/media/media';
import { formWithButton, type HtmlForm, signInWithForm, submitForm } from '../forms';
import { type RunningFolio, startFolio, withStore } from '../harness';

const SITE_URL = 'https://folio.example';
const EDITOR = { email: 'seo@example.com', password: 'the search passphrase' };

let folio: RunningFolio;
let cookie = '';
let bigImage = '';
let tinyImage = '';

const store = <T>(work: (store: ContentStore) => Promise<T>) => withStore(folio, work);
const get = (path: string, withCookie = true) =>
  fetch(`${folio.url}${path}`, {
    headers: withCookie ? { cookie } : {},
    redirect: 'manual',
  });

/** The public page's HTML, as a crawler (no cookie) reads it. */
async function publicHtml(path: string): Promise<string> {
  const response = await get(path, false);
  expect(response.status).toBe(200);
  return response.text();
}

/** The content of each `<meta property|name=…>` in the page, by its name. */
function metaOf(page: string): Map<string, string> {
  const found = new Map<string, string>();
  for (const [, name = '', content = ''] of page.matchAll(
    /<meta (?:property|name)="([^"]+)" content="([^"]*)"\/>/g,
  ))
    found.set(name, content.replace(/&amp;/g, '&').replace(/&quot;/g, '"'));
  return found;
}

const titleOf = (page: string) => /<title>([^<]*)<\/title>/.exec(page)?.[1];
const canonicalOf = (page: string) => /<link rel="canonical" href="([^"]*)"/.exec(page)?.[1];

async function imageOf(width: number, height: number, alt: string): Promise<string> {
  const png = await sharp({ create: { width, height, channels: 3, background: '#336699' } })
    .png()
    .toBuffer();
  const item = await createMediaStore(await folio.database()).add(
    await processImage(new Uint8Array(png)),
    { alt, filename: `${width}x${height}.png`, editor: EDITOR.email },
  );
  return item.hash;
}

async function editorForm(slug: string): Promise<HtmlForm> {
  const response = await get(`/preview/${slug}?edit`);
  expect(response.status).toBe(200);
  return formWithButton(await response.text(), 'Save draft');
}

const save = (slug: string, form: HtmlForm, set: Record<string, string>) =>
  submitForm(`${folio.url}/preview/${slug}?edit`, form, { cookie, button: 'Save draft', set });

async function sitemap(): Promise<string> {
  const response = await get('/sitemap.xml', false);
  expect(response.status).toBe(200);
  return response.text();
}

beforeAll(async () => {
  folio = await startFolio({ env: { SITE_URL } });
  await addEditor(await folio.database(), EDITOR.email, EDITOR.password);
  cookie = (await signInWithForm(folio.url, EDITOR.email, EDITOR.password)).cookie;
  bigImage = await imageOf(1200, 630, 'A wide blue card');
  tinyImage = await imageOf(150, 150, 'A tiny square');
}, 60_000);
afterAll(async () => {
  await folio?.stop();
});

describe('search and sharing fields', () => {
  test('the editor offers them in a closed section, every one empty for a page without them', async () => {
    await store((s) =>
      s.putPage(
        { slug: 'seo-plain', title: 'Plain page', summary: 'Its summary', body: 'Text.' },
        { publish: true },
      ),
    );
    const response = await get('/preview/seo-plain?edit');
    const html = await response.text();
    expect(html).toContain('<summary>Search and sharing</summary>');
    expect(html).toMatch(/<details class="seo-section"(?![^>]*open)/);
    const form = await formWithButton(html, 'Save draft');
    const fields = new Map(form.fields);
    expect(fields.get('seoTitle')).toBe('');
    expect(fields.get('seoDescription')).toBe('');
    expect(fields.get('seoImage')).toBe('');
    expect(fields.get('seoCanonical')).toBe('');
    expect(fields.has('seoNoindex')).toBe(false);
    // The library's images are offered, a too small one marked.
    expect(html).toContain(`value="${bigImage}"`);
    expect(html).toContain('A tiny square — 150 × 150 (too small for a card)');
    // The previews, server-rendered: the page's own title and summary stand in.
    expect(html).toMatch(/data-testid="seo-snippet-title">Plain page · Folio</);
    expect(html).toMatch(/data-testid="seo-snippet-description">Its summary</);
  });

  test('saved as a draft: the editor’s previews show them, visitors and the sitemap do not', async () => {
    await store((s) =>
      s.putPage(
        { slug: 'seo-draft', title: 'Public title', summary: 'Public summary', body: 'Text.' },
        { publish: true },
      ),
    );
    const saved = await save('seo-draft', await editorForm('seo-draft'), {
      seoTitle: 'Secret meta title',
      seoDescription: 'Secret meta description',
      seoImage: bigImage,
      seoCanonical: 'https://elsewhere.example/original',
      seoNoindex: 'on',
    });
    expect(saved.status).toBe(303);
    // The draft has them.
    const draft = await store((s) => s.getPage('seo-draft', { draft: true }));
    expect(draft?.seo).toEqual({
      title: 'Secret meta title',
      description: 'Secret meta description',
      image: bigImage,
      canonical: 'https://elsewhere.example/original',
      noindex: true,
    });
    // The editor renders its previews with them, without JavaScript.
    const editor = await (await get('/preview/seo-draft?edit')).text();
    expect(editor).toMatch(/data-testid="seo-snippet-title">Secret meta title · Folio</);
    expect(editor).toContain('data-testid="seo-hidden"');
    expect(editor).toMatch(/data-testid="seo-card-source">Image: <!-- -->the image chosen below/);
    // Visitors still read the published page's own.
    const page = await publicHtml('/seo-draft');
    expect(titleOf(page)).toBe('Public title · Folio');
    expect(page).not.toContain('Secret meta');
    expect(page).not.toContain('name="robots"');
    expect(canonicalOf(page)).toBe(`${SITE_URL}/seo-draft`);
    expect(metaOf(page).get('og:image')).not.toContain(bigImage);
    expect(await sitemap()).toContain(`${SITE_URL}/seo-draft<`);
  });

  test('published with the text: title, description, image, canonical and noindex reach the <head>; the sitemap leaves it out', async () => {
    const form = await editorForm('seo-draft');
    const published = await submitForm(`${folio.url}/preview/seo-draft?edit`, form, {
      cookie,
      set: { intent: 'publish' },
    });
    expect(published.status).toBe(303);
    expect(published.headers.get('location')).toContain('notice=published');
    const page = await publicHtml('/seo-draft');
    const meta = metaOf(page);
    // The site's name is still appended to <title>; og:title is the meta title alone.
    expect(titleOf(page)).toBe('Secret meta title · Folio');
    expect(meta.get('og:title')).toBe('Secret meta title');
    expect(meta.get('description')).toBe('Secret meta description');
    expect(meta.get('og:description')).toBe('Secret meta description');
    expect(meta.get('robots')).toBe('noindex');
    expect(canonicalOf(page)).toBe('https://elsewhere.example/original');
    expect(meta.get('og:image')).toBe(`${SITE_URL}/media/${bigImage}/original.png`);
    expect(meta.get('og:image:width')).toBe('1200');
    expect(meta.get('og:image:height')).toBe('630');
    expect(meta.get('og:image:alt')).toBe('A wide blue card');
    // The page's own text is unchanged.
    expect(page).toContain('Public title');
    const map = await sitemap();
    expect(map).not.toContain('/seo-draft<');
    expect(map).toContain(`${SITE_URL}/seo-plain<`);

    // Shown again to search engines: back in the sitemap, no robots tag.
    const again = await save('seo-draft', await editorForm('seo-draft'), {
      seoNoindex: '',
      seoCanonical: '/seo-plain',
    });
    expect(again.status).toBe(303);
    // A form without the checkbox ticked sends nothing for it.
    await store(async (s) => {
      const current = await s.getPage('seo-draft', { draft: true });
      expect(current?.seo.noindex).toBe(false);
      await s.publish('seo-draft');
    });
    const shown = await publicHtml('/seo-draft');
    expect(metaOf(shown).has('robots')).toBe(false);
    // A site path is made absolute as the page's own address is.
    expect(canonicalOf(shown)).toBe(`${SITE_URL}/seo-plain`);
    expect(await sitemap()).toContain(`${SITE_URL}/seo-draft<`);
  });

  test('a javascript: or data: canonical, or garbage, is refused in words; the typed values are kept', async () => {
    await store((s) =>
      s.putPage({ slug: 'seo-bad', title: 'Bad input', summary: '', body: 'Text.' }),
    );
    const before = await store((s) => s.getPage('seo-bad', { draft: true }));
    for (const [canonical, words] of [
      ['javascript:alert(1)', '“javascript:” addresses are not allowed'],
      ['data:text/html,hello', '“data:” addresses are not allowed'],
      ['//evil.example/x', 'a single / for a page of this site'],
      ['not an address', 'no spaces'],
    ] as const) {
      const response = await save('seo-bad', await editorForm('seo-bad'), {
        seoTitle: 'Typed meta title',
        seoCanonical: canonical,
        body: 'Typed body',
      });
      expect(response.status).toBe(422);
      const html = await response.text();
      expect(html).toContain(words);
      // The section is open on the refused field, everything typed kept.
      expect(html).toMatch(/<details class="seo-section" open=""/);
      expect(html).toContain('value="Typed meta title"');
      expect(html).toContain('Typed body');
    }
    const after = await store((s) => s.getPage('seo-bad', { draft: true }));
    expect(after?.version).toBe(before?.version);
    expect(after?.seo.canonical).toBe('');
  });

  test('a social image smaller than 200 × 200 is refused in words; the typed values are kept', async () => {
    const response = await save('seo-bad', await editorForm('seo-bad'), {
      seoImage: tinyImage,
      seoDescription: 'Typed description',
    });
    expect(response.status).toBe(422);
    const html = await response.text();
    expect(html).toContain(
      'This image is 150 × 150 px: share cards need at least 200 × 200 px (1200 × 630 is best).',
    );
    expect(html).toContain('Typed description</textarea>');
    expect(html).toMatch(new RegExp(`<option value="${tinyImage}" selected=""`));
    // An image the library does not have, and junk where a hash belongs: refused too.
    const unknown = await save('seo-bad', await editorForm('seo-bad'), {
      seoImage: 'f'.repeat(32),
    });
    expect(unknown.status).toBe(422);
    expect(await unknown.text()).toContain('no longer in the library');
    const junk = await save('seo-bad', await editorForm('seo-bad'), { seoImage: '../etc' });
    expect(junk.status).toBe(422);
    expect(await junk.text()).toContain('Choose an image from the library');
    expect((await store((s) => s.getPage('seo-bad', { draft: true })))?.seo.image).toBeNull();
  });

  test('a first image too small for a card is skipped for the generated card; a large one is used', async () => {
    await store((s) =>
      s.putPage(
        {
          slug: 'seo-tiny-first',
          title: 'Tiny first image',
          summary: '',
          body: `![An icon](/media/${tinyImage})\n\nText.`,
        },
        { publish: true },
      ),
    );
    const tiny = metaOf(await publicHtml('/seo-tiny-first'));
    expect(tiny.get('og:image')).toMatch(/\/media\/[0-9a-f]{32}\/card-\d+\.png$/);
    expect(tiny.get('og:image:width')).toBe('1200');
    await store((s) =>
      s.putPage(
        {
          slug: 'seo-big-first',
          title: 'Big first image',
          summary: '',
          body: `![Wide](/media/${bigImage})\n\nText.`,
        },
        { publish: true },
      ),
    );
    expect(metaOf(await publicHtml('/seo-big-first')).get('og:image')).toBe(
      `${SITE_URL}/media/${bigImage}/original.png`,
    );
    expect(folio.unexpectedErrors()).toEqual([]);
  });

  test('an autosave (no such fields) keeps them; a save that changes nothing makes no version', async () => {
    await store((s) =>
      s.saveDraft({
        slug: 'seo-kept',
        title: 'Kept',
        summary: '',
        body: 'Text.',
        expectedVersion: null,
        editor: EDITOR.email,
        seo: { title: 'Kept title', description: '', image: null, canonical: '', noindex: true },
      }),
    );
    await store(async (s) => {
      const page = await s.getPage('seo-kept', { draft: true });
      // What an autosave or the CLI sends: the text only.
      const saved = await s.saveDraft({
        slug: 'seo-kept',
        pageId: page?.id,
        title: 'Kept, retitled',
        summary: '',
        body: 'Text.',
        expectedVersion: page?.version ?? 0,
        editor: EDITOR.email,
      });
      expect(saved.ok).toBe(true);
      const after = await s.getPage('seo-kept', { draft: true });
      expect(after?.seo).toMatchObject({ title: 'Kept title', noindex: true });
      await s.publish('seo-kept');
      const published = await s.getPage('seo-kept', { draft: false });
      expect(published?.seo.title).toBe('Kept title');
      // The same fields saved again over the published text: nothing new to publish.
      const same = await s.saveDraft({
        slug: 'seo-kept',
        pageId: published?.id,
        title: 'Kept, retitled',
        summary: '',
        body: 'Text.',
        expectedVersion: published?.version ?? 0,
        editor: EDITOR.email,
        seo: published?.seo,
      });
      expect(same.ok ? same.version : -1).toBe(published?.version ?? 0);
    });
  });
});
