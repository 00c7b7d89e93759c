// The content API (issue 29, docs/decisions/0044) refuses what it does not take: hostile
// parameters are a 400 in words and unknown addresses a 404, never a 5xx; any origin may read
// it (CORS, preflight); and a signed-in editor's cookie changes nothing.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { addEditor } from '../../src/lib/editors/accounts';
import { type Listing, noSecrets, SECRET, seedApiSite, text } from '../content-api-site';
import { type RunningFolio, startFolio, withStore } from '../harness';

let folio: RunningFolio;
let cookie = '';

beforeAll(async () => {
  folio = await startFolio();
  cookie = await seedApiSite(folio);
}, 120_000);
afterAll(async () => {
  await folio?.stop();
});

const get = (path: string, init: RequestInit = {}) =>
  fetch(`${folio.url}${path}`, { redirect: 'manual', ...init });

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

describe('hostile pass on /api/v1 (issue 29)', () => {
  test('F1: If-None-Match (* or a tag) never turns a missing address into a 304', async () => {
    const missing = [
      '/api/v1/posts/nothing-here',
      '/api/v1/posts/api-draft-only',
      '/api/v1/pages/nothing-here',
      '/api/v1/topics/nothing-here',
      '/api/v1/authors/nobody-here',
      '/api/v1/posts?author=nobody-here',
      '/api/v1/posts?topic=nothing-here',
    ];
    const etag = (await get('/api/v1/posts')).headers.get('etag') ?? '';
    // Asked first with `*` (nothing kept yet), then after a plain GET: the same 404 each time.
    for (const round of ['before a plain GET', 'after one'])
      for (const path of missing) {
        for (const asked of ['*', etag, etag.replace(/-[^-]*"$/, '-x"')]) {
          const response = await get(path, { headers: { 'if-none-match': asked } });
          expect(response.status, `${path} ${asked} ${round}`).toBe(404);
          expect((await response.json()).error.code).toBe('not_found');
        }
        await get(path);
      }
    // An address that is there still gets its 304, for `*` and its own tag.
    const post = await get('/api/v1/posts/api-post-1');
    const own = post.headers.get('etag') ?? '';
    for (const asked of ['*', own])
      expect(
        (await get('/api/v1/posts/api-post-1', { headers: { 'if-none-match': asked } })).status,
      ).toBe(304);
    expect((await get('/api/v1/posts', { headers: { 'if-none-match': '*' } })).status).toBe(304);
    // The feed of a topic shares the file cache and its rule.
    const feed = await get('/feed.xml?topic=nothing-here', { headers: { 'if-none-match': '*' } });
    expect(feed.status).toBe(404);
    expect((await get('/feed.xml', { headers: { 'if-none-match': '*' } })).status).toBe(304);
  });

  test('F2: impossible dates and dates without a zone are refused in words', async () => {
    const cursor = (at: string) =>
      Buffer.from(JSON.stringify(['posts', at, 1])).toString('base64url');
    for (const [path, code] of [
      ['/api/v1/posts?updated_since=2026-02-30', 'invalid_updated_since'],
      ['/api/v1/posts?updated_since=2026-11-31', 'invalid_updated_since'],
      ['/api/v1/pages?updated_since=2026-02-29T10:00:00Z', 'invalid_updated_since'],
      [`/api/v1/posts?cursor=${cursor('2026-02-30T00:00:00.000Z')}`, 'invalid_cursor'],
      [`/api/v1/posts?cursor=${cursor('2026-11-31T00:00:00.000Z')}`, 'invalid_cursor'],
    ]) {
      const response = await get(path as string);
      expect(response.status, path).toBe(400);
      expect((await response.json()).error.code, path).toBe(code);
    }
    const noZone = await get('/api/v1/posts?updated_since=2026-11-26T10:00:00');
    expect(noZone.status).toBe(400);
    const { error } = await noZone.json();
    expect(error.code).toBe('invalid_updated_since');
    expect(error.message).toContain('%2B01:00');
    // Real dates still work: a leap day, a zone as an offset.
    expect((await get('/api/v1/posts?updated_since=2024-02-29')).status).toBe(200);
    expect((await get('/api/v1/posts?updated_since=2026-11-26T10:00:00%2B01:00')).status).toBe(200);
    const author = await (await get('/api/v1/posts?author=Ann')).json();
    expect(author.error.message).toContain('an author');
  });
});

describe('hostile pass on /api/v1 (issue 29): every answer is JSON any origin may read', () => {
  const isApiJson = async (response: Response, what: string) => {
    expect(response.headers.get('content-type'), what).toBe('application/json; charset=utf-8');
    expect(response.headers.get('access-control-allow-origin'), what).toBe('*');
    const body = await response.text();
    expect(body, what).not.toContain('<html');
    return JSON.parse(body).error as { code: string; message: string };
  };

  test('F3: a method the API does not answer is a JSON 405 with Allow', async () => {
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE'])
      for (const path of ['/api/v1/posts', '/api/v1/posts/api-post-1', '/api/v1/nowhere']) {
        const response = await get(path, { method, body: method === 'DELETE' ? null : '{}' });
        expect(response.status, `${method} ${path}`).toBe(405);
        expect(response.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
        expect((await isApiJson(response, `${method} ${path}`)).code).toBe('method_not_allowed');
      }
  });

  test('F3: a path the front door refuses under /api is a JSON 404, not the site page', async () => {
    for (const path of [
      '/api/v1/posts%2fx',
      '/api/v1/posts/api-post-1%00',
      '/api/v1/posts/%00',
      `/api/v1/posts/${'a'.repeat(3000)}`,
      '/api/v1/',
    ]) {
      const response = await get(path);
      expect(response.status, path).toBe(404);
      expect((await isApiJson(response, path)).message).toMatch(/There is no/);
    }
    expect(folio.unexpectedErrors()).toEqual([]);
  });
});

describe('hostile pass on /api/v1 (issue 29): renamed addresses', () => {
  test('F4: an old slug answers 301 to the API address of the new one, as the site does', async () => {
    const bo = await addEditor(await folio.database(), 'bo@example.com', 'the bo passphrase');
    await withStore(folio, async (store) => {
      await store.saveAuthorProfile(bo.id, {
        slug: 'bo-old',
        name: 'Bo',
        bio: '',
        photo: '',
        links: '',
      });
      await store.putPage(
        {
          slug: 'moved-post-old',
          ...text('Moved post'),
          post: { kind: 'post', topics: ['Gamma Old'], authors: ['bo-old'] },
        },
        { publish: true },
      );
      await store.putPage(
        { slug: 'moved-page-old', ...text('Moved page'), post: { kind: 'page', topics: [] } },
        { publish: true },
      );
      await store.renameSlug('moved-post-old', 'moved-post-new');
      await store.renameSlug('moved-page-old', 'moved-page-new');
      const topic = await store.getTopic('gamma-old');
      if (!topic) throw new Error('the topic was made with the post');
      await store.updateTopic(topic.id, { name: 'Gamma New', slug: 'gamma-new', intro: '' });
      await store.saveAuthorProfile(bo.id, {
        slug: 'bo-new',
        name: 'Bo',
        bio: '',
        photo: '',
        links: '',
      });
    });
    const api = `${folio.url}/api/v1`;
    for (const [old, now] of [
      ['/api/v1/posts/moved-post-old', `${api}/posts/moved-post-new`],
      ['/api/v1/pages/moved-page-old', `${api}/pages/moved-page-new`],
      ['/api/v1/topics/gamma-old', `${api}/topics/gamma-new`],
      ['/api/v1/authors/bo-old', `${api}/authors/bo-new`],
      ['/api/v1/posts?topic=gamma-old&limit=5', `${api}/posts?topic=gamma-new&limit=5`],
      ['/api/v1/posts?author=bo-old', `${api}/posts?author=bo-new`],
    ] as const) {
      const response = await get(old);
      expect(response.status, old).toBe(301);
      expect(response.headers.get('location'), old).toBe(now);
      expect(response.headers.get('access-control-allow-origin')).toBe('*');
      expect((await get(now.slice(folio.url.length))).status, now).toBe(200);
    }
    // A walk under the old slug goes on under the new one, at the same place.
    await withStore(folio, async (store) => {
      await store.putPage(
        { slug: 'moved-post-2', ...text('Moved 2'), post: { kind: 'post', topics: ['Gamma New'] } },
        { publish: true },
      );
    });
    const firstNew = (await (await get('/api/v1/posts?topic=gamma-new&limit=1')).json()) as Listing;
    const oldCursor = Buffer.from(
      JSON.stringify([
        'posts/t/gamma-old',
        ...JSON.parse(Buffer.from(firstNew.next_cursor ?? '', 'base64url').toString()).slice(1),
      ]),
    ).toString('base64url');
    const walked = await get(`/api/v1/posts?topic=gamma-old&limit=1&cursor=${oldCursor}`);
    expect(walked.status).toBe(301);
    const rest = (await (
      await get((walked.headers.get('location') ?? '').slice(folio.url.length))
    ).json()) as Listing;
    expect(rest.items.map((item) => item.slug)).toEqual(['moved-post-old'.replace('old', 'new')]);
    // The site's own answer for the same old addresses, for comparison: a 301 too.
    expect((await get('/moved-page-old')).status).toBe(301);
    // Only to one of the same kind: a post's old slug is no page.
    expect((await get('/api/v1/pages/moved-post-old')).status).toBe(404);
    expect((await get('/api/v1/posts/moved-page-old')).status).toBe(404);
    expect(folio.unexpectedErrors()).toEqual([]);
  });
});
