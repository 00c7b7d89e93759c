// The editor's JavaScript calls as the page makes them (x-folio-action, React's encoded
// arguments) and as a script can forge them, against the server as the README starts it: the
// findings of the hostile pass over the action calls. Every test here failed before its fix.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { ContentStore } from '../../src/lib/content/content';
import { addEditor } from '../../src/lib/editors/accounts';
import { signInWithForm } from '../forms';
import { type RunningFolio, startFolio, withStore as withStoreOf } from '../harness';

const SLUG = 'action-calls';
let folio: RunningFolio;
let cookie = '';
const modules: Record<string, string> = {};

const withStore = <T>(work: (store: ContentStore) => Promise<T>): Promise<T> =>
  withStoreOf(folio, work);

beforeAll(async () => {
  folio = await startFolio();
  await addEditor(await folio.database(), 'calls@example.com', 'the calls passphrase');
  cookie = (await signInWithForm(folio.url, 'calls@example.com', 'the calls passphrase')).cookie;
  await withStore((store) =>
    store.putPage({ slug: SLUG, title: 'Calls', summary: '', body: 'FIRST' }),
  );
  // The actions' ids, as the build's browser code holds them (the page's scripts call them).
  const assets = new Bun.Glob('dist/public/assets/*.js');
  for await (const path of assets.scan('.')) {
    const code = await Bun.file(path).text();
    for (const [, id, action] of code.matchAll(/([0-9a-f]{12})#(autosaveDraft|createShareLink)/g))
      if (id && action) modules[action] = id;
  }
  if (!modules.autosaveDraft || !modules.createShareLink)
    throw new Error('the build names no autosaveDraft or createShareLink (bun run build first)');
}, 60_000);
afterAll(async () => {
  await folio?.stop();
});

/** A JavaScript action call, as Waku's router sends it (`location`: its action-location header). */
function call(
  action: string,
  body: BodyInit,
  { signedIn = true, location }: { signedIn?: boolean; location?: string | null } = {},
): Promise<Response> {
  const headers: Record<string, string> = {
    origin: folio.url,
    'x-folio-action': `/RSC/F/${modules[action]}/${action}.txt`,
  };
  if (typeof body === 'string') headers['content-type'] = 'text/plain;charset=UTF-8';
  if (signedIn) headers.cookie = cookie;
  if (location !== null) headers['x-waku-action-location'] = location ?? `/preview/${SLUG}?edit`;
  return fetch(`${folio.url}/preview/${SLUG}`, {
    method: 'POST',
    body,
    redirect: 'manual',
    headers,
  });
}

const page = () => withStore((store) => store.getPage(SLUG, { draft: true }));

async function editorValues() {
  const current = await page();
  if (!current) throw new Error('no page');
  return {
    slug: SLUG,
    originalSlug: SLUG,
    pageId: String(current.id),
    version: String(current.version),
    title: current.title,
    summary: current.summary,
    body: current.bodyMarkdown,
  };
}

describe('autosaveDraft reads its arguments with a schema (finding 1)', () => {
  test('a forged argument is a 400 before or after the sign-in check, never a 500, nothing saved', async () => {
    const values = await editorValues();
    const before = await page();
    const forged: [string, string][] = [
      [
        'a toString that is not a function',
        JSON.stringify([{ ...values, title: { toString: 'x' } }]),
      ],
      ['a temporary reference', JSON.stringify([{ ...values, title: '$T' }])],
      ['a temporary reference as the argument', '["$T"]'],
      ['a list where text goes', JSON.stringify([{ ...values, body: ['a', 'b'] }])],
      ['an object where text goes', JSON.stringify([{ ...values, body: { a: 1 } }])],
      ['a hexadecimal page id', JSON.stringify([{ ...values, pageId: '0x5' }])],
      ['a page id as a number', JSON.stringify([{ ...values, pageId: Number(values.pageId) }])],
      ['a version that is a date', JSON.stringify([{ ...values, version: '$D2020-01-01' }])],
      ['a version that is a bigint', JSON.stringify([{ ...values, version: '$n99' }])],
      ['a version left out', JSON.stringify([{ ...values, version: '$undefined' }])],
    ];
    for (const signedIn of [true, false]) {
      for (const [what, body] of forged) {
        const response = await call('autosaveDraft', body, { signedIn });
        expect(response.status, `${what} (signed in: ${signedIn})`).toBe(400);
        expect(await response.text()).not.toContain('    at ');
      }
    }
    const after = await page();
    expect(after?.version).toBe(before?.version);
    expect(after?.bodyMarkdown).toBe('FIRST');
    expect(folio.unexpectedErrors()).toEqual([]);
  });

  test('the editor’s own call still saves', async () => {
    const values = await editorValues();
    const response = await call('autosaveDraft', JSON.stringify([{ ...values, body: 'SAVED' }]));
    expect(response.status).toBe(200);
    expect((await page())?.bodyMarkdown).toBe('SAVED');
  });
});

describe('a call without a readable action location is answered without a re-render (finding 2)', () => {
  test('autosaveDraft saves and answers 200 with the header missing or junk', async () => {
    for (const location of [null, 'garbage', '%%%', 'http://evil.example/preview']) {
      const values = await editorValues();
      const body = `SAVED WITH ${location}`;
      const response = await call('autosaveDraft', JSON.stringify([{ ...values, body }]), {
        location,
      });
      expect(response.status, String(location)).toBe(200);
      expect(await response.text()).toContain(`"version":${Number(values.version) + 1}`);
      expect((await page())?.bodyMarkdown).toBe(body);
    }
    expect(folio.unexpectedErrors()).toEqual([]);
  });

  test('createShareLink makes its link and answers 200 with the header missing or junk', async () => {
    const pageId = String((await page())?.id);
    for (const location of [null, 'garbage', '%%%', 'http://evil.example/preview']) {
      // useActionState's call: the previous state, then the form (React's "$K" form reference).
      const body = new FormData();
      body.append('0', '["$undefined","$K1"]');
      body.append('_1_ttl', '24h');
      body.append('_1_pageId', pageId);
      const response = await call('createShareLink', body, { location });
      expect(response.status, String(location)).toBe(200);
      expect(await response.text()).toContain(`?share=`);
    }
    expect(folio.unexpectedErrors()).toEqual([]);
  });
});
