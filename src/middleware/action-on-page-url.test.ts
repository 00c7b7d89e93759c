import { describe, expect, test } from 'bun:test';
import { Hono } from 'hono';
import { ACTION_HEADER, actionOnPageUrl } from './action-on-page-url';
import { sameOrigin } from './same-origin';

// The same order as src/waku.server.tsx: the origin check sees the page-URL POST first, and
// the final handler stands in for Waku, reporting the request it was given.
function app() {
  const hono = new Hono();
  hono.use(sameOrigin());
  hono.use(actionOnPageUrl());
  hono.all('*', async (c) => {
    const raw = c.req.raw;
    return c.json({
      method: raw.method,
      url: raw.url,
      origin: raw.headers.get('origin'),
      contentType: raw.headers.get('content-type'),
      body: raw.body ? await raw.text() : null,
    });
  });
  return hono;
}

const ACTION = '/RSC/F/3f2a9c/createShareLink.txt';
const post = (url: string, headers: Record<string, string>, body = '["about"]') =>
  new Request(url, { method: 'POST', headers, body });

describe('actions POSTed to the page URL', () => {
  test('a POST to the page with the header reaches the action path, body and headers intact', async () => {
    const response = await app().fetch(
      post('http://folio.test/preview/about?tab=1', {
        origin: 'http://folio.test',
        'content-type': 'text/plain;charset=UTF-8',
        [ACTION_HEADER]: ACTION,
      }),
    );
    expect(await response.json()).toEqual({
      method: 'POST',
      url: `http://folio.test${ACTION}`,
      origin: 'http://folio.test',
      contentType: 'text/plain;charset=UTF-8',
      body: '["about"]',
    });
  });

  test('a streamed multipart body survives the rewrite', async () => {
    const form = new FormData();
    form.set('slug', 'about');
    const response = await app().fetch(
      new Request('http://folio.test/about', {
        method: 'POST',
        headers: { origin: 'http://folio.test', [ACTION_HEADER]: ACTION },
        body: form,
      }),
    );
    const seen = (await response.json()) as { url: string; body: string; contentType: string };
    expect(seen.url).toBe(`http://folio.test${ACTION}`);
    expect(seen.contentType).toStartWith('multipart/form-data; boundary=');
    expect(seen.body).toContain('name="slug"');
  });

  test('a header that is not an action path is refused; without it nothing changes', async () => {
    for (const bad of [
      '/RSC/R/about.txt',
      '/RSC/F/x.txt?y',
      'http://evil.example/RSC/F/a/b.txt',
      '//evil.example/RSC/F/a/b.txt',
      '/RSC/F/a/b.txt#x',
      '/preview/about',
    ]) {
      const response = await app().fetch(
        post('http://folio.test/about', { origin: 'http://folio.test', [ACTION_HEADER]: bad }),
      );
      expect(response.status, bad).toBe(400);
    }
    const plain = await app().fetch(
      post('http://folio.test/about', { origin: 'http://folio.test' }),
    );
    expect(((await plain.json()) as { url: string }).url).toBe('http://folio.test/about');
    // A GET keeps its address whatever the header says.
    const get = await app().fetch(
      new Request('http://folio.test/about', { headers: { [ACTION_HEADER]: ACTION } }),
    );
    expect(((await get.json()) as { url: string }).url).toBe('http://folio.test/about');
  });

  test('the origin check still applies to an action sent to the page URL', async () => {
    const response = await app().fetch(
      post('http://folio.test/about', {
        origin: 'https://evil.example',
        [ACTION_HEADER]: ACTION,
      }),
    );
    expect(response.status).toBe(403);
  });
});
