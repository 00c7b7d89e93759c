// Posts, topics and listings as visitors get them (issue 27), against the server as the README
// starts it: an editor's form makes a post with topics; the topic's page, the home page as
// latest posts and the feeds list it once published; page numbers are bounded; a slug taken
// by a page or a topic is refused; and a publish re-renders the listings it changed while
// pages that do not list it stay cached (docs/decisions/0028).
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { addEditor } from '../../src/lib/editors/accounts';
import { formWithButton, signInWithForm, submitForm } from '../forms';
import { type RunningFolio, startFolio, waitFor, withStore } from '../harness';

const EDITOR = { email: 'topics@example.com', password: 'the topics passphrase' };
let folio: RunningFolio;
let cookie = '';

beforeAll(async () => {
  folio = await startFolio();
  await addEditor(await folio.database(), EDITOR.email, EDITOR.password);
  cookie = (await signInWithForm(folio.url, EDITOR.email, EDITOR.password)).cookie;
}, 60_000);
afterAll(async () => {
  await folio?.stop();
});

const get = (path: string, init: RequestInit = {}) =>
  fetch(`${folio.url}${path}`, { redirect: 'manual', ...init });

/** Writes a new page in the editor's form, as a browser without JavaScript would. */
async function writeInEditor(fields: Record<string, string>, button = 'Create draft') {
  const page = await (await get('/preview?new', { headers: { cookie } })).text();
  return submitForm(`${folio.url}/preview?new`, await formWithButton(page, button), {
    cookie,
    set: fields,
  });
}

async function publish(slug: string) {
  const preview = await (await get(`/preview/${slug}`, { headers: { cookie } })).text();
  const answer = await submitForm(
    `${folio.url}/preview/${slug}`,
    await formWithButton(preview, 'Publish this draft'),
    { cookie },
  );
  expect(answer.status).toBe(303);
}

/** Requests `path` until the render cache answers it (a hit). */
async function cached(path: string) {
  await waitFor(
    async () => {
      const response = await get(path);
      await response.arrayBuffer();
      return response.headers.get('x-folio-cache') === 'hit' ? true : undefined;
    },
    { what: `${path} cached` },
  );
}

async function cacheOf(path: string) {
  const response = await get(path);
  return { cache: response.headers.get('x-folio-cache'), text: await response.text() };
}

describe('posts and topics through the editor', () => {
  test('a post with topics is listed on its topic page and in the feeds once published', async () => {
    const made = await writeInEditor({
      title: 'Tomato season',
      slug: 'tomato-season',
      summary: 'Sun and salt.',
      body: 'Ripe ones.',
      kind: 'post',
      topics: 'Kitchen Garden, Summer',
    });
    expect(made.status).toBe(303);
    // A draft: its topic is nobody's page yet, and the feed does not carry it.
    expect((await get('/kitchen-garden')).status).toBe(404);
    expect(await (await get('/feed.xml')).text()).not.toContain('Tomato season');
    await publish('tomato-season');
    const topic = await get('/kitchen-garden');
    expect(topic.status).toBe(200);
    const html = await topic.text();
    expect(html).toContain('<h1>Kitchen Garden</h1>');
    expect(html).toContain('href="/tomato-season"');
    expect(html).toContain('Sun and salt.');
    expect(html).toContain('href="/feed.xml?topic=kitchen-garden"');
    // Structured data: a collection, and the trail site → topic (hostile pass).
    expect(html).toContain('"@type":"CollectionPage","name":"Kitchen Garden"');
    expect(html).toMatch(
      /"@type":"BreadcrumbList".*"name":"Kitchen Garden","item":"\/kitchen-garden"/,
    );
    const feed = await (await get('/feed.xml?topic=kitchen-garden')).text();
    expect(feed).toContain('<title>Tomato season</title>');
    expect(feed).toContain('term="kitchen-garden" label="Kitchen Garden"');
    // The post's date line links its topics' pages.
    const postPage = await (await get('/tomato-season')).text();
    expect(postPage).toMatch(
      /class="post-topics">In <span><a href="\/kitchen-garden">Kitchen Garden<\/a>/,
    );
    const whole = await (await get('/feed.xml')).text();
    expect(whole).toContain('Tomato season');
    // Pages are not news: the demo's About is a page.
    expect(whole).not.toContain('<title>About</title>');
    // The editor shows what was saved: the kind and the topics.
    const editor = await (await get('/preview/tomato-season?edit', { headers: { cookie } })).text();
    expect(editor).toContain('value="Kitchen Garden, Summer"');
    expect(editor).toMatch(/value="post" checked=""|checked="" value="post"/);
  });

  test('a page is not listed, and a topic nobody publishes under is a 404 and has no feed', async () => {
    await writeInEditor({
      title: 'Opening hours',
      slug: 'opening-hours',
      summary: '',
      body: 'Nine to five.',
      kind: 'page',
      topics: 'Practical',
    });
    await publish('opening-hours');
    expect((await get('/practical')).status).toBe(404);
    expect((await get('/feed.xml?topic=practical')).status).toBe(404);
    expect((await get('/feed.xml?topic=../etc')).status).toBe(404);
    expect((await get('/feed.xml?topic=nothing-here')).status).toBe(404);
    expect(await (await get('/feed.xml')).text()).not.toContain('Opening hours');
  });

  test('bad input: taken slugs, 200 topics, a name too long — refused with words, nothing lost', async () => {
    // A page at a topic's address.
    const taken = await writeInEditor({
      title: 'Clash',
      slug: 'kitchen-garden',
      summary: '',
      body: 'KEEP-THIS-TEXT',
      kind: 'post',
      topics: '',
    });
    expect(taken.status).toBe(422);
    const takenHtml = await taken.text();
    expect(takenHtml).toContain('The topic “Kitchen Garden” has the address /kitchen-garden');
    expect(takenHtml).toContain('KEEP-THIS-TEXT');
    const many = Array.from({ length: 200 }, (_, i) => `topic ${i}`).join(', ');
    const tooMany = await writeInEditor({
      title: 'Many',
      slug: 'many',
      summary: '',
      body: 'b',
      kind: 'post',
      topics: many,
    });
    expect(tooMany.status).toBe(422);
    expect(await tooMany.text()).toContain('A post has at most 20 topics.');
    const long = await writeInEditor({
      title: 'Long',
      slug: 'long',
      summary: '',
      body: 'b',
      kind: 'post',
      topics: 'x'.repeat(10_000),
    });
    expect(long.status).toBe(422);
    expect(await long.text()).toContain('A topic name has at most 60 characters.');
    // A topic named like a page (or a reserved name) takes the next free address.
    await writeInEditor({
      title: 'Named like pages',
      slug: 'named-like-pages',
      summary: '',
      body: 'b',
      kind: 'post',
      topics: 'About, Preview, , ,',
    });
    await publish('named-like-pages');
    expect((await get('/about-2')).status).toBe(200);
    expect((await get('/preview-2')).status).toBe(200);
    expect(await (await get('/about')).text()).toContain('<h1>About</h1>');
  });

  test("renaming a topic's slug redirects the old address (301)", async () => {
    const screen = await (await get('/preview?topics', { headers: { cookie } })).text();
    expect(screen).toContain('Kitchen Garden');
    const id = await withStore(folio, async (store) => (await store.getTopic('summer'))?.id);
    const forms = await import('../forms').then((m) => m.formsIn(screen));
    const form = forms.find((f) => f.fields.some(([n, v]) => n === 'id' && v === String(id)));
    if (!form) throw new Error('no form for the topic Summer');
    const saved = await submitForm(`${folio.url}/preview?topics`, form, {
      cookie,
      set: { slug: 'high-summer', intro: 'Long *days*.' },
    });
    expect(saved.status).toBe(303);
    const old = await get('/summer');
    expect(old.status).toBe(301);
    expect(old.headers.get('location')).toBe('/high-summer');
    expect(await (await get('/high-summer')).text()).toContain('<em>days</em>');
    // Hostile pass: the same form again (a second tab opened before that save) is refused,
    // its text kept, instead of silently undoing the rename.
    const stale = await submitForm(`${folio.url}/preview?topics`, form, {
      cookie,
      set: { intro: 'From the other tab.' },
    });
    expect(stale.status).toBe(409);
    const staleHtml = await stale.text();
    expect(staleHtml).toContain('this topic was changed since you opened this screen');
    expect(staleHtml).toContain('From the other tab.');
    expect((await get('/summer')).headers.get('location')).toBe('/high-summer');
    // A slug a page has is refused, with the reason.
    const fresh = (
      await import('../forms').then(async (m) =>
        m.formsIn(await (await get('/preview?topics', { headers: { cookie } })).text()),
      )
    ).find((f) => f.fields.some(([n, v]) => n === 'id' && v === String(id)));
    if (!fresh) throw new Error('no form for the topic Summer');
    const refused = await submitForm(`${folio.url}/preview?topics`, fresh, {
      cookie,
      set: { slug: 'about' },
    });
    expect(refused.status).toBe(422);
    expect(await refused.text()).toContain('A page has the address /about.');
  });
});

describe('listings: pages of 20, bounded page numbers', () => {
  test('a topic of 45 posts has three pages; anything else is a 404, never a 500', async () => {
    await withStore(folio, async (store) => {
      for (let i = 1; i <= 45; i += 1)
        await store.putPage(
          {
            slug: `many-${i}`,
            title: `Many ${i}`,
            summary: '',
            body: 'b',
            post: { kind: 'post', topics: ['Crowded'] },
          },
          { publish: true },
        );
    });
    const first = await (await get('/crowded')).text();
    expect(first).toContain('href="/many-45"');
    expect(first).not.toContain('href="/many-25"');
    expect(first).toContain('href="/crowded?page=2"');
    const third = await get('/crowded?page=3');
    expect(third.status).toBe(200);
    const thirdHtml = await third.text();
    expect(thirdHtml).toContain('href="/many-1"');
    expect(thirdHtml).toContain('href="/crowded?page=2"');
    expect(thirdHtml).not.toContain('?page=4');
    for (const bad of ['4', '0', '-1', 'abc', '1000000000', '501', '2.5'])
      expect((await get(`/crowded?page=${bad}`)).status, bad).toBe(404);
    // A page that lists nothing has no second page.
    expect((await get('/about?page=2')).status).toBe(404);
    expect((await get('/?page=2')).status).toBe(404);
  });
});

describe('the listing directive', () => {
  test('lists the newest posts in a page; a bad one is a message in the preview and nothing public', async () => {
    await withStore(folio, (store) =>
      store.putPage(
        {
          slug: 'garden-news',
          title: 'Garden news',
          summary: '',
          body: 'From the garden:\n\n{{ posts topic=kitchen-garden limit=1 }}\n\n{{ posts limit=99 }}\n\n{{ posts topic=no-such-topic }}\n\nThe end.',
          post: { kind: 'page', topics: [] },
        },
        { publish: true },
      ),
    );
    const page = await get('/garden-news');
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('<ul class="directive-listing">');
    expect(html).toContain('href="/tomato-season"');
    expect(html).toContain('The end.');
    expect(html).not.toContain('{{');
    expect(html).not.toContain('not shown to visitors');
    const preview = await (await get('/preview/garden-news', { headers: { cookie } })).text();
    expect(preview).toContain('limit is a number from 1 to 20, not “99”.');
    expect(preview).toContain('No topic with published posts is at /no-such-topic.');
    expect(preview).toContain('href="/preview/tomato-season"');
    // A new post under the topic: the page that lists it re-renders on the next request.
    await cached('/garden-news');
    await withStore(folio, (store) =>
      store.putPage(
        {
          slug: 'bean-rows',
          title: 'BEAN-ROWS',
          summary: '',
          body: 'b',
          post: { kind: 'post', topics: ['Kitchen Garden'] },
        },
        { publish: true },
      ),
    );
    const after = await cacheOf('/garden-news');
    expect(after.cache).toBe('miss');
    expect(after.text).toContain('BEAN-ROWS');
  });
});

describe('home as latest posts, and what a publish re-renders', () => {
  test('the home page lists the newest posts under its text; a publish re-renders it and the topics it touched only', async () => {
    await withStore(folio, async (store) => {
      const settings = await store.getSiteSettings();
      await store.saveSiteSettings({ ...settings, homeShows: 'posts' });
    });
    const home = await (await get('/')).text();
    expect(home).toContain('aria-label="Latest posts"');
    expect(home).toContain('href="/many-45"');
    // The demo home page's text is the introduction.
    expect(home).toContain('<h1>Welcome to Folio</h1>');
    expect(home).toContain('href="/?page=2"');
    expect((await get('/?page=2')).status).toBe(200);
    for (const path of ['/', '/crowded', '/kitchen-garden', '/about', '/many-3'])
      await cached(path);
    // A new post under Crowded: the home page and Crowded change, the rest stay cached.
    await withStore(folio, (store) =>
      store.putPage(
        {
          slug: 'fresh-post',
          title: 'FRESH-POST',
          summary: '',
          body: 'b',
          post: { kind: 'post', topics: ['Crowded'] },
        },
        { publish: true },
      ),
    );
    for (const path of ['/', '/crowded']) {
      const page = await cacheOf(path);
      expect(page.cache, path).toBe('miss');
      expect(page.text).toContain('FRESH-POST');
    }
    for (const path of ['/kitchen-garden', '/about', '/many-3'])
      expect((await cacheOf(path)).cache, path).toBe('hit');
    expect(await (await get('/feed.xml')).text()).toContain('FRESH-POST');
    // Taken off the topic on a republish: the old topic re-renders without it.
    await cached('/crowded');
    await withStore(folio, (store) =>
      store.putPage(
        {
          slug: 'fresh-post',
          title: 'FRESH-POST',
          summary: '',
          body: 'b',
          post: { kind: 'post', topics: ['Kitchen Garden'] },
        },
        { publish: true },
      ),
    );
    const crowded = await cacheOf('/crowded');
    expect(crowded.cache).toBe('miss');
    expect(crowded.text).not.toContain('FRESH-POST');
    expect(await (await get('/kitchen-garden')).text()).toContain('FRESH-POST');
    // Unpublished: gone from the listings.
    await cached('/');
    await withStore(folio, (store) => store.unpublish('fresh-post'));
    const after = await cacheOf('/');
    expect(after.cache).toBe('miss');
    expect(after.text).not.toContain('FRESH-POST');
  });
});
