// Authors' profiles (issue 27) against the server as the README starts it: the editor's own
// profile screen without JavaScript — made, refused with the typed text kept, stale — and its
// place in the bar; an address change leaves the old page and feed redirecting.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { addEditor } from '../../src/lib/editors/accounts';
import { formWithButton, signInWithForm, submitForm } from '../forms';
import { type RunningFolio, startFolio, withStore } from '../harness';

const EDITOR = { email: 'grace@example.com', password: 'the grace passphrase' };

describe('the author profile screen', () => {
  let folio: RunningFolio;
  let cookie = '';
  const get = (address: string) =>
    fetch(`${folio.url}${address}`, { headers: { cookie }, redirect: 'manual' });

  beforeAll(async () => {
    folio = await startFolio();
    await addEditor(await folio.database(), EDITOR.email, EDITOR.password);
    cookie = (await signInWithForm(folio.url, EDITOR.email, EDITOR.password)).cookie;
  }, 60_000);
  afterAll(() => folio?.stop(), 30_000);

  test('is linked from the bar, starts from the email’s name, saves, and refuses stale forms', async () => {
    const dashboard = await (await get('/preview')).text();
    expect(dashboard).toContain('href="/preview?profile"');
    const screen = await (await get('/preview?profile')).text();
    expect(screen).toContain('Your profile');
    expect(screen).toMatch(/name="slug"[^>]*value="grace"/);
    const form = await formWithButton(screen, 'Save profile');

    const refused = await submitForm(`${folio.url}/preview?profile`, form, {
      cookie,
      set: { name: 'Grace Hopper', slug: 'about', bio: 'Kept bio.', links: 'ftp://x' },
    });
    expect(refused.status).toBe(422);
    const refusedHtml = await refused.text();
    expect(refusedHtml).toContain('Each link is a full http(s) address');
    expect(refusedHtml).toContain('Kept bio.');

    const made = await submitForm(`${folio.url}/preview?profile`, form, {
      cookie,
      set: {
        name: 'Grace Hopper',
        slug: 'grace',
        bio: 'Compilers.',
        links: 'https://example.com/g',
      },
    });
    expect(made.status).toBe(303);
    expect(made.headers.get('location')).toBe('/preview?profile&notice=profile-saved');
    const saved = await (await get('/preview?profile&notice=profile-saved')).text();
    expect(saved).toContain('Profile saved.');
    expect(saved).toMatch(/name="name"[^>]*value="Grace Hopper"/);

    // The first form again (made before the save): refused, its text kept.
    const stale = await submitForm(`${folio.url}/preview?profile`, form, {
      cookie,
      set: { name: 'Grace B. Hopper', slug: 'grace', bio: 'Stale.', links: '' },
    });
    expect(stale.status).toBe(409);
    const staleHtml = await stale.text();
    expect(staleHtml).toContain('changed since you opened this form');
    expect(staleHtml).toContain('Grace B. Hopper');
    // A page cannot take the author's address now.
    expect(folio.unexpectedErrors()).toEqual([]);
  });

  test('signed out, the screen is the sign-in form', async () => {
    const response = await fetch(`${folio.url}/preview?profile`);
    expect(await response.text()).toContain('Sign in');
  });
});

// Issue 27's loose end: an author's page and feed follow their address change, as a renamed
// page's and topic's do, and give the old address up to whoever takes it.
describe('an author’s address change', () => {
  let folio: RunningFolio;
  let cookie = '';
  const get = (address: string, init: RequestInit = {}) =>
    fetch(`${folio.url}${address}`, { redirect: 'manual', ...init });

  beforeAll(async () => {
    folio = await startFolio();
    const ada = await addEditor(await folio.database(), EDITOR.email, EDITOR.password);
    await withStore(folio, async (store) => {
      await store.saveAuthorProfile(ada.id, {
        slug: 'ada-lovelace',
        name: 'Ada Lovelace',
        bio: '',
        photo: '',
        links: '',
      });
      await store.putPage(
        {
          slug: 'engines',
          title: 'On engines',
          summary: '',
          body: 'Weaving algebra.',
          post: { kind: 'post', topics: [], authors: ['ada-lovelace'] },
        },
        { publish: true },
      );
    });
    cookie = (await signInWithForm(folio.url, EDITOR.email, EDITOR.password)).cookie;
  }, 60_000);
  afterAll(() => folio?.stop(), 30_000);

  /** Changes the signed-in editor's address on their profile screen, without JavaScript. */
  async function changeAddress(slug: string) {
    const screen = await (await get('/preview?profile', { headers: { cookie } })).text();
    const saved = await submitForm(
      `${folio.url}/preview?profile`,
      await formWithButton(screen, 'Save profile'),
      { cookie, set: { slug } },
    );
    expect(saved.status).toBe(303);
  }

  test('the old page and feed redirect as a renamed page’s do; changing back does not loop', async () => {
    expect((await get('/ada-lovelace')).status).toBe(200);
    await changeAddress('ada-l');
    // What a renamed page answers (the seeded /style-guide), status and caching alike.
    const renamedPage = await get('/style-guide');
    const old = await get('/ada-lovelace?page=1');
    expect(old.status).toBe(renamedPage.status);
    expect(old.headers.get('cache-control')).toBe(renamedPage.headers.get('cache-control'));
    expect(old.headers.get('location')).toBe('/ada-l?page=1');
    // The router's page data names the new address (client navigation).
    const data = await get('/ada-lovelace?_rsc=b1', { headers: { rsc: '1' } });
    expect(data.headers.get('content-type')).toContain('text/x-component');
    expect(await data.text()).toContain('/ada-l');
    expect(await (await get('/ada-l')).text()).toContain('<h1>Ada Lovelace</h1>');
    const feed = await get('/feed.xml?author=ada-lovelace');
    expect(feed.status).toBe(301);
    expect(feed.headers.get('location')).toBe('/feed.xml?author=ada-l');
    expect(feed.headers.get('cache-control')).toBe(renamedPage.headers.get('cache-control'));
    expect(await (await get('/feed.xml?author=ada-l')).text()).toContain('On engines');

    await changeAddress('ada-lovelace');
    expect((await get('/ada-lovelace')).status).toBe(200);
    expect((await get('/ada-l')).headers.get('location')).toBe('/ada-lovelace');
    expect((await get('/feed.xml?author=ada-l')).headers.get('location')).toBe(
      '/feed.xml?author=ada-lovelace',
    );
    // Followed to the end, both old addresses land on the page, not in a loop.
    for (const address of ['/ada-l', '/feed.xml?author=ada-l']) {
      const followed = await fetch(`${folio.url}${address}`);
      expect(followed.status, address).toBe(200);
    }
    expect(folio.unexpectedErrors()).toEqual([]);
  });

  test('a renamed page’s old address is refused in words, the typed text kept', async () => {
    const screen = await (await get('/preview?profile', { headers: { cookie } })).text();
    const refused = await submitForm(
      `${folio.url}/preview?profile`,
      await formWithButton(screen, 'Save profile'),
      { cookie, set: { slug: 'style-guide', bio: 'Typed, and kept.' } },
    );
    expect(refused.status).toBe(422);
    const html = await refused.text();
    expect(html).toContain('/style-guide is an old address of /editorial-guidelines');
    expect(html).toContain('Typed, and kept.');
    expect((await get('/style-guide')).headers.get('location')).toBe('/editorial-guidelines');
    expect(folio.unexpectedErrors()).toEqual([]);
  });

  test('third hostile pass: only the newest few old addresses follow an author; an Editor’s redirect takes one', async () => {
    // Walked through many free addresses, an author kept every one answering for them.
    for (const slug of ['walk-1', 'walk-2', 'walk-3', 'walk-4', 'walk-5', 'ada-now'])
      await changeAddress(slug);
    expect((await get('/walk-1')).status).toBe(404);
    expect((await get('/walk-2')).status).toBe(404);
    for (const old of ['/walk-3', '/walk-4', '/walk-5'])
      expect((await get(old)).headers.get('location'), old).toBe('/ada-now');
    // An Editor's redirect at an old author address is followed, not shadowed by it.
    await withStore(folio, (store) =>
      store.addRedirect({ from: '/walk-5', to: '/about', status: 301 }, { editor: 'e@x' }),
    );
    expect((await get('/walk-5')).headers.get('location')).toBe('/about');
    expect((await get('/walk-4')).headers.get('location')).toBe('/ada-now');
    await changeAddress('ada-lovelace');
    expect(folio.unexpectedErrors()).toEqual([]);
  });

  test('a page published at the old address wins it', async () => {
    await changeAddress('ada-writes');
    expect((await get('/ada-lovelace')).headers.get('location')).toBe('/ada-writes');
    // A draft there is not for visitors yet: they are still sent on.
    await withStore(folio, (store) =>
      store.putPage({ slug: 'ada-lovelace', title: 'A page of hers', summary: '', body: 'x' }),
    );
    expect((await get('/ada-lovelace')).headers.get('location')).toBe('/ada-writes');
    await withStore(folio, (store) => store.publish('ada-lovelace'));
    const page = await get('/ada-lovelace');
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('A page of hers');
    expect((await get('/feed.xml?author=ada-lovelace')).status).toBe(404);
    // The author's own page is where it was.
    expect((await get('/ada-writes')).status).toBe(200);
    expect(folio.unexpectedErrors()).toEqual([]);
  });
});
