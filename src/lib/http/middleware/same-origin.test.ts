import { describe, expect, test } from 'bun:test';
import { requestLevelApp } from '../../../../tests/request-level';
import { allowedOrigins, sameOrigin } from './same-origin';

const app = requestLevelApp([sameOrigin], (c) => c.text('reached'));
const post = (headers: Record<string, string>) =>
  app('/preview/about', { method: 'POST', headers, body: 'x' });

describe('sameOrigin', () => {
  test('refuses POSTs from other sites, null origins and cross-site fetch metadata', async () => {
    const refused: Record<string, string>[] = [
      { origin: 'https://evil.example' },
      { origin: 'null' },
      { origin: 'not a url' },
      { origin: 'http://folio.test.evil.example' },
      { 'sec-fetch-site': 'cross-site' },
      // Neither Origin nor fetch metadata, but a Referer from elsewhere (hostile pass, issue 23).
      { referer: 'http://evil.example/' },
      { referer: 'not a url' },
    ];
    for (const headers of refused) {
      const response = await post(headers);
      expect(response.status, JSON.stringify(headers)).toBe(403);
      expect(await response.text()).toContain('must come from this site');
    }
  });

  test('lets the site itself through', async () => {
    expect((await post({ origin: 'http://folio.test' })).status).toBe(200);
    expect((await post({ 'sec-fetch-site': 'same-origin' })).status).toBe(200);
    expect((await post({ referer: 'http://folio.test/preview/about?edit' })).status).toBe(200);
    // No browser's request at all (the CLI, curl): nothing says it came from elsewhere.
    expect((await post({})).status).toBe(200);
    // The Origin, when there is one, is what counts.
    expect(
      (await post({ origin: 'http://folio.test', referer: 'http://evil.example/' })).status,
    ).toBe(200);
    expect((await app('/about', { headers: { origin: 'https://evil.example' } })).status).toBe(200);
  });

  // Hostile pass 2 (issue 28): the same host over the other scheme is another origin.
  test('compares the scheme: https only through a trusted proxy that says so', async () => {
    // Plain http, no proxy believed: an https Origin is not this site's.
    expect((await post({ origin: 'https://folio.test' })).status).toBe(403);
    const proxied = requestLevelApp([sameOrigin], (c) => c.text('reached'), {
      trustedProxyHops: 1,
    });
    const via = (origin: string) =>
      proxied('/preview/about', {
        method: 'POST',
        headers: { origin, 'x-forwarded-proto': 'https' },
        body: 'x',
      });
    expect((await via('https://folio.test')).status).toBe(200);
    expect((await via('http://folio.test')).status).toBe(403);
    expect((await via('https://folio.test:8443')).status).toBe(403);
  });

  test('SITE_URL says the scheme of its own host; another host answers with its own', () => {
    const site = 'https://folio.test';
    expect(allowedOrigins({ host: 'folio.test', https: false }, site)).toEqual([site]);
    expect(allowedOrigins({ host: 'folio.test', https: true }, undefined)).toEqual([site]);
    expect(allowedOrigins({ host: '127.0.0.1:3000', https: false }, site)).toEqual([
      site,
      'http://127.0.0.1:3000',
    ]);
    expect(allowedOrigins({ host: 'localhost:4000', https: false }, undefined)).toEqual([
      'http://localhost:4000',
    ]);
  });
});
