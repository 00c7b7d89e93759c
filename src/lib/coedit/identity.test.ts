import { describe, expect, test } from 'bun:test';
import { documentIdentity, hashOf, parseIdentity } from './identity';

describe('a document’s identity', () => {
  test('the page and when its row was made: a row made again is another document', () => {
    const first = documentIdentity(42, '2026-11-27T09:00:00.000Z');
    expect(first).toBe(`42.${Date.parse('2026-11-27T09:00:00.000Z').toString(36)}`);
    expect(documentIdentity(42, '2026-11-27T09:00:00.000Z')).toBe(first);
    expect(documentIdentity(42, '2026-11-27T09:00:00.001Z')).not.toBe(first);
    expect(documentIdentity(43, '2026-11-27T09:00:00.000Z')).not.toBe(first);
  });

  test('a creation time that is not a date still names its row', () => {
    const odd = documentIdentity(7, 'yesterday-ish');
    expect(odd).toMatch(/^7\.x[0-9a-f]{8}$/);
    expect(documentIdentity(7, 'yesterday-ish')).toBe(odd);
    expect(parseIdentity(odd)).toEqual({ pageId: 7, identity: odd });
  });

  test('read back as the page it is of; anything else is no identity', () => {
    const identity = documentIdentity(42, '2026-11-27T09:00:00.000Z');
    expect(parseIdentity(identity)).toEqual({ pageId: 42, identity });
    for (const bad of [
      '',
      '42',
      '42.',
      '.abc',
      '0.abc',
      '-1.abc',
      '42.ABC',
      '42.a:b',
      'x'.repeat(99),
    ])
      expect(parseIdentity(bad)).toBeNull();
  });

  test('the hash is short and stable', () => {
    expect(hashOf('a@example.com')).toMatch(/^[0-9a-f]{8}$/);
    expect(hashOf('a@example.com')).toBe(hashOf('a@example.com'));
    expect(hashOf('a@example.com')).not.toBe(hashOf('b@example.com'));
  });
});
