import { describe, expect, test } from 'bun:test';
import { EVERYTHING, pagesChanged } from '../data/content-changes';
import { routeOf } from './routes';
import {
  MAX_KEYS_BYTES,
  purgeKeysOf,
  SITE_KEY,
  surrogateKeysOf,
  withSurrogateKeys,
} from './surrogate-keys';

const keysAt = (pathname: string) => surrogateKeysOf(routeOf(pathname), pathname);
const HASH = '0123456789abcdef0123456789abcdef';

describe('the keys of a public answer', () => {
  test('name the page (the home page by its slug), the listings, the image, and site on all', () => {
    expect(keysAt('/about')).toEqual(['page-about', SITE_KEY]);
    expect(keysAt('/')).toEqual(['page-home', SITE_KEY]);
    expect(keysAt('/RSC/R/about.txt')).toEqual(['page-about', SITE_KEY]);
    expect(keysAt('/feed.xml')).toEqual(['feed', SITE_KEY]);
    expect(keysAt('/sitemap.xml')).toEqual(['sitemap', SITE_KEY]);
    expect(keysAt('/robots.txt')).toEqual([SITE_KEY]);
    expect(keysAt('/api/v1/posts')).toEqual(['api', SITE_KEY]);
    expect(keysAt(`/media/${HASH}/w640.webp`)).toEqual([`media-${HASH}`, SITE_KEY]);
  });

  test('are none for what is never public: previews, their data, actions, health', () => {
    for (const pathname of [
      '/preview',
      '/preview/about',
      '/RSC/R/preview/about.txt',
      '/healthz',
      '/RSC/F/abc/save.txt',
      '/assets/x.js',
    ])
      expect(keysAt(pathname), pathname).toBeNull();
  });
});

describe('the keys a change purges', () => {
  test('are its pages and the listings every page change moves; everything is site', () => {
    expect(purgeKeysOf(pagesChanged('about', 'topic-news'))).toEqual([
      'page-about',
      'page-topic-news',
      'feed',
      'sitemap',
      'api',
    ]);
    expect(purgeKeysOf(EVERYTHING)).toEqual([SITE_KEY]);
  });

  test('are site when they would not fit one header', () => {
    const slugs = Array.from({ length: 60 }, (_, i) => `${'s'.repeat(95)}${i}`);
    expect(slugs.join(' ').length).toBeGreaterThan(MAX_KEYS_BYTES);
    expect(purgeKeysOf({ pages: slugs })).toEqual([SITE_KEY]);
  });

  test('are site for a name the VCL could not take as it is', () => {
    expect(purgeKeysOf({ pages: ['a b|.*'] })).toEqual([SITE_KEY]);
  });
});

describe('withSurrogateKeys', () => {
  const publicAnswer = () =>
    new Response('x', { headers: { 'cache-control': 'public, max-age=0, s-maxage=60' } });

  test('puts the same keys in Surrogate-Key (spaces) and Cache-Tag (commas) of a public answer', () => {
    const response = withSurrogateKeys(publicAnswer(), routeOf('/about'), '/about');
    expect(response.headers.get('surrogate-key')).toBe('page-about site');
    expect(response.headers.get('cache-tag')).toBe('page-about,site');
  });

  test('takes them off an answer no cache may keep, even at a public address', () => {
    const failed = new Response('x', { headers: { 'cache-control': 'no-store' } });
    failed.headers.set('surrogate-key', 'page-about site');
    const response = withSurrogateKeys(failed, routeOf('/about'), '/about');
    expect(response.headers.has('surrogate-key')).toBe(false);
    expect(response.headers.has('cache-tag')).toBe(false);
    const preview = withSurrogateKeys(
      new Response('x', { headers: { 'cache-control': 'private, no-store' } }),
      routeOf('/preview/about'),
      '/preview/about',
    );
    expect(preview.headers.has('surrogate-key')).toBe(false);
  });

  test('copies an answer whose headers cannot change (a fetch() response)', async () => {
    const server = Bun.serve({
      port: 0,
      hostname: '127.0.0.1',
      fetch: () => new Response('x', { headers: { 'cache-control': 'public, s-maxage=60' } }),
    });
    try {
      const fetched = await fetch(server.url);
      const response = withSurrogateKeys(fetched, routeOf('/feed.xml'), '/feed.xml');
      expect(response.headers.get('cache-tag')).toBe('feed,site');
      await response.arrayBuffer();
    } finally {
      await server.stop(true);
    }
  });
});
