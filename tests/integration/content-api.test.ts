// The content API (issue 29, docs/decisions/0044) against the server as the README starts it,
// on the run's engine: published content only whatever the parameters (drafts, scheduled,
// unpublished and deleted pages, a published page's newer draft), cursor pagination that
// walks each listing exactly once, and 304s that a publish ends, on every instance.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import {
  HIDDEN_SLUGS,
  type Listing,
  noSecrets,
  POSTS,
  seedApiSite,
  text,
  walk as walkFrom,
} from '../content-api-site';
import {
  type RunningFolio,
  seededDatabase,
  startFolio,
  startTwoFolios,
  withStore,
} from '../harness';

let folio: RunningFolio;

beforeAll(async () => {
  folio = await startFolio();
  await seedApiSite(folio);
}, 120_000);
afterAll(async () => {
  await folio?.stop();
});

const get = (path: string, init: RequestInit = {}) =>
  fetch(`${folio.url}${path}`, { redirect: 'manual', ...init });
const walk = (path: string, check: (body: string) => void, headers: HeadersInit = {}) =>
  walkFrom(`${folio.url}${path}`, check, headers);

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
    // Bun's fetch takes gzip: the body came gzipped, and a cache keeps a copy per coding.
    expect(first.headers.get('vary')).toBe('Accept-Encoding');
    expect(first.headers.get('content-encoding')).toBe('gzip');
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

describe('two instances on one database', () => {
  test('a publish makes the next answer of the other instance current: no stale 304', async () => {
    const database = await seededDatabase();
    // With SITE_URL both make the same links, so the same tag: a 304 from either (without it
    // each answers with links to its own origin, tagged apart).
    const [a, b] = await startTwoFolios(database, { env: { SITE_URL: 'https://api.example' } });
    try {
      const path = '/api/v1/posts?limit=1';
      // Each instance has built and tagged the first page: the same version, the same tag.
      const before = await fetch(`${b.url}${path}`);
      const etag = before.headers.get('etag') ?? '';
      expect((await fetch(`${a.url}${path}`)).headers.get('etag')).toBe(etag);
      expect((await fetch(`${b.url}${path}`, { headers: { 'if-none-match': etag } })).status).toBe(
        304,
      );
      // Published on instance A's editor screen would do the same; here through its database.
      await withStore(a, (store) =>
        store.putPage(
          {
            slug: 'two-instance-news',
            ...text('News for both'),
            post: { kind: 'post', topics: [] },
          },
          { publish: true },
        ),
      );
      await withStore(b, async () => undefined);
      const after = await fetch(`${b.url}${path}`, { headers: { 'if-none-match': etag } });
      expect(after.status).toBe(200);
      expect(((await after.json()) as Listing).items[0]?.slug).toBe('two-instance-news');
    } finally {
      await a.stop();
      await b.stop();
      await database.drop();
    }
  }, 120_000);
});
