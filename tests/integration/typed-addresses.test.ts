// Issue 27's hostile pass, findings 6, 7 and 9, against the server as the README starts it,
// through each screen's form without JavaScript: `https:evil.com` (no slashes) was stored as
// typed and written into pages, where a browser resolves it against the site; Site settings took
// a 64 × 64 default social image; a redirect to `/about?x=1#y` was saved as `/about` silently.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import sharp from 'sharp';
import { addEditor } from '../../src/lib/editors/accounts';
import { processImage } from '../../src/lib/media/images';
import { createMediaStore } from '../../src/lib/media/media';
import { formsIn, formWithButton, signInWithForm, submitForm } from '../forms';
import { type RunningFolio, startFolio, withStore } from '../harness';

const EDITOR = { email: 'addresses@example.com', password: 'the addresses passphrase' };
const NO_SLASHES =
  '“https:evil.com” is not a whole address: write it with two slashes after the colon, as https://evil.com';
let folio: RunningFolio;
let cookie = '';

beforeAll(async () => {
  folio = await startFolio();
  await addEditor(await folio.database(), EDITOR.email, EDITOR.password);
  cookie = (await signInWithForm(folio.url, EDITOR.email, EDITOR.password)).cookie;
  await withStore(folio, (store) =>
    store.putPage({ slug: 'canon', title: 'Canon', summary: '', body: 'Text.' }, { publish: true }),
  );
}, 60_000);
afterAll(async () => {
  await folio?.stop();
});

const screen = async (path: string) =>
  (await fetch(`${folio.url}${path}`, { headers: { cookie } })).text();
/** Text as a person reads it: tags out, the few entities a message holds decoded. */
const plain = (html: string) =>
  html
    .replace(/<[^>]+>/g, '')
    .replace(/&quot;/g, '"')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&amp;/g, '&');

describe('another site’s address written without its slashes', () => {
  test('a canonical override is refused in words, the typed text kept, nothing saved', async () => {
    const form = await formWithButton(await screen('/preview/canon?edit'), 'Save draft');
    const refused = await submitForm(`${folio.url}/preview/canon?edit`, form, {
      cookie,
      button: 'Save draft',
      set: { seoCanonical: 'https:evil.com' },
    });
    expect(refused.status).toBe(422);
    const html = await refused.text();
    expect(plain(html)).toContain(NO_SLASHES);
    expect(html).toMatch(/name="seoCanonical"[^>]*value="https:evil.com"/);
    const page = await withStore(folio, (store) => store.getPage('canon', { draft: true }));
    expect(page?.seo.canonical).toBe('');
    // The whole address is taken.
    const kept = await submitForm(`${folio.url}/preview/canon?edit`, form, {
      cookie,
      button: 'Save draft',
      set: { seoCanonical: 'https://evil.example/' },
    });
    expect(kept.status).toBe(303);
  });

  test('a menu’s external link is refused in words, the typed text kept', async () => {
    const post = (fields: [string, string][], intent: string) => {
      const body = new FormData();
      for (const [name, value] of fields) if (name !== 'intent') body.append(name, value);
      body.append('intent', intent);
      return fetch(`${folio.url}/preview?navigation`, {
        method: 'POST',
        body,
        redirect: 'manual',
        headers: { origin: folio.url, accept: 'text/html', cookie },
      });
    };
    const form = await formWithButton(await screen('/preview?navigation'), 'Save menus');
    const withLink = await formWithButton(
      await (await post(form.fields, 'add-link:header')).text(),
      'Save menus',
    );
    const fields = withLink.fields.map(([name, value], index): [string, string] => {
      const last = (field: string) =>
        withLink.fields.findLastIndex(([each]) => each === field) === index;
      if (name === 'label' && last('label')) return [name, 'Evil'];
      if (name === 'url' && last('url')) return [name, 'https:evil.com'];
      return [name, value];
    });
    const refused = await post(fields, 'save');
    expect(refused.status).toBe(422);
    const html = await refused.text();
    expect(plain(html)).toContain(NO_SLASHES);
    expect(html).toContain('value="https:evil.com"');
    expect(await (await fetch(`${folio.url}/canon`)).text()).not.toContain('https:evil.com');
  });

  test('an author’s profile link is refused in words, the typed text kept', async () => {
    const form = await formWithButton(await screen('/preview?profile'), 'Save profile');
    const refused = await submitForm(`${folio.url}/preview?profile`, form, {
      cookie,
      set: { name: 'Eve Links', slug: 'eve-links', bio: 'Kept bio.', links: 'https:evil.com' },
    });
    expect(refused.status).toBe(422);
    const html = await refused.text();
    expect(plain(html)).toContain(NO_SLASHES);
    expect(html).toContain('https:evil.com');
    expect(html).toContain('Kept bio.');
  });

  test('a redirect’s target too (one rule): refused, no longer made https://evil.com/', async () => {
    const add = (await formsIn(await screen('/preview?redirects'))).find((form) =>
      form.buttons.some((button) => button.text.includes('Add redirect')),
    );
    if (!add) throw new Error('no Add redirect form');
    const refused = await submitForm(`${folio.url}/preview?redirects`, add, {
      cookie,
      set: { from: '/to-evil', to: 'https:evil.com', status: '301' },
    });
    expect(refused.status).toBe(422);
    expect(plain(await refused.text())).toContain(NO_SLASHES);
    expect((await fetch(`${folio.url}/to-evil`, { redirect: 'manual' })).status).toBe(404);
  });
});

describe('what the Redirects screen and Site settings took silently', () => {
  test('a redirect target with a query or fragment is refused in words, not cut', async () => {
    const add = (await formsIn(await screen('/preview?redirects'))).find((form) =>
      form.buttons.some((button) => button.text.includes('Add redirect')),
    );
    if (!add) throw new Error('no Add redirect form');
    const refused = await submitForm(`${folio.url}/preview?redirects`, add, {
      cookie,
      set: { from: '/old-about', to: '/canon?x=1#y', status: '301' },
    });
    expect(refused.status).toBe(422);
    const html = await refused.text();
    expect(plain(html)).toContain(
      '/canon?x=1#y has a query (?) or fragment (#): a redirect sends visitors to a page of this site by its address alone, such as /canon.',
    );
    expect(html).toMatch(
      /name="to"[^>]*value="\/canon\?x=1#y"|value="\/canon\?x=1#y"[^>]*name="to"/,
    );
    expect((await fetch(`${folio.url}/old-about`, { redirect: 'manual' })).status).toBe(404);
  });

  test('a default social image under 200 × 200 px is refused with its size', async () => {
    const png = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#a63' } })
      .png()
      .toBuffer();
    const small = await createMediaStore(await folio.database()).add(
      await processImage(new Uint8Array(png)),
      { alt: 'A small square', filename: 'small.png', editor: EDITOR.email },
    );
    const before = await withStore(folio, (store) => store.getSiteSettings());
    const form = await formWithButton(await screen('/preview?settings'), 'Save settings');
    const refused = await submitForm(`${folio.url}/preview?settings`, form, {
      cookie,
      set: { social_image: `/media/${small.hash}`, tagline: 'Typed tagline' },
    });
    expect(refused.status).toBe(422);
    const html = await refused.text();
    expect(plain(html)).toContain(
      'This image is 64 × 64 px: share cards need at least 200 × 200 px (1200 × 630 is best). Choose a larger image, or none.',
    );
    expect(html).toContain('Typed tagline');
    expect(await withStore(folio, (store) => store.getSiteSettings())).toEqual(before);
    expect(folio.unexpectedErrors()).toEqual([]);
  });
});
