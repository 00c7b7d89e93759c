// The link dialog's page search (findLinkTargets, issue 26) as the editor's JavaScript calls it
// and as a script can forge it, against the server as the README starts it: published pages by
// title, at most ten, drafts never; a forged argument is a 400; signed out, nothing is listed.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { addEditor } from '../../src/lib/editors/accounts';
import { signInWithForm } from '../forms';
import { type RunningFolio, startFolio, withStore } from '../harness';

let folio: RunningFolio;
let cookie = '';
let actionId = '';

beforeAll(async () => {
  folio = await startFolio();
  await addEditor(await folio.database(), 'links@example.com', 'the links passphrase');
  cookie = (await signInWithForm(folio.url, 'links@example.com', 'the links passphrase')).cookie;
  await withStore(folio, async (store) => {
    for (let i = 1; i <= 12; i += 1)
      await store.putPage(
        { slug: `quay-${i}`, title: `Quay notice ${i}`, summary: '', body: 'Tides.' },
        { publish: true },
      );
    await store.putPage(
      { slug: 'quay-draft', title: 'Quay draft unseen', summary: '', body: 'Secret.' },
      { publish: false },
    );
  });
  for await (const path of new Bun.Glob('dist/public/assets/*.js').scan('.')) {
    const found = (await Bun.file(path).text()).match(/([0-9a-f]{12})#findLinkTargets\b/);
    if (found?.[1]) actionId = found[1];
  }
  if (!actionId) throw new Error('the build names no findLinkTargets (bun run build first)');
}, 60_000);
afterAll(async () => {
  await folio?.stop();
});

function call(body: string, signedIn = true): Promise<Response> {
  const headers: Record<string, string> = {
    origin: folio.url,
    'x-folio-action': `/RSC/F/${actionId}/findLinkTargets.txt`,
    'content-type': 'text/plain;charset=UTF-8',
    'x-waku-action-location': '/preview/quay-1?edit',
  };
  if (signedIn) headers.cookie = cookie;
  return fetch(`${folio.url}/preview/quay-1`, {
    method: 'POST',
    body,
    redirect: 'manual',
    headers,
  });
}

describe('findLinkTargets', () => {
  test('published pages matching the text, by title, ten at most; drafts never', async () => {
    const response = await call(JSON.stringify([{ text: 'quay' }]));
    expect(response.status).toBe(200);
    const text = await response.text();
    const titles = [...text.matchAll(/"title":"(Quay [^"]+)"/g)].map((m) => m[1]);
    expect(titles).toEqual([
      'Quay notice 1',
      'Quay notice 10',
      'Quay notice 11',
      'Quay notice 12',
      'Quay notice 2',
      'Quay notice 3',
      'Quay notice 4',
      'Quay notice 5',
      'Quay notice 6',
      'Quay notice 7',
    ]);
    expect(text).toContain('"path":"/quay-10"');
    expect(text).not.toContain('Quay draft unseen');
  });

  test('a forged argument is a 400, never a 500', async () => {
    for (const body of [
      '["$T"]',
      JSON.stringify([{ text: ['a'] }]),
      JSON.stringify([{}]),
      JSON.stringify([{ text: 'x'.repeat(201) }]),
      JSON.stringify(['quay']),
    ]) {
      const response = await call(body);
      expect(response.status, body.slice(0, 40)).toBe(400);
      expect(await response.text()).not.toContain('    at ');
    }
    expect(folio.unexpectedErrors()).toEqual([]);
  });

  test('signed out: the reason, and no page', async () => {
    const response = await call(JSON.stringify([{ text: 'quay' }]), false);
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(text).toContain('"error"');
    expect(text).not.toContain('Quay notice');
  });
});
