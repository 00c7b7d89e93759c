import { describe, expect, test } from 'bun:test';
import { databasePathFromUrl, parseEnv } from './env';

describe('parseEnv', () => {
  test('defaults', () => {
    const env = parseEnv({});
    expect(env.PORT).toBe(3000);
    expect(env.DATABASE_URL).toBe('sqlite:data/folio.db');
    expect(env.SENTRY_DSN).toBeUndefined();
  });

  test('names each bad variable', () => {
    expect(() => parseEnv({ PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => parseEnv({ DATABASE_URL: 'mysql://x' })).toThrow(/DATABASE_URL/);
    expect(() => parseEnv({ SESSION_SECRET: 'short' })).toThrow(/SESSION_SECRET/);
    expect(() => parseEnv({ SITE_URL: 'example.com' })).toThrow(/SITE_URL/);
    expect(() => parseEnv({ SENTRY_TRACES_SAMPLE_RATE: '2' })).toThrow(/SENTRY_TRACES_SAMPLE_RATE/);
  });

  test('trims a trailing slash from SITE_URL and maps database URLs to paths', () => {
    expect(parseEnv({ SITE_URL: 'https://example.com/' }).SITE_URL).toBe('https://example.com');
    expect(databasePathFromUrl('sqlite::memory:')).toBe(':memory:');
    expect(databasePathFromUrl('sqlite:data/folio.db')).toBe('data/folio.db');
  });
});
