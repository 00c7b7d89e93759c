import { describe, expect, test } from 'bun:test';
import { canonicalPagePath, isValidSlug, validateNewSlug } from './slug';

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

describe('canonicalPagePath', () => {
  test('redirects trailing slashes, upper case and /home; accepts canonical paths', () => {
    expect(canonicalPagePath('/')).toEqual({ kind: 'ok', slug: null });
    expect(canonicalPagePath('/about')).toEqual({ kind: 'ok', slug: 'about' });
    expect(canonicalPagePath('/about/')).toEqual({ kind: 'redirect', location: '/about' });
    expect(canonicalPagePath('/About')).toEqual({ kind: 'redirect', location: '/about' });
    expect(canonicalPagePath('/ABOUT/')).toEqual({ kind: 'redirect', location: '/about' });
    expect(canonicalPagePath('/home')).toEqual({ kind: 'redirect', location: '/' });
  });

  test('hostile paths are not-found and never throw', () => {
    const hostile = [
      '/..',
      '/%2e%2e',
      '/%00',
      '/%',
      '/%zz',
      `/${'a'.repeat(5000)}`,
      '/héllo',
      '/😀',
      '//',
      '//about',
      '/a/b',
      '/a\\b',
      '/a--b',
      '/-a',
      'about',
      '',
    ];
    for (const path of hostile) {
      expect(() => canonicalPagePath(path)).not.toThrow();
      expect(canonicalPagePath(path).kind).toBe('not-found');
    }
  });
});
