import { describe, expect, test } from 'bun:test';
import { chooseEncoding, clientCopyIsCurrent } from './negotiation';

describe('chooseEncoding', () => {
  test('follows q-values, prefers brotli on a tie, and falls back to identity', () => {
    const cases: [string | null, string][] = [
      [null, 'identity'],
      ['', 'identity'],
      ['gzip, deflate, br, zstd', 'br'],
      ['br;q=0, gzip', 'gzip'],
      ['gzip;q=0.5, br;q=0.8', 'br'],
      ['gzip;q=1, br;q=0.5', 'gzip'],
      ['*', 'br'],
      ['*;q=0', 'identity'],
      ['identity;q=0', 'identity'],
      ['x-gzip', 'identity'],
      ['GZIP', 'gzip'],
    ];
    for (const [header, expected] of cases)
      expect(chooseEncoding(header), String(header)).toBe(expected as never);
  });

  test('offers only identity for what is not worth compressing', () => {
    expect(chooseEncoding('br, gzip', false)).toBe('identity');
  });
});

describe('clientCopyIsCurrent', () => {
  const withHeader = (value: string | null, extra: Record<string, string> = {}) =>
    new Request('http://h/', {
      headers: { ...(value === null ? {} : { 'if-none-match': value }), ...extra },
    });
  test('matches a tag, a list, weak tags and *', () => {
    for (const header of ['"a"', 'W/"a"', '"x", "a"', '"x",W/"a" ,"y"', '*'])
      expect(clientCopyIsCurrent(withHeader(header), '"a"'), header).toBe(true);
    for (const header of [null, '"b"', 'a', ''])
      expect(clientCopyIsCurrent(withHeader(header), '"a"'), String(header)).toBe(false);
  });

  test('a client asking past its cache (no-cache) gets the whole response', () => {
    expect(clientCopyIsCurrent(withHeader('"a"', { 'cache-control': 'no-cache' }), '"a"')).toBe(
      false,
    );
  });
});
