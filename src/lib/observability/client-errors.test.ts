import { describe, expect, test } from 'bun:test';
import { sampledForTracing, serverDigestOf } from './client-errors';

describe('sampledForTracing', () => {
  test('follows the rate against the random draw', () => {
    expect(sampledForTracing('1', 0.999_999)).toBe(true);
    expect(sampledForTracing('0.25', 0.2)).toBe(true);
    expect(sampledForTracing('0.25', 0.25)).toBe(false);
    expect(sampledForTracing('0', 0)).toBe(false);
  });

  test('treats a missing or unreadable rate as not sampled', () => {
    for (const rate of [undefined, '', 'abc', 'NaN', '-1', 'Infinity'])
      expect(sampledForTracing(rate, 0)).toBe(false);
  });
});

describe('serverDigestOf', () => {
  test('accepts only a server digest', () => {
    expect(serverDigestOf({ digest: 'a'.repeat(32) })).toBe('a'.repeat(32));
    expect(serverDigestOf({ digest: 'A'.repeat(32) })).toBeUndefined();
    expect(serverDigestOf(new Error('x'))).toBeUndefined();
    expect(serverDigestOf(null)).toBeUndefined();
  });
});
