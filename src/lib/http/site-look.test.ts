import { describe, expect, test } from 'bun:test';
import type { SiteSettings } from '../content/types';
import { createSiteLook, DEFAULT_LOOK } from './site-look';

const settings = (title: string, language = 'en', favicon: string | null = null) =>
  ({ title, language, favicon }) as SiteSettings;

describe('the site’s look for the front door’s 404s', () => {
  test('read once per content version; a new version reads again', async () => {
    let reads = 0;
    let version = 1;
    const look = createSiteLook(
      async () => {
        reads += 1;
        return settings(`Site ${reads}`, 'ar', 'f'.repeat(32));
      },
      () => version,
    );
    expect(await look()).toEqual({
      title: 'Site 1',
      language: 'ar',
      direction: 'rtl',
      favicon: 'f'.repeat(32),
    });
    await Promise.all([look(), look(), look()]);
    expect(reads).toBe(1);
    version = 2;
    expect((await look()).title).toBe('Site 2');
    expect(reads).toBe(2);
  });

  test('without the database, the defaults, and the next request asks again', async () => {
    let fail = true;
    const look = createSiteLook(
      async () => {
        if (fail) throw new Error('database unreachable');
        return settings('Back');
      },
      () => 7,
    );
    expect(await look()).toEqual(DEFAULT_LOOK);
    fail = false;
    expect((await look()).title).toBe('Back');
  });

  test('no version followed: every call reads', async () => {
    let reads = 0;
    const look = createSiteLook(
      async () => settings(`Read ${++reads}`),
      () => {
        throw new Error('no content version followed');
      },
    );
    await look();
    expect((await look()).title).toBe('Read 2');
  });
});
