import { describe, expect, test } from 'bun:test';
import { targetUrlOf } from '../navigation/client-runtime';
import {
  pageAddressOfPageData,
  pageDataAddress,
  pageDataForRouter,
  wakuPageDataAddress,
} from './page-data-address';
import { mayBePageAddress } from './routes';

const at = (address: string) => new URL(address, 'http://folio.test');

describe('page data at the page address', () => {
  test('the browser asks at the page address, with the stamp', () => {
    expect(pageAddressOfPageData('/RSC/R/about.txt?query=', 'b1')).toBe('/about?_rsc=b1');
    expect(pageAddressOfPageData('/RSC/R/_root.txt', 'b1')).toBe('/?_rsc=b1');
    expect(pageAddressOfPageData('/RSC/R/preview/about.txt?query=edit', 'b1')).toBe(
      '/preview/about?edit&_rsc=b1',
    );
    expect(pageDataAddress('/preview?media', 'b 1')).toBe('/preview?media&_rsc=b%201');
  });

  test('the server reads it back as Waku’s page-data address', () => {
    expect(wakuPageDataAddress(at('/about?_rsc=b1'), '1', mayBePageAddress)).toEqual({
      address: '/RSC/R/about.txt',
      stamp: 'b1',
    });
    expect(
      wakuPageDataAddress(at('/preview/about?edit&_rsc=b1'), '1', mayBePageAddress)?.address,
    ).toBe('/RSC/R/preview/about.txt?query=edit');
  });

  // The hostile pass's repros.
  test('a path another site would be is never made an address, nor a full page load', () => {
    for (const path of ['//evil.example', '/\\evil.example', '///evil.example/x'])
      expect(pageAddressOfPageData(`/RSC/R${path}.txt`, 'b1')).toBe(`/RSC/R${path}.txt`);
    expect(targetUrlOf('R//evil.example', new URLSearchParams())).toBe('/evil.example');
  });

  test('the flag without the parameter, or at no page’s address, is a plain request', () => {
    expect(wakuPageDataAddress(at('/about'), '1', mayBePageAddress)).toBeNull();
    expect(wakuPageDataAddress(at('/about?_rsc='), '1', mayBePageAddress)).toBeNull();
    expect(wakuPageDataAddress(at('/about?_rsc=b1'), 'true', mayBePageAddress)).toBeNull();
    for (const path of ['/_root', '/about_', '/feed.xml', '/assets/x.js', '/RSC/R/about.txt'])
      expect(wakuPageDataAddress(at(`${path}?_rsc=b1`), '1', mayBePageAddress)).toBeNull();
  });
});

// Hostile pass 27, 10: page data answers with its page's status; the router takes a 4xx payload
// as the page to show (it treats any status but 2xx as a failed fetch).
test('a 4xx payload reaches the router as a 200; anything else as it came', async () => {
  const payload = (status: number, type = 'text/x-component; charset=utf-8') =>
    new Response('0:["payload"]', { status, headers: { 'content-type': type, etag: '"e"' } });
  for (const status of [400, 401, 403, 404]) {
    const handed = pageDataForRouter(payload(status));
    expect(handed.status).toBe(200);
    expect(handed.headers.get('etag')).toBe('"e"');
    expect(await handed.text()).toBe('0:["payload"]');
  }
  for (const status of [200, 500, 503])
    expect(pageDataForRouter(payload(status)).status).toBe(status);
  // A refusal in plain text (a malformed address) is no page to show: left as it is.
  expect(pageDataForRouter(payload(404, 'text/plain')).status).toBe(404);
  expect(pageDataForRouter(payload(400, 'text/html')).status).toBe(400);
});
