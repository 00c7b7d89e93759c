import { describe, expect, test } from 'bun:test';
import { targetUrlOf } from '../navigation/client-runtime';
import { pageAddressOfPageData, pageDataAddress, wakuPageDataAddress } from './page-data-address';
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
