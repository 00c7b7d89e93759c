// Bylines and authors' pages (issue 27) as visitors get them, against the server as the README
// starts it: an editor with a profile writes a post in the editor's form (its Authors control
// ticked for them, without JavaScript); once published the post's date line, the listings, the
// author's page and their feed name them; a draft never does; page numbers are bounded; a
// publish re-renders the author's page (docs/decisions/0028); a removed editor's bylines stay.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { addEditor, removeEditor } from '../../src/lib/editors/accounts';
import { formWithButton, signInWithForm, submitForm } from '../forms';
import { type RunningFolio, startFolio, waitFor, withStore } from '../harness';

const ADA = { email: 'ada-writes@example.com', password: 'the ada passphrase' };
const GRACE = { email: 'grace-writes@example.com', password: 'the grace passphrase' };
let folio: RunningFolio;
let cookie = '';

beforeAll(async () => {
  folio = await startFolio();
  const db = await folio.database();
  // The site's first editor is its Owner, never removed (issue 28): Ada and Grace come after.
  await addEditor(db, 'owner@example.com', 'the owner passphrase');
  const ada = await addEditor(db, ADA.email, ADA.password);
  const grace = await addEditor(db, GRACE.email, GRACE.password);
  await withStore(folio, async (store) => {
    await store.saveAuthorProfile(ada.id, {
      slug: 'ada-lovelace',
      name: 'Ada Lovelace',
      bio: 'Notes on engines.',
      photo: '',
      links: 'https://example.com/ada',
    });
    await store.saveAuthorProfile(grace.id, {
      slug: 'grace-hopper',
      name: 'Grace Hopper',
      bio: '',
      photo: '',
      links: '',
    });
  });
  cookie = (await signInWithForm(folio.url, ADA.email, ADA.password)).cookie;
}, 60_000);
afterAll(async () => {
  await folio?.stop();
});

const get = (path: string, init: RequestInit = {}) =>
  fetch(`${folio.url}${path}`, { redirect: 'manual', ...init });

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

const BYLINE = 'By <a href="/ada-lovelace">Ada Lovelace</a>';

describe('bylines and authors’ pages', () => {
  test('an editor’s new post is theirs; published, it names them everywhere', async () => {
    const page = await (await get('/preview?new', { headers: { cookie } })).text();
    // The Authors control: the site's authors, the editor's own ticked.
    expect(page).toContain('type="checkbox" name="authors" checked="" value="ada-lovelace"');
    expect(page).toContain('type="checkbox" name="authors" value="grace-hopper"/>');
    const made = await submitForm(
      `${folio.url}/preview?new`,
      await formWithButton(page, 'Create draft'),
      {
        cookie,
        set: {
          title: 'Analytical notes',
          slug: 'analytical-notes',
          summary: 'On the engine.',
          body: 'It weaves algebraic patterns.',
          kind: 'post',
        },
      },
    );
    expect(made.status).toBe(303);
    // A draft: no author page, no feed, no byline anywhere public.
    expect((await get('/ada-lovelace')).status).toBe(404);
    expect((await get('/feed.xml?author=ada-lovelace')).status).toBe(404);
    const preview = await (await get('/preview/analytical-notes', { headers: { cookie } })).text();
    expect(preview).toContain('Ada Lovelace');
    const answer = await submitForm(
      `${folio.url}/preview/analytical-notes`,
      await formWithButton(preview, 'Publish this draft'),
      { cookie },
    );
    expect(answer.status).toBe(303);

    const post = await (await get('/analytical-notes')).text();
    expect(post).toContain(BYLINE);
    expect(post).toContain('"author":[{"@type":"Person","name":"Ada Lovelace"');
    await withStore(folio, async (store) => {
      const settings = await store.getSiteSettings();
      await store.saveSiteSettings({ ...settings, homeShows: 'posts' });
    });
    // Each listing entry carries its byline: the home page's latest posts.
    expect(await (await get('/')).text()).toContain(BYLINE);

    const author = await get('/ada-lovelace');
    expect(author.status).toBe(200);
    const html = await author.text();
    expect(html).toContain('<h1>Ada Lovelace</h1>');
    expect(html).toContain('Notes on engines.');
    expect(html).toContain('href="https://example.com/ada" rel="me noopener"');
    expect(html).toContain('href="/analytical-notes"');
    expect(html).toContain('href="/feed.xml?author=ada-lovelace"');
    // Structured data: a person's profile, and the trail site → author (hostile pass).
    expect(html).toContain('"@type":"ProfilePage"');
    expect(html).toContain('"mainEntity":{"@type":"Person","name":"Ada Lovelace"');
    expect(html).toMatch(/"@type":"BreadcrumbList".*"name":"Ada Lovelace","item":"\/ada-lovelace"/);
    expect(html).not.toContain(ADA.email);
    expect((await get('/ada-lovelace?page=2')).status).toBe(404);
    expect((await get('/ada-lovelace?page=9999')).status).toBe(404);

    const feed = await get('/feed.xml?author=ada-lovelace');
    expect(feed.status).toBe(200);
    const xml = await feed.text();
    expect(xml).toContain('<title>Analytical notes</title>');
    expect(xml).toContain('<author><name>Ada Lovelace</name>');
    expect(xml).not.toContain(ADA.email);
    expect(await (await get('/feed.xml')).text()).toContain('<author><name>Ada Lovelace</name>');
    expect((await get('/feed.xml?author=nobody')).status).toBe(404);
    expect((await get('/feed.xml?author=ada-lovelace&topic=x')).status).toBe(400);
  });

  test('an author whose only post is a draft has no page and no feed', async () => {
    await withStore(folio, (store) =>
      store.putPage({
        slug: 'grace-draft',
        title: 'Compilers draft',
        summary: '',
        body: 'b',
        post: { kind: 'post', topics: [], authors: ['grace-hopper'] },
      }),
    );
    expect((await get('/grace-hopper')).status).toBe(404);
    expect((await get('/feed.xml?author=grace-hopper')).status).toBe(404);
    expect(await (await get('/feed.xml')).text()).not.toContain('Grace Hopper');
  });

  test('a publish re-renders its authors’ pages; others stay cached', async () => {
    await withStore(folio, (store) =>
      store.putPage(
        {
          slug: 'grace-first',
          title: 'GRACE-FIRST',
          summary: '',
          body: 'b',
          post: { kind: 'post', topics: [], authors: ['grace-hopper'] },
        },
        { publish: true },
      ),
    );
    for (const path of ['/ada-lovelace', '/grace-hopper']) await cached(path);
    await withStore(folio, (store) =>
      store.putPage(
        {
          slug: 'duet',
          title: 'DUET',
          summary: '',
          body: 'b',
          post: { kind: 'post', topics: [], authors: ['ada-lovelace'] },
        },
        { publish: true },
      ),
    );
    const ada = await cacheOf('/ada-lovelace');
    expect(ada.cache).toBe('miss');
    expect(ada.text).toContain('DUET');
    expect((await cacheOf('/grace-hopper')).cache).toBe('hit');
    // Its byline changed on a republish: the author it left re-renders without it.
    await cached('/ada-lovelace');
    await withStore(folio, (store) =>
      store.putPage(
        {
          slug: 'duet',
          title: 'DUET',
          summary: '',
          body: 'b',
          post: { kind: 'post', topics: [], authors: ['grace-hopper'] },
        },
        { publish: true },
      ),
    );
    expect((await cacheOf('/ada-lovelace')).text).not.toContain('DUET');
    expect((await cacheOf('/grace-hopper')).text).toContain('DUET');
    // Unpublished: Grace's page loses it.
    await cached('/grace-hopper');
    await withStore(folio, (store) => store.unpublish('duet'));
    const grace = await cacheOf('/grace-hopper');
    expect(grace.cache).toBe('miss');
    expect(grace.text).not.toContain('DUET');
  });

  test('a listing directive of one author lists their posts, with bylines', async () => {
    await withStore(folio, (store) =>
      store.putPage(
        {
          slug: 'by-grace',
          title: 'By Grace',
          summary: '',
          body: 'Hers:\n\n{{ posts author=grace-hopper }}\n\n{{ posts author=nobody-here }}\n',
          post: { kind: 'page', topics: [] },
        },
        { publish: true },
      ),
    );
    const html = await (await get('/by-grace')).text();
    expect(html).toContain('href="/grace-first"');
    expect(html).toContain('By <a href="/grace-hopper">Grace Hopper</a>');
    expect(html).not.toContain('analytical-notes');
    expect(html).not.toContain('nobody-here');
    const preview = await (await get('/preview/by-grace', { headers: { cookie } })).text();
    expect(preview).toContain('No author with published posts is at /nobody-here.');
  });

  test('removing an editor keeps their author page and bylines', async () => {
    await removeEditor(await folio.database(), ADA.email);
    const post = await (await get('/analytical-notes')).text();
    expect(post).toContain(BYLINE);
    expect((await get('/ada-lovelace')).status).toBe(200);
  });
});
