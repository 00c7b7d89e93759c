// The content API (issue 29, docs/decisions/0044) against the server as the README starts it,
// on the run's engine: published content only whatever the parameters (drafts, scheduled,
// unpublished and deleted pages, a published page's newer draft), cursor pagination that
// walks each listing exactly once, 304s that a publish ends, CORS, a signed-in editor's cookie
// changing nothing, and hostile parameters refused in words.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { SEED_DRAFT_MARKERS } from '../../src/lib/content/seed';
import { addEditor } from '../../src/lib/editors/accounts';
import { signInWithForm } from '../forms';
import { type RunningFolio, startFolio, withStore } from '../harness';

const EDITOR = { email: 'api@example.com', password: 'the api passphrase' };
const SECRET = 'API-DRAFT-SECRET-51d2';
/** Slugs visitors cannot see: none may appear in any answer. */
const HIDDEN_SLUGS = [
  'api-draft-only',
  'api-scheduled',
  'api-unpublished',
  'api-deleted',
  'upcoming-feature',
  'hidden-topic',
];
const POSTS = 23;
let folio: RunningFolio;
let cookie = '';

const text = (title: string, body = `${title} body.`) => ({ title, summary: `${title}.`, body });

beforeAll(async () => {
  folio = await startFolio();
  const editor = await addEditor(await folio.database(), EDITOR.email, EDITOR.password);
  cookie = (await signInWithForm(folio.url, EDITOR.email, EDITOR.password)).cookie;
  await withStore(folio, async (store) => {
    await store.saveAuthorProfile(editor.id, {
      slug: 'ann-api',
      name: 'Ann Api',
      bio: 'Writes the API posts.',
      photo: '',
      links: 'https://example.com/ann',
    });
    for (let n = 1; n <= POSTS; n += 1)
      await store.putPage(
        {
          slug: `api-post-${n}`,
          ...text(`API post ${n}`),
          post: {
            kind: 'post',
            topics: [n % 2 ? 'Alpha' : 'Beta'],
            ...(n % 3 === 0 ? { authors: ['ann-api'] } : {}),
          },
        },
        { publish: true },
      );
    // A draft only, with a topic nobody publishes under.
    await store.putPage({
      slug: 'api-draft-only',
      ...text('Draft only', SECRET),
      post: { kind: 'post', topics: ['Hidden Topic'], authors: ['ann-api'] },
    });
    // A published post with a newer draft: the API shows the published text.
    await store.putPage(
      {
        slug: 'api-changed',
        ...text('Changed, published'),
        post: { kind: 'post', topics: ['Alpha'] },
      },
      { publish: true },
    );
    await store.putPage({
      slug: 'api-changed',
      ...text(`Changed, draft ${SECRET}`, SECRET),
      post: { kind: 'post', topics: ['Hidden Topic'] },
    });
    // Scheduled for tomorrow: nothing of it until then.
    await store.putPage({
      slug: 'api-scheduled',
      ...text('Scheduled', SECRET),
      post: { kind: 'post', topics: ['Alpha'] },
    });
    await store.schedulePublish('api-scheduled', new Date(Date.now() + 86_400_000));
    // Published, then taken down; published, taken down and deleted.
    for (const slug of ['api-unpublished', 'api-deleted']) {
      await store.putPage(
        { slug, ...text(slug, SECRET), post: { kind: 'post', topics: ['Alpha'] } },
        { publish: true },
      );
      await store.unpublish(slug);
    }
    await store.discardDraft('api-deleted');
    // Hidden from search engines: public all the same, and says so.
    await store.saveDraft({
      slug: 'api-quiet',
      ...text('Quiet post'),
      expectedVersion: null,
      editor: null,
      post: { kind: 'post', topics: ['Beta'] },
      seo: {
        title: 'Quiet, for search',
        description: '',
        image: null,
        canonical: '',
        noindex: true,
      },
    });
    await store.publish('api-quiet');
  });
}, 120_000);
afterAll(async () => {
  await folio?.stop();
});

const get = (path: string, init: RequestInit = {}) =>
  fetch(`${folio.url}${path}`, { redirect: 'manual', ...init });

type Listing = { items: { slug: string }[]; next_cursor: string | null; next: string | null };

/** Every page of a listing, following `next`; each answer's text is checked on the way. */
async function walk(path: string, check: (body: string) => void, headers: HeadersInit = {}) {
  const slugs: string[] = [];
  let address: string | null = `${folio.url}${path}`;
  let pages = 0;
  while (address !== null) {
    const response = await fetch(address, { headers });
    const body = await response.text();
    check(body);
    if (response.status !== 200) return { status: response.status, slugs, body };
    const listing = JSON.parse(body) as Listing;
    slugs.push(...listing.items.map((item) => item.slug));
    address = listing.next;
    pages += 1;
    if (pages > 200) throw new Error(`${path}: more than 200 pages`);
  }
  return { status: 200, slugs, body: '' };
}

function noSecrets(body: string) {
  expect(body).not.toContain(SECRET);
  expect(body).not.toContain(SEED_DRAFT_MARKERS.changedPage);
  expect(body).not.toContain(SEED_DRAFT_MARKERS.draftOnlyPage);
  for (const slug of HIDDEN_SLUGS) expect(body).not.toContain(`"${slug}"`);
}

describe('published content only', () => {
  test('every parameter combination of every listing: never a draft', async () => {
    const limits = [null, '1', '7', '100'];
    const filters = [
      null,
      'topic=alpha',
      'topic=hidden-topic',
      'author=ann-api',
      'topic=alpha&author=ann-api',
    ];
    const since = [
      null,
      'updated_since=2000-01-01',
      `updated_since=${new Date(Date.now() + 3_600_000).toISOString()}`,
    ];
    let walks = 0;
    for (const collection of ['posts', 'pages', 'topics', 'authors'])
      for (const limit of limits)
        for (const filter of filters)
          for (const after of since) {
            const query = [limit && `limit=${limit}`, filter, after].filter(Boolean).join('&');
            const path = `/api/v1/${collection}${query ? `?${query}` : ''}`;
            const result = await walk(path, noSecrets);
            walks += 1;
            expect([200, 400, 404], path).toContain(result.status);
            // A filter a listing does not take is refused, never ignored.
            const takesFilter = collection === 'posts';
            const takesSince = collection === 'posts' || collection === 'pages';
            if ((!takesFilter && filter) || (!takesSince && after) || filter?.includes('&author'))
              expect(result.status, path).toBe(400);
            else if (filter === 'topic=hidden-topic') expect(result.status, path).toBe(404);
            else expect(result.status, path).toBe(200);
          }
    expect(walks).toBe(4 * 4 * 5 * 3);
  }, 300_000);

  test('each hidden page is a 404 by its slug; the changed page shows its published text', async () => {
    for (const slug of HIDDEN_SLUGS)
      for (const collection of ['posts', 'pages', 'topics', 'authors']) {
        const response = await get(`/api/v1/${collection}/${slug}`);
        const body = await response.text();
        expect(response.status).toBe(404);
        expect(JSON.parse(body).error.code).toBe('not_found');
        noSecrets(body);
      }
    const changed = await get('/api/v1/posts/api-changed');
    const body = await changed.text();
    noSecrets(body);
    const post = JSON.parse(body);
    expect(post.title).toBe('Changed, published');
    expect(post.html).toContain('Changed, published body.');
    expect(post.topics.map((t: { slug: string }) => t.slug)).toEqual(['alpha']);
    // The seed's release notes have a newer draft too.
    const notes = await (await get('/api/v1/posts/release-notes')).text();
    expect(notes).toContain('"slug":"release-notes"');
    noSecrets(notes);
    // A post is not a page, nor a page a post.
    expect((await get('/api/v1/pages/api-post-1')).status).toBe(404);
    expect((await get('/api/v1/posts/about')).status).toBe(404);
    expect((await get('/api/v1/pages/about')).status).toBe(200);
  });

  test('a page hidden from search engines is public, and says so', async () => {
    const quiet = await (await get('/api/v1/posts/api-quiet')).json();
    expect(quiet.seo).toEqual({
      title: 'Quiet, for search',
      description: '',
      canonical: '',
      hidden_from_search_engines: true,
    });
    const listed = await walk('/api/v1/posts?limit=100', noSecrets);
    expect(listed.slugs).toContain('api-quiet');
  });
});

describe('pagination', () => {
  test('walks each listing exactly once, at any page size', async () => {
    const all = (await walk('/api/v1/posts?limit=100', noSecrets)).slugs;
    for (let n = 1; n <= POSTS; n += 1) expect(all).toContain(`api-post-${n}`);
    expect(all).toContain('api-changed');
    for (const limit of [1, 3, 20]) {
      const slugs = (await walk(`/api/v1/posts?limit=${limit}`, noSecrets)).slugs;
      expect(slugs).toEqual(all);
    }
    const alpha = (await walk('/api/v1/posts?topic=alpha&limit=4', noSecrets)).slugs;
    expect(alpha).toEqual(
      all.filter((slug) => /^api-post-\d*[13579]$/.test(slug) || slug === 'api-changed'),
    );
    const byAnn = (await walk('/api/v1/posts?author=ann-api&limit=2', noSecrets)).slugs;
    expect(byAnn.sort()).toEqual(
      [
        'api-post-3',
        'api-post-6',
        'api-post-9',
        'api-post-12',
        'api-post-15',
        'api-post-18',
        'api-post-21',
      ].sort(),
    );
    const pages = (await walk('/api/v1/pages?limit=2', noSecrets)).slugs;
    expect(new Set(pages).size).toBe(pages.length);
    expect(pages).toContain('about');
    expect(pages).toContain('home');
    for (const slug of pages) expect(all).not.toContain(slug);
    const topics = (await walk('/api/v1/topics?limit=1', noSecrets)).slugs;
    expect(topics).toContain('alpha');
    expect(topics).toContain('beta');
    expect(new Set(topics).size).toBe(topics.length);
    expect((await walk('/api/v1/authors?limit=1', noSecrets)).slugs).toEqual(['ann-api']);
  });

  test('updated_since keeps what was published since', async () => {
    const future = new Date(Date.now() + 3_600_000).toISOString();
    expect((await walk(`/api/v1/posts?updated_since=${future}`, noSecrets)).slugs).toEqual([]);
    expect((await walk(`/api/v1/pages?updated_since=${future}`, noSecrets)).slugs).toEqual([]);
    const every = (await walk('/api/v1/posts?updated_since=2000-01-01&limit=5', noSecrets)).slugs;
    expect(every).toEqual((await walk('/api/v1/posts?limit=100', noSecrets)).slugs);
  });
});

describe('hostile parameters', () => {
  const cases = [
    '/api/v1/posts?limit=0',
    '/api/v1/posts?limit=101',
    '/api/v1/posts?limit=1e9',
    '/api/v1/posts?limit=-1',
    '/api/v1/posts?limit=1.5',
    '/api/v1/posts?limit=%EF%BC%91',
    '/api/v1/posts?limit=',
    '/api/v1/posts?limit=10&limit=20',
    '/api/v1/posts?limit[]=1',
    `/api/v1/posts?limit=${'9'.repeat(5000)}`,
    `/api/v1/posts?topic=${'a'.repeat(5000)}`,
    '/api/v1/posts?topic=Caf%C3%A9',
    '/api/v1/posts?topic=../etc',
    '/api/v1/posts?topic=',
    '/api/v1/posts?updated_since=yesterday',
    '/api/v1/posts?updated_since=2026-13-45',
    '/api/v1/posts?updated_since=99999-01-01',
    '/api/v1/posts?updated_since=%00',
    '/api/v1/posts?cursor=',
    '/api/v1/posts?cursor=not-a-cursor',
    '/api/v1/posts?cursor=%F0%9F%92%A9',
    `/api/v1/posts?cursor=${'A'.repeat(3000)}`,
    `/api/v1/posts?cursor=${Buffer.from('["posts","2026-01-01T00:00:00.000Z",-1]').toString('base64url')}`,
    `/api/v1/posts?cursor=${Buffer.from('["posts","2026-01-01T00:00:00.000Z",1e300]').toString('base64url')}`,
    `/api/v1/posts?cursor=${Buffer.from('["posts","drop table",1]').toString('base64url')}`,
    `/api/v1/posts?cursor=${Buffer.from('{"a":1}').toString('base64url')}`,
    `/api/v1/pages?cursor=${Buffer.from('["posts","2026-01-01T00:00:00.000Z",1]').toString('base64url')}`,
    '/api/v1/posts?%F0%9F%92%A9=1',
    '/api/v1/posts?page=2',
    '/api/v1/posts/about?limit=1',
    '/api/v1/site?x=1',
    '/api/v1/topics?topic=alpha',
  ];
  test('each is a 400 with its reason in words, never a 5xx', async () => {
    for (const path of cases) {
      const response = await get(path);
      const body = await response.text();
      expect(response.status, path).toBe(400);
      expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(response.headers.get('access-control-allow-origin')).toBe('*');
      const { error } = JSON.parse(body);
      expect(typeof error.code).toBe('string');
      expect(error.message.length, path).toBeGreaterThan(10);
      expect(body).not.toContain('    at ');
    }
    // A cursor cut short is refused, not read as another place.
    const first = (await (await get('/api/v1/posts?limit=2')).json()) as Listing;
    const cut = first.next_cursor?.slice(0, -6) ?? '';
    expect((await get(`/api/v1/posts?limit=2&cursor=${cut}`)).status).toBe(400);
    // A cursor of one topic's listing is not one of another's.
    const alpha = (await (await get('/api/v1/posts?topic=alpha&limit=2')).json()) as Listing;
    expect((await get(`/api/v1/posts?topic=beta&cursor=${alpha.next_cursor}`)).status).toBe(400);
    expect((await get(`/api/v1/posts?cursor=${alpha.next_cursor}`)).status).toBe(400);
    expect(folio.unexpectedErrors()).toEqual([]);
  });

  test('an address that is no endpoint, a slug nobody has: a 404 in words', async () => {
    for (const path of [
      '/api',
      '/api/v1',
      '/api/v1/',
      '/api/v2/posts',
      '/api/v1/posts/',
      '/api/v1/comments',
      '/api/v1/posts/a/b',
      '/api/v1/posts/NOPE',
      '/api/v1/posts/no-such-post',
    ]) {
      const response = await get(path);
      expect(response.status, path).toBe(404);
      expect((await response.json()).error.message).toMatch(/There is no/);
    }
    expect((await get('/api/v1/posts', { method: 'POST' })).status).toBe(405);
  });
});

describe('caching', () => {
  test('a copy that is current is a 304, decided before any build; a publish ends it', async () => {
    const first = await get('/api/v1/posts?limit=3');
    const etag = first.headers.get('etag') ?? '';
    expect(etag).toMatch(/^"v\d+-/);
    expect(first.headers.get('cache-control')).toBe(
      'public, max-age=0, s-maxage=60, must-revalidate',
    );
    expect(first.headers.get('cdn-cache-control')).toBe(
      'public, max-age=60, stale-while-revalidate=600',
    );
    expect(first.headers.get('vary')).toBeNull();
    const again = await get('/api/v1/posts?limit=3', { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
    expect(again.headers.get('etag')).toBe(etag);
    expect(again.headers.get('access-control-allow-origin')).toBe('*');
    const single = await get('/api/v1/posts/api-post-1');
    const singleTag = single.headers.get('etag') ?? '';
    expect(single.status).toBe(200);

    await withStore(folio, (store) =>
      store.putPage(
        {
          slug: 'api-fresh',
          ...text('Fresh off the press'),
          post: { kind: 'post', topics: ['Beta'] },
        },
        { publish: true },
      ),
    );
    const after = await get('/api/v1/posts?limit=3', { headers: { 'if-none-match': etag } });
    expect(after.status).toBe(200);
    expect(after.headers.get('etag')).not.toBe(etag);
    const listing = (await after.json()) as Listing;
    expect(listing.items[0]?.slug).toBe('api-fresh');
    // A change to one post: its own answer is current at the next request too.
    await withStore(folio, (store) =>
      store.putPage(
        {
          slug: 'api-post-1',
          ...text('API post 1, corrected'),
          post: { kind: 'post', topics: ['Alpha'] },
        },
        { publish: true },
      ),
    );
    const corrected = await get('/api/v1/posts/api-post-1', {
      headers: { 'if-none-match': singleTag },
    });
    expect(corrected.status).toBe(200);
    expect((await corrected.json()).title).toBe('API post 1, corrected');
  });
});

describe('CORS and credentials', () => {
  test('any origin may read; the preflight names the methods and headers', async () => {
    const response = await get('/api/v1/site', {
      headers: { origin: 'https://elsewhere.example' },
    });
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('access-control-allow-credentials')).toBeNull();
    const site = await response.json();
    expect(site.title.length).toBeGreaterThan(0);
    expect(site.url).toBe(`${folio.url}/`);
    const preflight = await get('/api/v1/posts', {
      method: 'OPTIONS',
      headers: {
        origin: 'https://elsewhere.example',
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'if-none-match',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    expect(preflight.headers.get('access-control-allow-methods')).toBe('GET, HEAD, OPTIONS');
    expect(preflight.headers.get('access-control-allow-headers')).toContain('If-None-Match');
    expect(preflight.headers.get('access-control-allow-credentials')).toBeNull();
    const head = await get('/api/v1/posts', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('etag')).toMatch(/^"v/);
  });

  test("a signed-in editor's cookie changes nothing", async () => {
    // The cookie is a real session: the editor sees the draft in preview.
    expect(await (await get('/preview/api-changed', { headers: { cookie } })).text()).toContain(
      SECRET,
    );
    for (const path of [
      '/api/v1/posts?limit=100',
      '/api/v1/posts/api-changed',
      '/api/v1/posts/api-draft-only',
      '/api/v1/pages',
      '/api/v1/topics',
      '/api/v1/topics/hidden-topic',
      '/api/v1/authors/ann-api',
      '/api/v1/site',
    ]) {
      const plain = await get(path);
      const signedIn = await get(path, { headers: { cookie } });
      const [a, b] = [await plain.text(), await signedIn.text()];
      expect(signedIn.status, path).toBe(plain.status);
      expect(b, path).toBe(a);
      noSecrets(b);
      expect(signedIn.headers.get('etag')).toBe(plain.headers.get('etag'));
      expect(signedIn.headers.get('set-cookie')).toBeNull();
      expect(signedIn.headers.get('cache-control')).toBe(plain.headers.get('cache-control'));
    }
  });
});
