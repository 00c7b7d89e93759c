// Page data answers with its page's status (issue 27's leftovers): the data of an address
// with no page (asked for as the browser asks, at the page's address with the flag and the
// stamp) is a 404 with the not-found payload, as the page's HTML is — it was a 200. Pages that
// exist and a redirect's payload keep their 200; a signed-out preview (the sign-in form) is the
// 401 its HTML is (hostile pass 27, 10: status-findings.test.ts has the rest).
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { addEditor } from '../../src/lib/editors/accounts';
import { signInWithForm } from '../forms';
import { type RunningFolio, startFolio } from '../harness';

const flagged = { rsc: '1' };

describe('page data carries the page’s status', () => {
  let folio: RunningFolio;
  let cookie = '';
  const get = (address: string, headers: Record<string, string> = {}, method = 'GET') =>
    fetch(`${folio.url}${address}`, { method, headers, redirect: 'manual' });

  beforeAll(async () => {
    folio = await startFolio();
    await addEditor(await folio.database(), 'status@example.com', 'the status passphrase');
    cookie = (await signInWithForm(folio.url, 'status@example.com', 'the status passphrase'))
      .cookie;
  }, 60_000);
  afterAll(() => folio?.stop(), 30_000);

  test('no page at the address: 404 for the HTML and for its data, GET and HEAD', async () => {
    const html = await get('/no-page-here');
    expect(html.status).toBe(404);
    const data = await get('/no-page-here?_rsc=s1', flagged);
    expect(data.status).toBe(404);
    expect(data.headers.get('content-type')).toContain('text/x-component');
    // The payload the router renders its 404 page from, as before.
    expect(await data.text()).toContain('{\\"status\\":404}');
    // No cache keeps it: the page may be published a minute later.
    expect(data.headers.get('cache-control')).toBe(html.headers.get('cache-control'));
    expect((await get('/no-page-here?_rsc=s1', flagged, 'HEAD')).status).toBe(404);
    // The router then asks for its 404 page's data: the not-found route's payload, not the
    // plain 404 HTML it looped on.
    const notFoundRoute = await get('/404?_rsc=s1', flagged);
    expect(notFoundRoute.status).toBe(404);
    expect(notFoundRoute.headers.get('content-type')).toContain('text/x-component');
    expect(await notFoundRoute.text()).toContain('Page not found');
    // Unflagged, `/404` is no page of the site.
    const plain = await get('/404');
    expect(plain.status).toBe(404);
    expect(plain.headers.get('content-type')).toContain('text/html');
    await plain.arrayBuffer();
    // Signed in, the same (the render cache is not in the way then).
    const signedIn = await get('/no-page-here?_rsc=s1', { ...flagged, cookie });
    expect(signedIn.status).toBe(404);
    await signedIn.arrayBuffer();
  });

  test('a preview of no page: 404 for the HTML and for its data', async () => {
    const html = await get('/preview/no-page-here', { cookie });
    expect(html.status).toBe(404);
    await html.arrayBuffer();
    const data = await get('/preview/no-page-here?_rsc=s1', { ...flagged, cookie });
    expect(data.status).toBe(404);
    expect(data.headers.get('cache-control')).toContain('no-store');
    await data.arrayBuffer();
  });

  test('a page that exists keeps its 200; a signed-out preview is its HTML’s 401', async () => {
    for (const address of ['/about?_rsc=s1', '/?_rsc=s1']) {
      const data = await get(address, flagged);
      expect(data.status).toBe(200);
      expect(await data.text()).not.toContain('{\\"status\\":404}');
    }
    // The sign-in form is a 401 page, and so is its data (the browser hands the payload to the
    // router as a 200 it can render: page-data-address.ts pageDataForRouter).
    const signedOut = await get('/preview/about?_rsc=s1', flagged);
    expect(signedOut.status).toBe(401);
    expect(signedOut.headers.get('content-type')).toContain('text/x-component');
    await signedOut.arrayBuffer();
    expect(folio.unexpectedErrors()).toEqual([]);
  });
});
