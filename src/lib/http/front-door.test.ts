import { describe, expect, test } from 'bun:test';
import { requestLevelApp } from '../../../tests/request-level';
import { refuseUrl } from './front-door';
import { requestContext } from './request-context';

/** The final handler reports what reached "Waku" and the request context it saw. */
const echo = requestLevelApp([], (c) => {
  const context = requestContext();
  return c.json({
    method: c.req.method,
    url: c.req.url,
    route: context.route,
    https: context.https,
    clientAddress: context.clientAddress,
    origin: context.origin,
  });
});

describe('refuseUrl', () => {
  test('refuses NUL bytes, encoded traversal and over-long URLs; lets the rest through', () => {
    expect(refuseUrl('http://h/%00')).toEqual({ status: 404 });
    expect(refuseUrl('http://h/a%2Fb')).toEqual({ status: 404 });
    expect(refuseUrl('http://h/%2e%2e/x')).toEqual({ status: 404 });
    expect(refuseUrl(`http://h/${'a'.repeat(9000)}`)).toEqual({ status: 414 });
    expect(refuseUrl(`http://h/x/${'a'.repeat(5000)}`)).toEqual({ status: 404 });
    expect(refuseUrl('http://h/about?q=%00')).toBeNull();
    expect(refuseUrl('http://h/about')).toBeNull();
  });
});

describe('front door', () => {
  test('a Host no origin can be made of is a 400, before anything runs', async () => {
    for (const host of ['', 'a.example, b.example', 'x.example:99999']) {
      const request = new Request('http://folio.test/about');
      request.headers.set('host', host);
      const response = await echo(request);
      expect(response.status, host).toBe(400);
      expect(await response.text()).toStartWith('Bad request:');
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    }
  });

  test('non-canonical page and preview addresses redirect 308, query kept', async () => {
    const cases: [string, string][] = [
      ['/about/', '/about'],
      ['/About?x=1', '/about?x=1'],
      ['/about//', '/about'],
      ['//about', '/about'],
      ['/home', '/'],
      ['/Preview/About/', '/preview/about'],
      ['/preview//about', '/preview/about'],
      ['/preview/Home', '/preview/home'],
      ['/healthz/', '/healthz'],
      ['/Robots.txt/', '/robots.txt'],
      ['/Sitemap.xml', '/sitemap.xml'],
      ['/RSC/R/About.txt', '/RSC/R/about.txt'],
      ['/RSC/R/about/.txt', '/RSC/R/about.txt'],
      ['/RSC/R//about.txt', '/RSC/R/about.txt'],
      ['/RSC/R/about_.txt', '/RSC/R/about.txt'],
      ['/RSC/R/about/index.html.txt', '/RSC/R/about.txt'],
      ['/RSC/R/home.txt', '/RSC/R/_root.txt'],
      ['/RSC/R/_root_.txt', '/RSC/R/_root.txt'],
      ['/RSC/R/.txt', '/RSC/R/_root.txt'],
      ['/RSC/R/preview/About.txt?share=x', '/RSC/R/preview/about.txt?share=x'],
    ];
    for (const [path, location] of cases) {
      const response = await echo(`http://folio.test${path}`);
      expect(response.status, path).toBe(308);
      expect(response.headers.get('location'), path).toBe(location);
    }
    for (const path of [
      '/a/b',
      '/RSC/R/about.txt',
      '/RSC/R/_root.txt',
      '/RSC/R/preview.txt',
      '/RSC/R/nope/at/all.txt',
      '/assets/x.js',
      '/a--b',
    ])
      expect((await echo(`http://folio.test${path}`)).status, path).toBe(200);
  });

  test('each route answers its methods; others get 405 with Allow; unknown paths are left to the router', async () => {
    const cases: [string, string, number, string | null][] = [
      ['/healthz', 'POST', 405, 'GET, HEAD'],
      ['/sitemap.xml', 'DELETE', 405, 'GET, HEAD'],
      ['/feed.xml', 'POST', 405, 'GET, HEAD'],
      ['/monitoring', 'GET', 405, 'POST'],
      ['/RSC/R/about.txt', 'POST', 405, 'GET, HEAD'],
      ['/RSC/F/abc/def.txt', 'GET', 405, 'POST'],
      ['/about', 'PUT', 405, 'GET, HEAD, POST'],
      ['/about', 'OPTIONS', 405, 'GET, HEAD, POST'],
      ['/about', 'POST', 200, null],
      ['/a/b/c', 'PATCH', 200, null],
    ];
    for (const [path, method, status, allow] of cases) {
      const response = await echo(path, { method });
      expect(response.status, `${method} ${path}`).toBe(status);
      expect(response.headers.get('allow'), `${method} ${path}`).toBe(allow);
    }
  });

  test('HEAD is rendered as the GET (Bun.serve then sends the headers without the body)', async () => {
    const response = await echo('/healthz', { method: 'HEAD' });
    expect(response.status).toBe(200);
    expect(((await response.json()) as { method: string }).method).toBe('GET');
  });

  test("public page data takes no parameters; a preview's keeps them", async () => {
    const data = (await (await echo('/RSC/R/about.txt?query=%3Cx%3E')).json()) as { url: string };
    expect(data.url).toBe('http://folio.test/RSC/R/about.txt');
    const preview = (await (await echo('/RSC/R/preview/about.txt?query=edit')).json()) as {
      url: string;
    };
    expect(preview.url).toBe('http://folio.test/RSC/R/preview/about.txt?query=edit');
    const payload = requestLevelApp([], (c) => c.body('0:{}'));
    expect((await payload('/RSC/R/about.txt')).headers.get('content-type')).toBe(
      'text/x-component; charset=utf-8',
    );
  });

  test('security headers on every response; HSTS only over HTTPS a trusted proxy vouches for', async () => {
    const plain = await echo('/about');
    expect(plain.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(plain.headers.get('permissions-policy')).toContain('camera=()');
    expect(plain.headers.get('strict-transport-security')).toBeNull();
    const claimed = await echo('/about', { headers: { 'x-forwarded-proto': 'https' } });
    expect(claimed.headers.get('strict-transport-security')).toBeNull();
    const proxied = requestLevelApp([], (c) => c.text('ok'), { trustedProxyHops: 1 });
    const https = await proxied('/about', { headers: { 'x-forwarded-proto': 'https' } });
    expect(https.headers.get('strict-transport-security')).toContain('max-age=');
    const immutable = requestLevelApp([], () => fetch('data:text/plain,hi'));
    expect((await immutable('/about')).headers.get('x-frame-options')).toBe('DENY');
  });

  test('every document but a public page is isolated from the window that opened it', async () => {
    const coop = async (path: string) =>
      (await echo(path)).headers.get('cross-origin-opener-policy');
    // The sign-in form, an editor's screens, share links, and whatever is not a page.
    for (const path of ['/preview', '/preview/about', '/preview/about?share=x', '/healthz'])
      expect(await coop(path), path).toBe('same-origin');
    expect(await coop('/RSC/R/preview/about.txt'), 'preview page data').toBe('same-origin');
    const refused = new Request('http://folio.test/about');
    refused.headers.set('host', 'a.example, b.example');
    expect((await echo(refused)).headers.get('cross-origin-opener-policy')).toBe('same-origin');
    // Public pages and their data are the same for everyone: no swap of browsing context
    // group on arrival (decision 0024).
    for (const path of ['/', '/about', '/RSC/R/about.txt', '/RSC/R/_root.txt'])
      expect(await coop(path), path).toBeNull();
    expect(
      (await echo('/about', { method: 'HEAD' })).headers.get('cross-origin-opener-policy'),
    ).toBeNull();
    // Refusals at a public address keep it (hostile pass): only what a visitor reads goes without.
    for (const method of ['PUT', 'POST', 'DELETE'])
      expect(
        (await echo('/about', { method })).headers.get('cross-origin-opener-policy'),
        method,
      ).toBe('same-origin');
    // A redirect carries what the address it leads to carries, however it was spelt.
    for (const [path, expected] of [
      ['/About', null],
      ['/about/', null],
      ['/home', null],
      ['/Preview', 'same-origin'],
      ['/preview/About', 'same-origin'],
      ['/RSC/R/About.txt', null],
      ['/RSC/R/Preview/about.txt', 'same-origin'],
      ['/RSC/R/PREVIEW.txt', 'same-origin'],
    ] as const) {
      const response = await echo(path);
      expect(response.status, path).toBe(308);
      expect(response.headers.get('cross-origin-opener-policy'), path).toBe(expected);
    }
  });

  test('the client address is the socket unless TRUST_PROXY says how many proxies to believe', async () => {
    const spoof = { 'x-forwarded-for': '198.51.100.1, 192.0.2.7' };
    const direct = (await (await echo('/about', { headers: spoof })).json()) as {
      clientAddress: string;
    };
    expect(direct.clientAddress).toBe('203.0.113.9');
    const oneProxy = requestLevelApp([], (c) => c.text(requestContext().clientAddress), {
      trustedProxyHops: 1,
    });
    expect(await (await oneProxy('/about', { headers: spoof })).text()).toBe('192.0.2.7');
    const twoProxies = requestLevelApp([], (c) => c.text(requestContext().clientAddress), {
      trustedProxyHops: 2,
    });
    expect(await (await twoProxies('/about', { headers: spoof })).text()).toBe('198.51.100.1');
  });

  test("absolute links use SITE_URL when set, else the request's own origin", async () => {
    const own = (await (await echo('http://folio.test:8080/about')).json()) as { origin: string };
    expect(own.origin).toBe('http://folio.test:8080');
    const configured = requestLevelApp([], (c) => c.text(requestContext().origin), {
      siteUrl: 'https://folio.example',
    });
    expect(await (await configured('http://evil.example/about')).text()).toBe(
      'https://folio.example',
    );
  });
});
