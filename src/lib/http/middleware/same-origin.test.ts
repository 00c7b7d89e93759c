import { describe, expect, test } from 'bun:test';
import { requestLevelApp } from '../../../../tests/request-level';
import { sameOrigin } from './same-origin';

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

  test('lets the site itself through, also as https behind a TLS-terminating proxy', async () => {
    expect((await post({ origin: 'http://folio.test' })).status).toBe(200);
    expect((await post({ origin: 'https://folio.test' })).status).toBe(200);
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
});
