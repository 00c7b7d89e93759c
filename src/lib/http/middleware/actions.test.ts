import { describe, expect, test } from 'bun:test';
import { requestLevelApp } from '../../../../tests/request-level';
import { STALE_PAGE_MESSAGE } from '../../observability/request-errors';
import { ACTION_HEADER, actions, type ServerActions } from './actions';
import { sameOrigin } from './same-origin';

const KNOWN = '3f2a9c#createShareLink';
const ACTION = '/RSC/F/3f2a9c/createShareLink.txt';

// As in src/waku.server.tsx: the origin check first; the final handler stands in for Waku and
// reports the request it was given. This build "has" one action.
// A stand-in for the build's actions and React's decoders: one action, and JSON arrays (or a
// form with a root "0" field) as argument lists.
const serverActions: ServerActions = {
  exists: async (id) => id === KNOWN,
  decodesAsArguments: async (body) => {
    try {
      return Array.isArray(JSON.parse(typeof body === 'string' ? body : String(body.get('0'))));
    } catch {
      return false;
    }
  },
  decodesAsFormAction: async (form) => !form.has('$ACTION_1:0') || form.get('$ACTION_1:1') !== null,
};
const app = requestLevelApp([sameOrigin, () => actions({ serverActions })], async (c) => {
  const raw = c.req.raw;
  return c.json({
    method: raw.method,
    url: raw.url,
    contentType: raw.headers.get('content-type'),
    body: raw.body ? await raw.text() : null,
  });
});

const post = (url: string, headers: Record<string, string>, body: BodyInit = '["about"]') =>
  app(url, { method: 'POST', headers: { origin: 'http://folio.test', ...headers }, body });

describe('actions POSTed to the page URL', () => {
  test('a POST to the page with the header reaches the action path, body and headers intact', async () => {
    const response = await post('/preview/about?tab=1', {
      'content-type': 'text/plain;charset=UTF-8',
      [ACTION_HEADER]: ACTION,
    });
    expect(await response.json()).toEqual({
      method: 'POST',
      url: `http://folio.test${ACTION}`,
      contentType: 'text/plain;charset=UTF-8',
      body: '["about"]',
    });
  });

  test('a streamed multipart body survives the rewrite', async () => {
    const form = new FormData();
    form.set('0', '["$K1"]');
    form.set('1_slug', 'about');
    const response = await post('/about', { [ACTION_HEADER]: ACTION }, form);
    const seen = (await response.json()) as { url: string; body: string; contentType: string };
    expect(seen.url).toBe(`http://folio.test${ACTION}`);
    expect(seen.contentType).toStartWith('multipart/form-data; boundary=');
    expect(seen.body).toContain('name="1_slug"');
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
      expect((await post('/about', { [ACTION_HEADER]: bad })).status, bad).toBe(400);
    }
    const plain = await post('/about', {});
    expect(((await plain.json()) as { url: string }).url).toBe('http://folio.test/about');
    // A GET keeps its address whatever the header says.
    const get = await app('/about', { headers: { [ACTION_HEADER]: ACTION } });
    expect(((await get.json()) as { url: string }).url).toBe('http://folio.test/about');
  });

  test('the origin check still applies to an action sent to the page URL', async () => {
    const response = await post('/about', {
      origin: 'https://evil.example',
      [ACTION_HEADER]: ACTION,
    });
    expect(response.status).toBe(403);
  });
});

describe('forged calls', () => {
  test('an action header that only becomes an action address once resolved is refused', async () => {
    for (const header of [
      '/RSC/F/../R/about.txt',
      '/RSC/F/%2e%2e/R/about.txt',
      '/RSC/F/./x/../y.txt',
    ])
      expect((await post('/about', { [ACTION_HEADER]: header })).status, header).toBe(400);
  });

  test('arguments that do not decode to a list, and malformed action fields, are 400', async () => {
    expect((await post(ACTION, { 'content-type': 'text/plain' }, '{}')).status).toBe(400);
    for (const meta of ['{"id":1}', '{"id":null}', 'not json']) {
      const form = new FormData();
      form.set('$ACTION_REF_1', '');
      form.set('$ACTION_1:0', meta);
      expect((await post('/preview/about', {}, form)).status, meta).toBe(400);
    }
  });

  test('every action field of a form must be real, not only the first', async () => {
    const form = new FormData();
    form.append(`$ACTION_ID_${KNOWN}`, '');
    form.append('$ACTION_ID_3f2a9c#constructor', '');
    expect((await post('/preview/about', {}, form)).status).toBe(409);
  });
});

describe('actions this build does not have', () => {
  test('an unknown action, by address or by form field, is the out-of-date 409', async () => {
    const byHeader = await post('/preview/about', {
      [ACTION_HEADER]: '/RSC/F/3f2a9c/nope.txt',
    });
    expect(byHeader.status).toBe(409);
    expect(byHeader.headers.get('x-folio-stale')).toBe('1');
    expect(await byHeader.text()).toContain(STALE_PAGE_MESSAGE);

    const byPath = await post('/RSC/F/000000000000/createShareLink.txt', {});
    expect(byPath.status).toBe(409);

    for (const fields of [
      { [`$ACTION_ID_${'0000deadbeef#publishPage'}`]: '' },
      { $ACTION_REF_1: '', '$ACTION_1:0': JSON.stringify({ id: '3f2a9c#nope', bound: '$@1' }) },
    ]) {
      const form = new FormData();
      for (const [name, value] of Object.entries(fields)) form.set(name, value);
      const noJs = await post('/preview/about', { accept: 'text/html' }, form);
      expect(noJs.status).toBe(409);
      expect(noJs.headers.get('content-type')).toStartWith('text/html');
      expect(await noJs.text()).toContain('Reload the page');
    }
  });

  test('a known action and a plain form post go through', async () => {
    const form = new FormData();
    form.set(`$ACTION_ID_${KNOWN}`, '');
    expect((await post('/preview/about', {}, form)).status).toBe(200);
    const plain = new FormData();
    plain.set('q', 'x');
    expect((await post('/preview/about', {}, plain)).status).toBe(200);
  });
});
