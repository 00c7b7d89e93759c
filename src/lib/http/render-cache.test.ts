import { describe, expect, test } from 'bun:test';
import { brotliDecompressSync } from 'node:zlib';
import type { Context } from 'hono';
import { requestLevelApp } from '../../../tests/request-level';
import { PUBLIC_CACHE_HEADERS } from './cache-headers';
import { cacheKeyOf, createRenderCache } from './render-cache';
import { markPublicPageRendered, markRenderFailed } from './request-context';

/** A stand-in for Waku: real pages mark themselves, as src/pages/(site)/*.tsx do. */
function harness({ maxBytes = 1024 * 1024, body = 'x'.repeat(2000) } = {}) {
  let version = 1;
  let renders = 0;
  const cache = createRenderCache({ contentVersion: () => version, maxBytes });
  const handler = (c: Context) => {
    renders += 1;
    const url = new URL(c.req.url);
    const type = url.pathname.startsWith('/RSC/') ? 'text/x-component' : 'text/html; charset=utf-8';
    if (url.pathname === '/private')
      return c.body('p', 200, { 'cache-control': 'private, no-store', 'content-type': type });
    if (url.pathname === '/broken') {
      markPublicPageRendered('broken');
      markRenderFailed();
      return c.body('half', 200, { 'content-type': type });
    }
    if (!url.pathname.includes('missing')) markPublicPageRendered(url.pathname);
    return c.body(
      `${body} ${url.host}${url.pathname}${url.search} v${version} etags=${c.req.header('x-waku-etags') ?? ''}`,
      200,
      { 'content-type': type },
    );
  };
  const app = requestLevelApp([], handler, { renderCache: cache });
  const get = (path: string, headers: Record<string, string> = {}) => app(path, { headers });
  return { cache, get, renders: () => renders, publish: () => (version += 1) };
}

describe('cacheKeyOf', () => {
  test('only public documents and page data, without a session', () => {
    const key = (url: string, init?: RequestInit) => cacheKeyOf(new Request(url, init));
    expect(key('http://h/')).toBe('doc /');
    expect(key('http://h/about')).toBe('doc /about');
    expect(key('http://h/RSC/R/about.txt')).toBe('rsc /RSC/R/about.txt');
    expect(key('http://h/RSC/R/_root.txt')).toBe('rsc /RSC/R/_root.txt');
    // Public page data takes no parameters: one key whatever the query.
    expect(key('http://h/RSC/R/about.txt?query=x')).toBe('rsc /RSC/R/about.txt');
    // So does a public page: the front door renders it without its query.
    expect(key('http://h/about?utm=x')).toBe('doc /about');
    expect(key('http://h/preview')).toBeNull();
    expect(key('http://h/RSC/R/preview/about.txt')).toBeNull();
    expect(key('http://h/RSC/R/preview.txt')).toBeNull();
    expect(key('http://h/assets/x.js')).toBeNull();
    expect(key('http://h/about', { headers: { cookie: 'folio_session=abc' } })).toBeNull();
    expect(key('http://h/about', { method: 'POST' })).toBeNull();
    // The host is not part of a key: cached pages do not depend on it.
    expect(key('http://other.example:81/about')).toBe('doc /about');
  });
});

describe('render cache', () => {
  test('the gzip copy a miss answered (brotli made after it) is still current: 304 with its tag', async () => {
    const h = harness();
    const both = 'gzip, deflate, br';
    const first = await h.get('/about', { 'accept-encoding': both });
    expect(first.headers.get('x-folio-cache')).toBe('miss');
    const etag = first.headers.get('etag') ?? '';
    expect(etag).toMatch(/-gz"$/);
    const again = await h.get('/about', { 'accept-encoding': both, 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect(again.headers.get('etag')).toBe(etag);
    // A client that takes only brotli holds no gzip copy it may use: it gets the body.
    const brOnly = await h.get('/about', { 'accept-encoding': 'br', 'if-none-match': etag });
    expect(brOnly.status).toBe(200);
    expect(brOnly.headers.get('content-encoding')).toBe('br');
  });

  test('a second request is a hit with the same strong ETag; a matching ETag gets 304', async () => {
    const h = harness();
    const first = await h.get('/about', { 'accept-encoding': 'gzip' });
    expect(first.headers.get('x-folio-cache')).toBe('miss');
    expect(first.headers.get('cache-control')).toBe(
      PUBLIC_CACHE_HEADERS['cache-control'] as string,
    );
    expect(first.headers.get('cdn-cache-control')).toBe(
      PUBLIC_CACHE_HEADERS['cdn-cache-control'] as string,
    );
    const etag = first.headers.get('etag') ?? '';
    expect(etag).toMatch(/^"[0-9a-z]+-[0-9a-z]+-gz"$/);
    const second = await h.get('/about', { 'accept-encoding': 'gzip' });
    expect(second.headers.get('x-folio-cache')).toBe('hit');
    expect(second.headers.get('etag')).toBe(etag);
    expect(h.renders()).toBe(1);
    for (const ifNoneMatch of [etag, `W/${etag}`, `"x", ${etag}`, '*']) {
      const notModified = await h.get('/about', {
        'accept-encoding': 'gzip',
        'if-none-match': ifNoneMatch,
      });
      expect(notModified.status, ifNoneMatch).toBe(304);
      expect(notModified.headers.get('etag')).toBe(etag);
      expect(await notModified.text()).toBe('');
    }
    // The gzip copy's tag does not validate the brotli copy.
    expect((await h.get('/about', { 'accept-encoding': 'br', 'if-none-match': etag })).status).toBe(
      200,
    );
  });

  test('a new content version is rendered again, never served stale', async () => {
    const h = harness();
    expect(await (await h.get('/about')).text()).toContain('v1');
    h.publish();
    expect(await (await h.get('/about')).text()).toContain('v2');
    expect(h.renders()).toBe(2);
  });

  test('stores the full payload whatever the browser already holds', async () => {
    const h = harness();
    const text = await (await h.get('/RSC/R/about.txt', { 'x-waku-etags': 'layout:/=abc' })).text();
    expect(text).toContain('etags=');
    expect(text).not.toContain('abc');
  });

  test('stores only what a page proved real: never private, signed-in, failed or missing', async () => {
    const h = harness();
    for (const [path, headers] of [
      ['/private', {}],
      ['/about', { cookie: 'folio_session=abc' }],
      ['/broken', {}],
      ['/missing-page', {}],
      ['/RSC/R/missing-page.txt', {}],
    ] as [string, Record<string, string>][]) {
      await h.get(path, headers);
      await h.get(path, headers);
    }
    expect(h.renders()).toBe(10);
    expect(h.cache.size.entries).toBe(0);
    // Neither a failed render nor a "no such page" payload may be kept by a CDN either.
    expect((await h.get('/broken')).headers.get('cache-control')).toBe('no-store');
    const missing = await h.get('/RSC/R/missing-page.txt');
    expect(missing.headers.get('cache-control')).toBe('no-store');
    expect(missing.headers.get('cdn-cache-control')).toBeNull();
  });

  test('page data ignores its query string: one entry, nothing of the query in it', async () => {
    const h = harness();
    const first = await h.get('/RSC/R/about.txt?query=%3Cjunk%3E');
    expect(await first.text()).not.toContain('junk');
    for (let i = 0; i < 20; i++) await h.get(`/RSC/R/about.txt?query=junk${i}`);
    expect(h.renders()).toBe(1);
    expect(h.cache.size.entries).toBe(1);
  });

  test('a public page ignores its query string too: one render for any number of spellings', async () => {
    // Fourth hostile review: every query string was a full render, so junk parameters (or
    // clients that never read the answer) held memory and the server's time.
    const h = harness();
    const first = await h.get('/about?utm_source=%3Cjunk%3E');
    expect(first.status).toBe(200);
    expect(await first.text()).not.toContain('junk');
    for (let i = 0; i < 20; i++) {
      const again = await h.get(`/about?x=${i}`);
      expect(again.headers.get('x-folio-cache')).toBe('hit');
      expect(await again.text()).not.toContain(`x=${i}`);
    }
    expect((await h.get('/about')).headers.get('x-folio-cache')).toBe('hit');
    expect(h.renders()).toBe(1);
    expect(h.cache.size.entries).toBe(1);
  });

  test('serves brotli or gzip computed once, by Accept-Encoding and its q-values', async () => {
    const h = harness();
    const plain = await (await h.get('/about', { 'accept-encoding': 'identity' })).text();
    const br = await h.get('/about', { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.headers.get('content-encoding')).toBe('br');
    const gzip = await h.get('/about', { 'accept-encoding': 'br;q=0, gzip' });
    expect(gzip.headers.get('content-encoding')).toBe('gzip');
    expect(new TextDecoder().decode(Bun.gunzipSync(new Uint8Array(await gzip.arrayBuffer())))).toBe(
      plain,
    );
    expect(gzip.headers.get('vary')).toBe('Accept-Encoding, RSC');
    expect(h.renders()).toBe(1);
  });

  test('the rendering request is answered without waiting for brotli, made once afterwards', async () => {
    const h = harness();
    const browser = { 'accept-encoding': 'gzip, deflate, br' };
    const miss = await h.get('/about', browser);
    expect(miss.headers.get('x-folio-cache')).toBe('miss');
    expect(miss.headers.get('content-encoding')).toBe('gzip');
    const withoutBrotli = h.cache.size.bytes;
    // Made once the response has gone (a timer), or by the first hit that wants it.
    await Bun.sleep(5);
    expect(h.cache.size.bytes).toBeGreaterThan(withoutBrotli);
    const hit = await h.get('/about', browser);
    expect(hit.headers.get('content-encoding')).toBe('br');
    expect(new TextDecoder().decode(Bun.gunzipSync(new Uint8Array(await miss.arrayBuffer())))).toBe(
      new TextDecoder().decode(brotliDecompressSync(new Uint8Array(await hit.arrayBuffer()))),
    );
    // A client that takes brotli but not gzip gets brotli at once.
    h.publish();
    const brOnly = await h.get('/about', { 'accept-encoding': 'br' });
    expect(brOnly.headers.get('x-folio-cache')).toBe('miss');
    expect(brOnly.headers.get('content-encoding')).toBe('br');
    expect(h.renders()).toBe(2);
  });

  test('counts keys and headers in its budget and evicts the least recently used', async () => {
    const h = harness({ maxBytes: 20_000, body: 'y'.repeat(3000) });
    await h.get('/a');
    const one = h.cache.size.bytes;
    // Bodies (three codings) plus key and headers.
    expect(one).toBeGreaterThan(3000 + 2000);
    await h.get('/b');
    await h.get('/a');
    for (const path of ['/c', '/d', '/e']) await h.get(path);
    expect(h.cache.size.bytes).toBeLessThanOrEqual(20_000);
    const rendersBefore = h.renders();
    await h.get('/e');
    expect(h.renders()).toBe(rendersBefore);
    await h.get('/b');
    expect(h.renders()).toBe(rendersBefore + 1);
  });

  test('concurrent misses for one page render it once', async () => {
    const h = harness();
    await Promise.all(Array.from({ length: 10 }, () => h.get('/about')));
    expect(h.renders()).toBe(1);
  });

  test('HTTPS hits carry HSTS; plain HTTP hits of the same entry do not', async () => {
    const cache = createRenderCache({ contentVersion: () => 1 });
    const app = requestLevelApp(
      [],
      (c) => {
        markPublicPageRendered('about');
        return c.html('<p>about</p>');
      },
      { renderCache: cache, trustedProxyHops: 1 },
    );
    await app('/about');
    const https = await app('/about', { headers: { 'x-forwarded-proto': 'https' } });
    expect(https.headers.get('x-folio-cache')).toBe('hit');
    expect(https.headers.get('strict-transport-security')).toContain('max-age=');
    const http = await app('/about');
    expect(http.headers.get('x-folio-cache')).toBe('hit');
    expect(http.headers.get('strict-transport-security')).toBeNull();
  });
});

test('when the content version cannot be read, the cache steps aside and requests still render', async () => {
  let renders = 0;
  const cache = createRenderCache({
    contentVersion: () => {
      throw new Error('no such table: settings');
    },
  });
  const app = requestLevelApp(
    [],
    (c) => {
      renders += 1;
      markPublicPageRendered('about');
      return c.html('page');
    },
    { renderCache: cache },
  );
  expect(await (await app('/about')).text()).toBe('page');
  await app('/about');
  expect(renders).toBe(2);
  expect(cache.lookup(new Request('http://folio.test/about'))).toBeNull();
});

test('an entry is kept across versions that did not change its page, and dropped by one that did (0028)', async () => {
  let version = 1;
  const changedAt = new Map<string, number>();
  let renders = 0;
  const cache = createRenderCache({
    contentVersion: () => version,
    stillCurrent: (made, slug) => made >= (changedAt.get(slug) ?? 0),
  });
  const app = requestLevelApp(
    [],
    (c) => {
      renders += 1;
      const slug = new URL(c.req.url).pathname.slice(1) || 'home';
      markPublicPageRendered(slug);
      return c.html(`<p>${slug} v${version}</p>`);
    },
    { renderCache: cache },
  );
  const get = async (path: string) => {
    const response = await app(path);
    return `${response.headers.get('x-folio-cache')} ${await response.text()}`;
  };
  await get('/a');
  await get('/b');
  await get('/');
  // Version 2 changed page a only.
  version = 2;
  changedAt.set('a', 2);
  expect(await get('/b')).toBe('hit <p>b v1</p>');
  expect(await get('/')).toBe('hit <p>home v1</p>');
  expect(await get('/a')).toBe('miss <p>a v2</p>');
  expect(cache.lookup(new Request('http://folio.test/a'))?.headers.get('x-folio-cache')).toBe(
    'hit',
  );
  // Version 3 changed the home page, which `/` shows.
  version = 3;
  changedAt.set('home', 3);
  expect(await get('/')).toBe('miss <p>home v3</p>');
  expect(renders).toBe(5);
});
