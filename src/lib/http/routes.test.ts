import { describe, expect, test } from 'bun:test';
import {
  ALLOWED_METHODS,
  canonicalLocation,
  clientAddressOf,
  isHttps,
  isValidSlug,
  rewriteLinksForPreview,
  routeOf,
  slugFromTitle,
  validateNewSlug,
} from './routes';

describe('slug rules', () => {
  test('valid slugs: lowercase letters, digits and single hyphens, 1 to 100 characters', () => {
    for (const slug of ['a', 'about', 'release-notes', 'v2', '2026-plans', 'a'.repeat(100)]) {
      expect(isValidSlug(slug)).toBe(true);
    }
    for (const slug of ['', 'A', 'a--b', '-a', 'a-', 'a_b', 'a.b', 'é', 'a b', 'a'.repeat(101)]) {
      expect(isValidSlug(slug)).toBe(false);
    }
  });

  test('reserved names cannot be new pages', () => {
    for (const slug of ['preview', 'api', 'rsc', 'assets', 'monitoring', 'healthz', '404']) {
      expect(validateNewSlug(slug)).toContain('reserved');
    }
    expect(validateNewSlug('fresh-page')).toBeNull();
    expect(validateNewSlug('Bad')).toContain('lowercase');
  });
});

describe('routeOf', () => {
  test('names every kind of route', () => {
    expect(routeOf('/')).toEqual({ kind: 'page', slug: 'home' });
    expect(routeOf('/about')).toEqual({ kind: 'page', slug: 'about' });
    expect(routeOf('/preview')).toEqual({ kind: 'preview' });
    expect(routeOf('/preview/home')).toEqual({ kind: 'preview', slug: 'home' });
    expect(routeOf('/preview/about')).toEqual({ kind: 'preview', slug: 'about' });
    expect(routeOf('/RSC/R/_root.txt')).toEqual({
      kind: 'page-data',
      slug: 'home',
      preview: false,
    });
    expect(routeOf('/RSC/R/about.txt')).toEqual({
      kind: 'page-data',
      slug: 'about',
      preview: false,
    });
    expect(routeOf('/RSC/R/preview/about.txt')).toEqual({
      kind: 'page-data',
      slug: 'about',
      preview: true,
    });
    expect(routeOf('/RSC/F/abc/publishPage.txt')).toEqual({ kind: 'action' });
    expect(routeOf('/assets/index-x.js')).toEqual({ kind: 'asset' });
    for (const [path, kind] of [
      ['/sitemap.xml', 'sitemap'],
      ['/feed.xml', 'feed'],
      ['/robots.txt', 'robots'],
      ['/healthz', 'healthz'],
      ['/monitoring', 'monitoring'],
      ['/favicon.svg', 'file'],
    ])
      expect(routeOf(path as string).kind).toBe(kind as never);
  });

  test('page data for an address no page is at is still page data (the router’s 404 payload)', () => {
    expect(routeOf('/RSC/R/A%20b.txt')).toEqual({ kind: 'page-data', preview: false });
    expect(routeOf('/RSC/R/a/b.txt')).toEqual({ kind: 'page-data', preview: false });
    expect(routeOf('/RSC/R/preview/a/b.txt')).toEqual({ kind: 'page-data', preview: true });
  });

  test('paths no route serves are the router’s, and never throw', () => {
    for (const path of ['/a/b', '/preview/a/b', '/RSC/garbage', '/apis/x', '/404', '//', '/%00'])
      expect(routeOf(path).kind, path).toBe('other');
  });

  test('the content API is everything under /api, answered outside Waku (docs/decisions/0044)', () => {
    for (const path of ['/api', '/api/', '/api/v1/posts', '/api/v1/posts/about', '/api/v2/x/y/z'])
      expect(routeOf(path).kind, path).toBe('api');
    expect(canonicalLocation('/api/v1/posts')).toBeNull();
    expect(ALLOWED_METHODS.api).toEqual(['GET', 'HEAD', 'OPTIONS']);
  });
});

describe('slugFromTitle', () => {
  test('suggests a valid slug from any title', () => {
    expect(slugFromTitle('Café & Bar, 2026!')).toBe('cafe-bar-2026');
    expect(slugFromTitle('  Hello   World  ')).toBe('hello-world');
    expect(slugFromTitle('日本語')).toBe('');
    expect(slugFromTitle('a'.repeat(150))).toHaveLength(100);
    expect(isValidSlug(slugFromTitle(`${'word '.repeat(40)}end`))).toBe(true);
  });
});

describe('canonicalLocation', () => {
  test('redirects trailing and doubled slashes, upper case and /home; accepts canonical paths', () => {
    expect(canonicalLocation('/')).toBeNull();
    expect(canonicalLocation('/about')).toBeNull();
    expect(canonicalLocation('/preview/about')).toBeNull();
    expect(canonicalLocation('/about/')).toBe('/about');
    expect(canonicalLocation('/About')).toBe('/about');
    expect(canonicalLocation('/ABOUT/')).toBe('/about');
    expect(canonicalLocation('/about//')).toBe('/about');
    expect(canonicalLocation('//about')).toBe('/about');
    expect(canonicalLocation('//')).toBe('/');
    expect(canonicalLocation('/home')).toBe('/');
    expect(canonicalLocation('/preview/')).toBe('/preview');
    expect(canonicalLocation('/preview/home')).toBeNull();
    expect(canonicalLocation('/preview/Home/')).toBe('/preview/home');
    expect(canonicalLocation('/index.html')).toBe('/');
    expect(canonicalLocation('/about/index.html')).toBe('/about');
    expect(canonicalLocation('/preview/index.html')).toBe('/preview');
  });

  test('hostile paths are left to the router, never turned into an off-site Location', () => {
    for (const path of [
      '/..',
      '/%2e%2e',
      '/%00',
      '/%zz',
      `/${'a'.repeat(5000)}`,
      '/héllo',
      '/a/b',
      '/a\\b',
      '/a--b',
      '/-a',
      '/RSC/R/about.txt',
      '/healthz',
      'about',
      '',
    ])
      expect(canonicalLocation(path), path).toBeNull();
    for (const path of ['//evil.example', '///evil.example/', '//evil.example//'])
      expect(canonicalLocation(path) ?? '/', path).toStartWith('/');
    expect(canonicalLocation('//evil.example')).not.toStartWith('//');
  });
});

describe('request facts', () => {
  const request = (headers: Record<string, string>, url = 'http://h/') =>
    new Request(url, { headers });

  test('HTTPS: the server’s own TLS, or the nearest trusted proxy’s word', () => {
    expect(isHttps(request({}, 'https://h/'), 0)).toBe(true);
    expect(isHttps(request({ 'x-forwarded-proto': 'https' }), 0)).toBe(false);
    expect(isHttps(request({ 'x-forwarded-proto': 'https' }), 1)).toBe(true);
    expect(isHttps(request({ 'x-forwarded-proto': 'https, http' }), 1)).toBe(false);
  });

  test('client address: the socket, or the address the outermost trusted proxy saw', () => {
    const chain = request({ 'x-forwarded-for': '1.1.1.1, 2.2.2.2, 3.3.3.3' });
    expect(clientAddressOf(chain, '9.9.9.9', 0)).toBe('9.9.9.9');
    expect(clientAddressOf(chain, '9.9.9.9', 1)).toBe('3.3.3.3');
    expect(clientAddressOf(chain, '9.9.9.9', 3)).toBe('1.1.1.1');
    expect(clientAddressOf(chain, '9.9.9.9', 9)).toBe('1.1.1.1');
    expect(clientAddressOf(request({}), '9.9.9.9', 1)).toBe('9.9.9.9');
  });
});

test('preview links stay inside preview', () => {
  expect(
    rewriteLinksForPreview(
      '<a href="/about">x</a> <a href="/">y</a> <a href="//x.example/a">z</a>',
    ),
  ).toBe(
    '<a href="/preview/about">x</a> <a href="/preview/home">y</a> <a href="//x.example/a">z</a>',
  );
});
