// The preview is the site (issue 26): every demo page's preview, and a page with an image and a
// code block, is byte for byte the page visitors get once it is published — the site's header
// with the navigation as the drafts will make it, the column, the date line, the footer — but
// for the preview's banner, which sits outside that markup, and the `/preview` prefix of the
// links that keep an editor inside the preview.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import sharp from 'sharp';
import { HOME_SLUG } from '../../src/lib/content/slugs';
import { addEditor } from '../../src/lib/editors/accounts';
import { formWithButton, signInWithForm, submitForm } from '../forms';
import { type RunningFolio, seededDatabase, startFolio, withStore } from '../harness';

const EDITOR = { email: 'preview@example.com', password: 'the preview passphrase' };
const DRAFT_NAV_TITLE = 'About us (renamed in a draft)';
let folio: RunningFolio;
let cookie = '';

beforeAll(async () => {
  folio = await startFolio({ database: await seededDatabase() });
  await addEditor(await folio.database(), EDITOR.email, EDITOR.password);
  cookie = (await signInWithForm(folio.url, EDITOR.email, EDITOR.password)).cookie;
}, 60_000);
afterAll(async () => {
  await folio?.stop();
});

const get = (path: string, withCookie = '') =>
  fetch(`${folio.url}${path}`, { headers: withCookie ? { cookie: withCookie } : {} });

/**
 * The page's own markup: from the site's header to the end of its footer. Not the whole
 * document: <head> differs by design (the preview's title says "preview", it is noindex, the
 * public page has its canonical and Open Graph tags), and so do the scripts after the footer
 * (each carries its own address's page data). Not less either: header, column and footer are
 * what "the page as visitors will see it" means. The preview's banner comes before the site's
 * header, so it is outside; the test checks that it is there and not inside.
 */
function pageMarkup(html: string): string {
  const start = html.indexOf('<header class="site-header">');
  const endTag = '</footer>';
  const end = html.indexOf(endTag, start);
  if (start < 0 || end < 0) throw new Error('no site header and footer in the page');
  // One site header and one footer: a second would be left out of what is compared.
  expect(html.indexOf('<header class="site-header">', start + 1)).toBe(-1);
  expect(html.indexOf(endTag, end + 1)).toBe(-1);
  // A public page's structured data (JSON-LD, docs/decisions/0034) is for crawlers, not what
  // a reader sees, and is of the published page only; React cannot hoist it into <head>, so it
  // sits at the top of the column and is left out here.
  return html
    .slice(start, end + endTag.length)
    .replace(/<script type="application\/ld\+json">[^<]*<\/script>/g, '');
}

/** The inverse of rewriteLinksForPreview (routes.ts): a preview's links as the public page's. */
function withoutPreviewPrefix(markup: string): string {
  return markup
    .replace(new RegExp(`href="/preview/${HOME_SLUG}(?=["?#])`, 'g'), 'href="/')
    .replace(/href="\/preview\//g, 'href="/');
}

const publicPathOf = (slug: string) => (slug === HOME_SLUG ? '/' : `/${slug}`);

async function uploadedImage(): Promise<string> {
  const png = await sharp({
    create: { width: 640, height: 400, channels: 3, background: '#3366aa' },
  })
    .png()
    .toBuffer();
  const library = await get('/preview?media', cookie);
  const response = await submitForm(
    `${folio.url}/preview?media`,
    await formWithButton(await library.text(), 'Upload'),
    {
      cookie,
      set: { file: new File([png], 'blue.png'), alt: 'A blue field' },
      button: 'Upload',
    },
  );
  const hash = /\/media\/([0-9a-f]{32})\)/.exec(await response.text())?.[1];
  if (!hash) throw new Error('the upload answered without the image');
  return hash;
}

describe('the preview is the site', () => {
  test('every page’s preview is, banner and /preview aside, the page as published', async () => {
    const hash = await uploadedImage();
    const slugs = await withStore(folio, async (store) => {
      // A header link whose page has a new title in its draft: the preview's header says it.
      const about = await store.getPage('about', { draft: true });
      if (!about) throw new Error('the demo content has no about page');
      await store.saveDraft({
        slug: 'about',
        title: DRAFT_NAV_TITLE,
        summary: about.summary,
        body: about.bodyMarkdown,
        expectedVersion: about.version,
        editor: EDITOR.email,
      });
      await store.putPage({
        slug: 'figures-and-code',
        title: 'Figures and code',
        summary: 'An image, a code block and links.',
        body: [
          `![A blue field](/media/${hash})`,
          '```ts\nconst answer: number = 42; // typed\n```',
          'See [about](/about), [home](/) and [the top](/#top).',
        ].join('\n\n'),
      });
      const settings = await store.getSiteSettings();
      await store.saveSiteSettings({ ...settings, footer: 'A footer line' });
      const db = await folio.database();
      const rows = await db.query<{ slug: string }>`SELECT slug FROM pages ORDER BY slug`;
      return rows.map((row) => row.slug);
    });
    // Every demo page (the home page, one with a draft, a draft-only one) and the new one.
    expect(slugs).toContain(HOME_SLUG);
    expect(slugs).toContain('upcoming-feature');
    expect(slugs).toContain('release-notes');
    expect(slugs).toContain('figures-and-code');

    // Every preview first, then publish everything: a preview shows the other pages' drafts in
    // its header too, so all are published before any public page is read.
    const previews = new Map<string, string>();
    for (const slug of slugs) {
      const response = await get(`/preview/${slug}`, cookie);
      expect(response.status).toBe(200);
      const html = await response.text();
      const markup = pageMarkup(html);
      // The banner is on the page, before the page's own markup and not in it.
      expect(html.indexOf('class="preview-banner"')).toBeGreaterThan(-1);
      expect(html.indexOf('class="preview-banner"')).toBeLessThan(html.indexOf(markup));
      expect(markup).not.toContain('preview-banner');
      expect(markup).toContain(`>${DRAFT_NAV_TITLE}</a>`);
      expect(markup).toContain('A footer line');
      previews.set(slug, markup);
    }
    expect(previews.get('figures-and-code')).toContain('<picture>');
    expect(previews.get('figures-and-code')).toContain('<pre class="shiki');
    expect(previews.get('figures-and-code')).toContain('href="/preview/about"');

    await withStore(folio, async (store) => {
      for (const slug of slugs) {
        const page = await store.getPage(slug, { draft: true });
        if (page && page.state !== 'published') await store.publish(slug);
      }
    });

    for (const slug of slugs) {
      const response = await get(publicPathOf(slug));
      expect(response.status).toBe(200);
      const published = pageMarkup(await response.text());
      expect(withoutPreviewPrefix(previews.get(slug) ?? '')).toBe(published);
    }
  }, 60_000);

  test('a share link’s page is the published page but for its banner', async () => {
    const made = await withStore(folio, async (store) => {
      await store.putPage({
        slug: 'shared-draft-page',
        title: 'Shared draft',
        summary: 'For a reviewer.',
        body: 'Read this [about page](/about).',
      });
      const page = await store.getPage('shared-draft-page', { draft: true });
      if (!page) throw new Error('the page was not saved');
      return page;
    });
    const banner = await get('/preview/shared-draft-page', cookie);
    const answer = await submitForm(
      `${folio.url}/preview/shared-draft-page`,
      await formWithButton(await banner.text(), 'Create share link'),
      { cookie, button: 'Create share link' },
    );
    const token = /[?&]share=([^&#"]+)/.exec(
      (answer.headers.get('location') ?? '') + (await answer.text()).replaceAll('&amp;', '&'),
    )?.[1];
    if (!token) throw new Error('no share link was made');
    const shared = await get(`/preview/shared-draft-page?share=${token}`);
    expect(shared.status).toBe(200);
    const html = await shared.text();
    expect(html).toContain('Shared preview');
    const markup = pageMarkup(html);
    expect(markup).not.toContain('Shared preview');
    await withStore(folio, (store) => store.publish(made.slug));
    const published = pageMarkup(await (await get('/shared-draft-page')).text());
    expect(markup).toBe(published);
  }, 60_000);
});

describe('help and developer tools (issue 26)', () => {
  test('the help ships with Folio: Markdown beside what Folio makes of it, and shortcuts', async () => {
    // Whatever the demo content became: the help does not read pages.
    const response = await get('/preview?help', cookie);
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain('<h1>Writing in Folio</h1>');
    expect(html).toContain('<strong>bold</strong>');
    expect(html).toContain('<pre class="shiki');
    expect(html).toContain('Keyboard shortcuts');
    // Editors only, like every preview screen.
    expect((await get('/preview?help')).status).toBe(401);
  });

  test("the editor's Markdown guide is the help, never a demo page that may be gone", async () => {
    // Without JavaScript (the server's render) the toolbar's place holds the guide's link.
    const editor = await (await get('/preview/getting-started?edit', cookie)).text();
    expect(editor).toContain('href="/preview?help">Markdown guide</a>');
    expect(editor).not.toContain('href="/preview/writing-in-markdown">Markdown guide');
  });

  test('the error-reporting check is off the dashboard, a link away', async () => {
    const dashboard = await (await get('/preview', cookie)).text();
    expect(dashboard).not.toContain('Check error reporting');
    expect(dashboard).toContain('href="/preview?developer"');
    expect(dashboard).toContain('href="/preview?help"');
    const tools = await (await get('/preview?developer', cookie)).text();
    expect(tools).toContain('Check error reporting');
    expect(tools).toContain('Send a test error from the server');
    expect((await get('/preview?developer')).status).toBe(401);
  });
});

describe('one time zone, and no stale notice (issue 26)', () => {
  test('"Scheduled…" in the address is not shown once the page went live', async () => {
    await withStore(folio, async (store) => {
      await store.putPage({ slug: 'went-live', title: 'Went live', summary: '', body: 'Soon.' });
      await store.schedulePublish('went-live', new Date(Date.now() + 86_400_000));
    });
    const pending = await (await get('/preview/went-live?notice=scheduled', cookie)).text();
    expect(pending).toContain('Scheduled. The draft as it is then will be published');
    // It went out (here: published at once; the scheduler clears the schedule as it publishes).
    await withStore(folio, async (store) => {
      await store.cancelSchedule('went-live');
      await store.publish('went-live');
    });
    const live = await (await get('/preview/went-live?notice=scheduled', cookie)).text();
    expect(live).not.toContain('Scheduled. The draft as it is then will be published');
    expect(live).toContain('Published, no unpublished changes');
  });

  test('every time on an editor screen is in one zone, named once (UTC before the browser says)', async () => {
    for (const path of ['/preview', '/preview/went-live', '/preview/went-live?edit']) {
      const html = await (await get(path, cookie)).text();
      const visible = html.replace(/<script[\s\S]*?<\/script>/g, '');
      expect(visible.match(/Times in <!-- -->UTC/g)?.length).toBe(1);
      expect(visible).not.toMatch(/\d (AM|PM) UTC/);
    }
  });
});

describe('a new page without JavaScript (issue 26)', () => {
  test('an empty slug is filled from the title on save, as the hint says', async () => {
    const html = await (await get('/preview?new', cookie)).text();
    expect(html).toContain('Filled from the title until you change it.');
    // The field does not stop the browser from sending it empty.
    expect(html).not.toMatch(/<input[^>]*name="slug"[^>]*required/);
    const response = await submitForm(
      `${folio.url}/preview?new`,
      await formWithButton(html, 'Create draft'),
      {
        cookie,
        button: 'Create draft',
        set: { title: 'Notes from the Field', slug: '', body: 'Typed without JavaScript.' },
      },
    );
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toStartWith('/preview/notes-from-the-field');
    const saved = await withStore(folio, (store) =>
      store.getPage('notes-from-the-field', { draft: true }),
    );
    expect(saved?.bodyMarkdown).toBe('Typed without JavaScript.');
  });

  test('an existing page’s emptied slug is still refused, with the typed text kept', async () => {
    await withStore(folio, (store) =>
      store.putPage({ slug: 'slug-kept', title: 'Slug kept', summary: '', body: 'Before.' }),
    );
    const html = await (await get('/preview/slug-kept?edit', cookie)).text();
    const response = await submitForm(
      `${folio.url}/preview/slug-kept?edit`,
      await formWithButton(html, 'Save draft'),
      { cookie, button: 'Save draft', set: { slug: '', body: 'Kept text.' } },
    );
    expect(response.status).toBe(422);
    expect(await response.text()).toContain('Kept text.');
  });
});
