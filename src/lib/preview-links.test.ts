import { describe, expect, test } from 'bun:test';
import { checkPreviewToken, createPreviewToken, parseTtl, previewLinkPath } from './preview-links';
import { constantTimeEqual } from './signing';

const SECRET = 'test-secret-that-is-long-enough-0123456789';

describe('preview links', () => {
  test('a fresh link opens its page only', () => {
    const token = createPreviewToken(SECRET, 'about', { ttlSeconds: 60, now: 1_000_000 });
    expect(checkPreviewToken(SECRET, token, 'about', 1_000_000).ok).toBe(true);
    expect(checkPreviewToken(SECRET, token, 'contact', 1_000_000)).toEqual({
      ok: false,
      reason: 'wrong-page',
    });
  });

  test('an expired link is refused as expired', () => {
    const token = createPreviewToken(SECRET, 'about', { ttlSeconds: 60, now: 1_000_000 });
    expect(checkPreviewToken(SECRET, token, 'about', 1_000_000 + 61_000)).toEqual({
      ok: false,
      reason: 'expired',
    });
  });

  test('tampered, truncated, foreign-signed and garbage links are invalid', () => {
    const token = createPreviewToken(SECRET, 'about', { ttlSeconds: 60 });
    const [body, signature] = token.split('.') as [string, string];
    const forgedBody = Buffer.from(
      JSON.stringify({ v: 1, slug: 'about', exp: 9_999_999_999 }),
    ).toString('base64url');
    for (const bad of [
      `${forgedBody}.${signature}`,
      `${body}.${signature.slice(0, -2)}`,
      createPreviewToken('another-secret-another-secret-0123456', 'about'),
      '',
      '.',
      'garbage',
      `${body}.${signature}.extra`,
      'x'.repeat(10_000),
    ]) {
      expect(checkPreviewToken(SECRET, bad, 'about').ok).toBe(false);
    }
  });

  test('ttl parsing and link paths', () => {
    expect(parseTtl('90s')).toBe(90);
    expect(parseTtl('15m')).toBe(900);
    expect(parseTtl('24h')).toBe(86_400);
    expect(parseTtl('7d')).toBe(604_800);
    for (const bad of ['', '10', '1w', '-1h', '0h', 'h', '1.5h']) expect(parseTtl(bad)).toBeNull();
    expect(previewLinkPath('home', 'abc')).toBe('/preview?share=abc');
    expect(previewLinkPath('about', 'a.b')).toBe('/preview/about?share=a.b');
  });

  test('constant-time comparison', () => {
    expect(constantTimeEqual('abc', 'abc')).toBe(true);
    expect(constantTimeEqual('abc', 'abd')).toBe(false);
    expect(constantTimeEqual('abc', 'abcd')).toBe(false);
  });
});
