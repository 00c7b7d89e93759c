import { describe, expect, test } from 'bun:test';
import { FILTERED, scrubSecrets, scrubText } from './scrub';

const TOKEN = 'eyJ2IjoxfQ.DsbENFnSqCcnRmXAmHPZkpXTBikec7UC80aqJ18zx34';

describe('scrubText', () => {
  test('removes share tokens from URLs, raw and encoded, and keeps the rest', () => {
    expect(scrubText(`https://x.example/preview/a?share=${TOKEN}`)).toBe(
      `https://x.example/preview/a?share=${FILTERED}`,
    );
    expect(scrubText(`/preview/a?edit&share=${TOKEN}#top`)).toBe(
      `/preview/a?edit&share=${FILTERED}#top`,
    );
    expect(scrubText(`next=%2Fpreview%2Fa%3Fshare%3D${TOKEN}%26x%3D1`)).toBe(
      `next=%2Fpreview%2Fa%3Fshare%3D${FILTERED}%26x%3D1`,
    );
    expect(scrubText('/about?shared=1')).toBe('/about?shared=1');
  });

  test('removes session and device cookies', () => {
    expect(scrubText(`folio_session=${'a'.repeat(43)}; theme=dark; folio_device=abc.def`)).toBe(
      `folio_session=${FILTERED}; theme=dark; folio_device=${FILTERED}`,
    );
  });
});

describe('scrubSecrets', () => {
  test('walks events: request, headers, breadcrumbs, span attributes', () => {
    const event = {
      request: {
        url: `http://h/preview/a?share=${TOKEN}`,
        headers: { referer: `http://h/preview/a?share=${TOKEN}` },
      },
      breadcrumbs: [{ data: { from: `/preview/a?share=${TOKEN}` } }],
      attributes: { 'http.request.header.referer': { value: `http://h/?share=${TOKEN}` } },
      count: 3,
    };
    const scrubbed = scrubSecrets(event);
    expect(JSON.stringify(scrubbed)).not.toContain(TOKEN);
    expect(scrubbed.count).toBe(3);
  });
});
