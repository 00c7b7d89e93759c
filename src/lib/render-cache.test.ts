import { describe, expect, test } from 'bun:test';
import {
  cacheKeyOf,
  createRenderCache,
  markRenderFailed,
  PUBLIC_CACHE_CONTROL,
} from './render-cache';

function harness({ maxBytes = 1024 * 1024, body = 'x'.repeat(2000) } = {}) {
  let version = 1;
  let renders = 0;
  const cache = createRenderCache({ contentVersion: () => version, maxBytes });
  const handler = async (request: Request) => {
    renders += 1;
    const url = new URL(request.url);
    if (url.pathname === '/private')
      return new Response('p', {
        headers: { 'cache-control': 'private, no-store', 'content-type': 'text/html' },
      });
    if (url.pathname === '/broken') {
      markRenderFailed();
      return new Response('half', { headers: { 'content-type': 'text/html' } });
    }
    return new Response(
      `${body} ${url.pathname} v${version} etags=${request.headers.get('x-waku-etags') ?? ''}`,
      {
        headers: { 'content-type': 'text/html; charset=utf-8' },
      },
    );
  };
  const get = (path: string, headers: Record<string, string> = {}) =>
    cache.handle(new Request(`http://h${path}`, { headers }), handler);
  return { cache, get, renders: () => renders, publish: () => (version += 1) };
}

describe('cacheKeyOf', () => {
  test('only public documents and page data without a session', () => {
    expect(cacheKeyOf(new Request('http://h/'))).toBe('doc /');
    expect(cacheKeyOf(new Request('http://h/about'))).toBe('doc /about');
    expect(cacheKeyOf(new Request('http://h/RSC/R/about.txt'))).toBe('rsc /RSC/R/about.txt');
    expect(cacheKeyOf(new Request('http://h/about?utm=x'))).toBeNull();
    expect(cacheKeyOf(new Request('http://h/preview'))).toBeNull();
    expect(cacheKeyOf(new Request('http://h/RSC/R/preview/about.txt'))).toBeNull();
    expect(cacheKeyOf(new Request('http://h/RSC/R/preview.txt'))).toBeNull();
    expect(
      cacheKeyOf(new Request('http://h/about', { headers: { cookie: 'folio_session=abc' } })),
    ).toBeNull();
    expect(cacheKeyOf(new Request('http://h/about', { method: 'POST' }))).toBeNull();
  });
});

describe('render cache', () => {
  test('a second request is a hit with the same strong ETag, and a matching ETag gets 304', async () => {
    const h = harness();
    const first = await h.get('/about');
    expect(first.headers.get('x-folio-cache')).toBe('miss');
    expect(first.headers.get('cache-control')).toBe(PUBLIC_CACHE_CONTROL);
    const etag = first.headers.get('etag') ?? '';
    expect(etag).toMatch(/^"[0-9a-z]+-[0-9a-z]+"$/);
    const second = await h.get('/about');
    expect(second.headers.get('x-folio-cache')).toBe('hit');
    expect(second.headers.get('etag')).toBe(etag);
    expect(h.renders()).toBe(1);
    const notModified = await h.get('/about', { 'if-none-match': etag });
    expect(notModified.status).toBe(304);
    expect(await notModified.text()).toBe('');
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

  test('never stores private responses, sessions, or a render that failed part-way', async () => {
    const h = harness();
    await h.get('/private');
    await h.get('/private');
    await h.get('/about', { cookie: 'folio_session=abc' });
    await h.get('/about', { cookie: 'folio_session=abc' });
    await h.get('/broken');
    await h.get('/broken');
    expect(h.renders()).toBe(6);
    expect(h.cache.size.entries).toBe(0);
  });

  test('serves brotli or gzip computed once, by Accept-Encoding', async () => {
    const h = harness();
    const plain = await (await h.get('/about')).text();
    const br = await h.get('/about', { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.headers.get('content-encoding')).toBe('br');
    const gzip = await h.get('/about', { 'accept-encoding': 'gzip' });
    expect(gzip.headers.get('content-encoding')).toBe('gzip');
    expect(new TextDecoder().decode(Bun.gunzipSync(new Uint8Array(await gzip.arrayBuffer())))).toBe(
      plain,
    );
    expect(gzip.headers.get('vary')).toBe('Accept-Encoding');
    expect(h.renders()).toBe(1);
  });

  test('evicts the least recently used entries to stay under its byte budget', async () => {
    const h = harness({ maxBytes: 9_000, body: 'y'.repeat(3000) });
    await h.get('/a');
    await h.get('/b');
    await h.get('/a');
    await h.get('/c');
    expect(h.cache.size.bytes).toBeLessThanOrEqual(9_000);
    const rendersBefore = h.renders();
    await h.get('/a');
    expect(h.renders()).toBe(rendersBefore);
    await h.get('/b');
    expect(h.renders()).toBe(rendersBefore + 1);
  });

  test('concurrent misses for one page render it once', async () => {
    const h = harness();
    await Promise.all(Array.from({ length: 10 }, () => h.get('/about')));
    expect(h.renders()).toBe(1);
  });
});

test('when the content version cannot be read, the cache steps aside and requests still render', async () => {
  let renders = 0;
  const cache = createRenderCache({
    contentVersion: () => {
      throw new Error('no such table: settings');
    },
  });
  const handler = async () => {
    renders += 1;
    return new Response('page', { headers: { 'content-type': 'text/html' } });
  };
  expect(await (await cache.handle(new Request('http://h/about'), handler)).text()).toBe('page');
  await cache.handle(new Request('http://h/about'), handler);
  expect(renders).toBe(2);
  expect(cache.lookup(new Request('http://h/about'))).toBeNull();
});
