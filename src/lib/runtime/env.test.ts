import { describe, expect, test } from 'bun:test';
import path from 'node:path';
import { engineOf, maskedUrl, sqliteFileOf } from '../data/db';
import { ENVIRONMENT_VARIABLES, parseEnv } from './env';

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
    expect(() => parseEnv({ TRUST_PROXY: 'yes' })).toThrow(/TRUST_PROXY/);
    expect(() => parseEnv({ FOLIO_RENDER_CACHE: 'maybe' })).toThrow(/FOLIO_RENDER_CACHE/);
  });

  test('SMTP_URL needs MAIL_FROM: refused in one line that names both, never the password', () => {
    const url = 'smtp://folio:s3cret-pass@mail.example.com:587';
    let message = '';
    try {
      parseEnv({ SMTP_URL: url });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toBe(
      'Invalid environment: MAIL_FROM: is required when SMTP_URL is set (the From address of invitation emails)',
    );
    expect(message).not.toContain('s3cret');
    const env = parseEnv({ SMTP_URL: url, MAIL_FROM: 'Folio <folio@example.com>' });
    expect(env.SMTP_URL).toBe(url);
    expect(env.MAIL_FROM).toBe('Folio <folio@example.com>');
    expect(
      parseEnv({ SMTP_URL: 'smtps://u:p@mail.example.com:465', MAIL_FROM: 'a@b.io' }).SMTP_URL,
    ).toBe('smtps://u:p@mail.example.com:465');
    // A local catcher's sender (README): no dot needed after the @.
    expect(
      parseEnv({ SMTP_URL: 'smtp://127.0.0.1:1025', MAIL_FROM: 'folio@localhost' }).MAIL_FROM,
    ).toBe('folio@localhost');
    // Unset (or empty): no email, as without it.
    expect(parseEnv({ SMTP_URL: '', MAIL_FROM: '' }).SMTP_URL).toBeUndefined();
    expect(() => parseEnv({ SMTP_URL: 'http://mail.example.com', MAIL_FROM: 'a@b.io' })).toThrow(
      /SMTP_URL: must be smtp:/,
    );
    expect(() => parseEnv({ SMTP_URL: url, MAIL_FROM: 'a@b.io\r\nBcc: c@d.io' })).toThrow(
      /MAIL_FROM: must be an email address/,
    );
    expect(() => parseEnv({ SMTP_URL: url, MAIL_FROM: 'a@b.io, c@d.io' })).toThrow(/MAIL_FROM/);
  });

  test('trims a trailing slash from SITE_URL', () => {
    expect(parseEnv({ SITE_URL: 'https://example.com/' }).SITE_URL).toBe('https://example.com');
  });

  test('DATABASE_URL names SQLite or PostgreSQL', () => {
    for (const url of ['postgres://u@db:5432/folio', 'postgresql://u:p@db/folio', 'sqlite:x.db'])
      expect(parseEnv({ DATABASE_URL: url }).DATABASE_URL).toBe(url);
    expect(engineOf('postgresql://u@db/folio')).toBe('postgres');
    expect(engineOf('sqlite::memory:')).toBe('sqlite');
    expect(engineOf('mysql://x')).toBeNull();
    expect(sqliteFileOf('sqlite::memory:')).toBe(':memory:');
    expect(sqliteFileOf('sqlite:data/folio.db')).toBe('data/folio.db');
    expect(maskedUrl('postgres://folio:s3cret@db:5432/folio')).toBe(
      'postgres://folio:***@db:5432/folio',
    );
  });
});

test("the README's environment table lists every variable Folio reads", async () => {
  const readme = await Bun.file(path.join(import.meta.dir, '../../../README.md')).text();
  const table = readme.slice(
    readme.indexOf('## Environment'),
    readme.indexOf('\n## ', readme.indexOf('## Environment') + 5),
  );
  const missing = ENVIRONMENT_VARIABLES.filter((name) => !table.includes(`\`${name}\``));
  expect(missing).toEqual([]);
});
