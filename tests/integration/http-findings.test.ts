// The HTTP findings of the hostile review (issue 11), each against the server as the README
// starts it. Every test here failed before its fix.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { gunzipSync } from 'node:zlib';
import { type RunningFolio, startFolio } from '../harness';
import { rawFetch, rawRequest } from '../raw-http';

let folio: RunningFolio;

beforeAll(async () => {
  folio = await startFolio();
}, 60_000);
afterAll(async () => {
  await folio?.stop();
});

const get = (path: string, headers: Record<string, string> = {}) =>
  fetch(`${folio.url}${path}`, { headers, redirect: 'manual' });

/** The action id (`<module>#<export>`) of a form on the sign-in page. */
async function signInActionId(): Promise<string> {
  const html = await (await get('/preview')).text();
  const id = /&quot;id&quot;:&quot;([0-9a-f]+)#signIn&quot;/.exec(html)?.[1];
  if (!id) throw new Error('no sign-in action id in /preview');
  return id;
}

describe('Host header', () => {
  test('a foreign Host never changes what other visitors get (page, page data, sitemap, robots)', async () => {
    for (const path of ['/about', '/RSC/R/about.txt', '/sitemap.xml', '/robots.txt', '/']) {
      await get(path, { host: 'evil.example' });
      const body = await (await get(path)).text();
      expect(body.includes('evil.example'), path).toBe(false);
    }
  });

  test('a Host the URL parser rejects, or two Host headers, is a 400 and no error report', async () => {
    for (const hostLines of [
      ['Host: x.example:99999'],
      ['Host: a"b'],
      ['Host: '],
      ['Host: a b'],
      [`Host: 127.0.0.1:${folio.port}`, 'Host: evil.example'],
    ]) {
      for (const path of ['/about', '/contact', '/sitemap.xml', '/preview', '/RSC/R/about.txt']) {
        const response = await rawRequest(
          folio.url,
          [`GET ${path} HTTP/1.1`, ...hostLines].join('\r\n'),
        );
        expect(response.status, `${path} ${hostLines.join(' | ')}`).toBe(400);
      }
    }
    expect(folio.unexpectedErrors()).toEqual([]);
  });
});

describe('methods', () => {
  test('HEAD answers like GET, without a body, on every GET route', async () => {
    for (const path of [
      '/sitemap.xml',
      '/robots.txt',
      '/healthz',
      '/',
      '/about',
      '/RSC/R/about.txt',
    ]) {
      const head = await rawFetch(folio.url, 'HEAD', path);
      expect(head.status, path).toBe(200);
      expect(head.body, path).toBe('');
    }
  });

  test('other methods get 405 with Allow, and nothing is reported', async () => {
    const routes: [string, string][] = [
      ['/sitemap.xml', 'GET, HEAD'],
      ['/robots.txt', 'GET, HEAD'],
      ['/healthz', 'GET, HEAD'],
      ['/monitoring', 'POST'],
      ['/RSC/R/about.txt', 'GET, HEAD'],
    ];
    for (const [path, allow] of routes) {
      for (const method of ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'TRACE']) {
        if (allow.split(', ').includes(method)) continue;
        const response = await rawFetch(
          folio.url,
          method,
          path,
          [`Origin: ${folio.url}`, 'Content-Type: text/plain'],
          'x',
        );
        expect(response.status, `${method} ${path}`).toBe(405);
        expect(response.header('allow'), `${method} ${path}`).toBe(allow);
      }
    }
    expect(folio.unexpectedErrors()).toEqual([]);
  });
});

describe('server actions', () => {
  test('an unknown function in a known action module is "out of date" (409), not a 500', async () => {
    const id = await signInActionId();
    const js = await fetch(`${folio.url}/RSC/F/${id}/nope.txt`, {
      method: 'POST',
      headers: { origin: folio.url, 'content-type': 'text/plain' },
      body: '[]',
    });
    expect(js.status).toBe(409);
    const form = new FormData();
    form.set('$ACTION_REF_1', '');
    form.set('$ACTION_1:0', JSON.stringify({ id: `${id}#nope`, bound: '$@1' }));
    form.set('$ACTION_1:1', '[{}]');
    const noJs = await fetch(`${folio.url}/preview`, {
      method: 'POST',
      headers: { origin: folio.url, accept: 'text/html' },
      body: form,
    });
    expect(noJs.status).toBe(409);
    expect(await noJs.text()).toContain('This page is out of date');
    expect(folio.unexpectedErrors()).toEqual([]);
  });
});

describe('negotiation and validators', () => {
  test('an encoding with q=0 is never used', async () => {
    for (const path of ['/about', '/RSC/R/about.txt']) {
      await get(path);
      const response = await get(path, { 'accept-encoding': 'br;q=0, gzip' });
      expect(response.headers.get('content-encoding'), path).toBe('gzip');
      // The body really is gzip (fetch decodes it; a raw read shows the magic bytes).
      const raw = await rawFetch(folio.url, 'GET', path, ['Accept-Encoding: br;q=0, gzip']);
      expect(raw.header('content-encoding'), path).toBe('gzip');
      expect(gunzipSync(raw.bytes).length, path).toBeGreaterThan(0);
    }
  });

  test('If-None-Match: *, a list, and a weak tag all validate', async () => {
    const first = await get('/about', { 'accept-encoding': 'gzip' });
    const etag = first.headers.get('etag') ?? '';
    expect(etag).toMatch(/^".+"$/);
    for (const ifNoneMatch of ['*', `"nope", ${etag}`, `W/${etag}`, `"a",W/${etag} , "b"`]) {
      const again = await get('/about', {
        'accept-encoding': 'gzip',
        'if-none-match': ifNoneMatch,
      });
      expect(again.status, ifNoneMatch).toBe(304);
    }
    expect(
      (await get('/about', { 'accept-encoding': 'gzip', 'if-none-match': '"nope"' })).status,
    ).toBe(200);
  });

  test('each encoding has its own validator, and responses vary on Accept-Encoding', async () => {
    const tags = new Set<string>();
    for (const encoding of ['br', 'gzip', 'identity']) {
      const response = await get('/about', { 'accept-encoding': encoding });
      tags.add(response.headers.get('etag') ?? '');
      expect(response.headers.get('vary')?.toLowerCase()).toContain('accept-encoding');
    }
    expect(tags.size).toBe(3);
  });
});

describe('render cache', () => {
  test('junk page-data keys are not stored and do not evict real pages', async () => {
    await get('/about');
    expect((await get('/about')).headers.get('x-folio-cache')).toBe('hit');
    const junk = Array.from({ length: 400 }, (_, i) => i);
    await Promise.all(
      junk.map((i) =>
        i % 2 === 0 ? get(`/RSC/R/about.txt?query=junk${i}`) : get(`/RSC/R/no-such-page-${i}.txt`),
      ),
    );
    // Asking again for a junk key renders it again: nothing was stored.
    expect((await get('/RSC/R/no-such-page-1.txt')).headers.get('x-folio-cache')).not.toBe('hit');
    // Public page data takes no parameters: a query string gets the page's one entry, and
    // nothing of the query comes back.
    const withQuery = await get('/RSC/R/about.txt?query=junk0');
    expect(withQuery.headers.get('x-folio-cache')).toBe('hit');
    expect((await withQuery.text()).includes('junk0')).toBe(false);
    expect((await get('/about')).headers.get('x-folio-cache')).toBe('hit');
  });

  test('page data always says it is a component payload, and does not reflect the query raw', async () => {
    for (const path of [
      '/RSC/R/about.txt?query=%3Cscript%3E',
      '/RSC/R/no-such-page.txt',
      '/RSC/R/_root.txt',
    ]) {
      const response = await get(path);
      expect(response.headers.get('content-type'), path).toStartWith('text/x-component');
      expect(await response.text(), path).not.toContain('<script>');
    }
  });
});

describe('addresses', () => {
  test('a doubled slash is canonicalised, never a duplicate page', async () => {
    const cases: [path: string, location: string][] = [
      ['/about//', '/about'],
      ['//about', '/about'],
      ['/about///', '/about'],
      ['/preview//about', '/preview/about'],
    ];
    for (const [path, location] of cases) {
      const response = await rawFetch(folio.url, 'GET', path);
      expect(response.status, path).toBe(308);
      expect(response.header('location'), path).toBe(location);
    }
  });
});

describe('start-up', () => {
  test('a second server on a busy port refuses to start and names the port', async () => {
    const second = Bun.spawn(['bun', 'run', 'start'], {
      env: {
        ...process.env,
        PORT: String(folio.port),
        DATABASE_URL: folio.databaseUrl,
      },
      stdout: 'pipe',
      stderr: 'pipe',
    });
    const code = await Promise.race([second.exited, Bun.sleep(20_000).then(() => 'still running')]);
    if (code === 'still running') second.kill();
    const said =
      (await new Response(second.stderr).text()) + (await new Response(second.stdout).text());
    expect(code).toBe(1);
    expect(said).toContain(`port ${folio.port} is already in use`);
  }, 30_000);
});
