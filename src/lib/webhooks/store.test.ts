import { describe, expect, test } from 'bun:test';
import {
  BACKOFF_MS,
  backoffAfter,
  checkEndpointUrl,
  checkEvents,
  MAX_ATTEMPTS,
  newSecret,
} from './store';

describe('the retry schedule', () => {
  test('waits 5 s, 30 s, 2 min, 10 min, 1 h, 3 h, 6 h, 6 h, 8 h, then gives up', () => {
    const waits = Array.from({ length: MAX_ATTEMPTS }, (_, index) => backoffAfter(index + 1));
    expect(waits).toEqual([
      5_000,
      30_000,
      120_000,
      600_000,
      3_600_000,
      10_800_000,
      21_600_000,
      21_600_000,
      28_800_000,
      null,
    ]);
    expect(MAX_ATTEMPTS).toBe(10);
  });

  test('spans about a day, no less', () => {
    const total = BACKOFF_MS.reduce((sum, wait) => sum + wait, 0);
    expect(total).toBeGreaterThanOrEqual(24 * 3_600_000);
    expect(total).toBeLessThan(25 * 3_600_000);
  });
});

describe('registering an endpoint', () => {
  const strict = { allowPrivate: false };
  test('takes http(s) URLs to public hosts', () => {
    expect(checkEndpointUrl(' https://hooks.example.com/folio?x=1 ', strict)).toBe(
      'https://hooks.example.com/folio?x=1',
    );
  });

  test.each([
    ['', /1 to/],
    ['not a url', /not a URL/],
    ['ftp://example.com/', /https:\/\//],
    ['https://user:pw@example.com/', /user name/],
    ['http://127.0.0.1:8080/', /public internet/],
    ['http://[::ffff:169.254.169.254]/', /public internet/],
    ['http://2130706433/', /public internet/],
    ['http://localhost:3000/', /localhost/],
  ])('refuses %p', (url, message) => {
    expect(() => checkEndpointUrl(url, strict)).toThrow(message);
  });

  test('loopback is allowed with the setting', () => {
    expect(checkEndpointUrl('http://127.0.0.1:8080/hook', { allowPrivate: true })).toBe(
      'http://127.0.0.1:8080/hook',
    );
  });

  test('events are checked and kept in the table order', () => {
    expect(checkEvents('settings.changed, page.published')).toEqual([
      'page.published',
      'settings.changed',
    ]);
    expect(() => checkEvents('page.exploded')).toThrow(/Unknown event page.exploded/);
    expect(() => checkEvents('')).toThrow(/at least one/);
  });

  test('secrets are in the Standard Webhooks form and never repeat', () => {
    const secret = newSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(secret.slice(6), 'base64')).toHaveLength(32);
    expect(newSecret()).not.toBe(secret);
  });
});
