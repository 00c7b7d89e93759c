import { describe, expect, test } from 'bun:test';
import type { Route } from '../http/routes';
import { deferBootstrap, hydrateAfterPaint } from './hydrate-after-paint';

const PUBLIC: Route = { kind: 'page', slug: 'about' };

const BOOTSTRAP = `window.addEventListener('vite:preloadError', function (e) {});
globalThis.__WAKU_HYDRATE__ = true;
globalThis.__WAKU_INITIAL_RSC__ = (() => {return {};})();import("/assets/index-abc.js").catch((err) => {
  throw err;
});`;

const page = (body: string) =>
  new Response(
    `<!DOCTYPE html><html><head><link rel="preload" href="/assets/font.woff2" as="font"/><link rel="modulepreload" href="/assets/index-abc.js" crossorigin=""/><link rel="modulepreload" href="/assets/client-def.js" crossorigin="" fetchPriority="low"/></head><body>${body}</body></html>`,
    { headers: { 'content-type': 'text/html; charset=utf-8' } },
  );

describe('hydration after the first paint', () => {
  test("Waku's bootstrap imports its entry only after the paint, preloading the modules first", () => {
    const deferred = deferBootstrap(BOOTSTRAP, ['/assets/index-abc.js', '/assets/client-def.js']);
    expect(deferred).not.toBeNull();
    const text = deferred as string;
    // The rest of the bootstrap is as it was, and the import keeps Waku's failure handling.
    expect(text.startsWith(BOOTSTRAP.slice(0, BOOTSTRAP.indexOf('import(')))).toBe(true);
    expect(text).toContain(
      'return import("/assets/index-abc.js");}).catch((err) => {\n  throw err;\n});',
    );
    expect(text).toContain('PerformanceObserver(');
    expect(text).toContain('["/assets/index-abc.js","/assets/client-def.js"].forEach');
    expect(text.indexOf('.forEach')).toBeLessThan(text.indexOf('return import('));
    // It is still one script that parses.
    expect(() => new Function(text)).not.toThrow();
  });

  test('other inline scripts are left alone, even when they mention an import', () => {
    const payload = 'self.__FLIGHT_DATA.push("import(\\"/assets/x.js\\")")';
    expect(deferBootstrap(payload, [])).toBeNull();
    expect(deferBootstrap('globalThis.__WAKU_INITIAL_RSC__ = 1;', [])).toBeNull();
    // An editor's page that quotes both is page data: its quotes arrive escaped, never matched.
    const quoted = `self.__FLIGHT_DATA.push(${JSON.stringify('globalThis.__WAKU_INITIAL_RSC__; import("/assets/x.js")')})`;
    expect(deferBootstrap(quoted, [])).toBeNull();
  });

  test('a page streams through with its preload links moved into the bootstrap', async () => {
    const payload = `self.__FLIGHT_DATA.push(${JSON.stringify('<p>a & b</p> import("/assets/y.js")')})`;
    const html = await hydrateAfterPaint(
      page(`<p>Text</p><script>${BOOTSTRAP}</script><script>${payload}</script>`),
      PUBLIC,
    ).text();
    expect(html).not.toContain('rel="modulepreload"');
    // The font's preload is not the bundle's: it stays.
    expect(html).toContain('<link rel="preload" href="/assets/font.woff2" as="font"/>');
    expect(html).toContain('["/assets/index-abc.js","/assets/client-def.js"].forEach');
    expect(html).not.toContain('import("/assets/index-abc.js").catch');
    // Scripts are written back byte for byte (no entity escaping of `&&`, `<`).
    expect(html).toContain(`<script>${payload}</script>`);
  });

  test('a script split across chunks is rewritten whole', async () => {
    const encoder = new TextEncoder();
    const text = `<html><head><link rel="modulepreload" href="/assets/index-abc.js"></head><body><script>${BOOTSTRAP}</script></body></html>`;
    const cut = text.indexOf('import(') + 3;
    const body = new ReadableStream({
      start(controller) {
        controller.enqueue(encoder.encode(text.slice(0, cut)));
        controller.enqueue(encoder.encode(text.slice(cut)));
        controller.close();
      },
    });
    const html = await hydrateAfterPaint(
      new Response(body, { headers: { 'content-type': 'text/html' } }),
      PUBLIC,
    ).text();
    expect(html).toContain('["/assets/index-abc.js"].forEach');
    expect(html).toContain('return import("/assets/index-abc.js");})');
  });

  test('a length the app declared is dropped, since the rewrite changes it', async () => {
    const text = `<html><head><link rel="modulepreload" href="/assets/index-abc.js"></head><body><script>${BOOTSTRAP}</script></body></html>`;
    const response = hydrateAfterPaint(
      new Response(text, {
        status: 404,
        headers: { 'content-type': 'text/html', 'content-length': String(text.length) },
      }),
      PUBLIC,
    );
    expect(response.status).toBe(404);
    expect(response.headers.get('content-length')).toBeNull();
    expect((await response.text()).length).toBeGreaterThan(text.length);
  });

  test('responses other than HTML are not touched', () => {
    const data = new Response('0:["$","p"]', { headers: { 'content-type': 'text/x-component' } });
    expect(hydrateAfterPaint(data, PUBLIC)).toBe(data);
  });

  test("an editor's screens hydrate at once: text typed before hydration is not React's", () => {
    for (const route of [{ kind: 'preview', slug: 'about' }, { kind: 'sign-in' }] as const) {
      const screen = page(`<script>${BOOTSTRAP}</script>`);
      expect(hydrateAfterPaint(screen, route as Route)).toBe(screen);
    }
  });
});
