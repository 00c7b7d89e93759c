// Saving while live (decision record 0051), against the server as the README starts it: an
// autosave that says `live=1` takes the title, summary and body from the page's stored shared
// document — never the form's, however stale — with no conflict against the document's own draft
// writes, and leaves the document writing its drafts on from there (issue 30: a title taken from
// the form was written back over by the document's next draft). The same call
// without `live` is the control: the form's stale body is merged in as another save's.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { ContentStore } from '../../src/lib/content/content';
import { addEditor } from '../../src/lib/editors/accounts';
import { CoeditClient } from '../coedit-client';
import { TEST_ENGINE } from '../databases';
import { signInWithForm } from '../forms';
import { type RunningFolio, startFolio, waitFor, withStore as withStoreOf } from '../harness';

let folio: RunningFolio;
let cookie = '';
let autosaveId = '';

const withStore = <T>(work: (store: ContentStore) => Promise<T>): Promise<T> =>
  withStoreOf(folio, work);

beforeAll(async () => {
  folio = await startFolio();
  await addEditor(await folio.database(), 'live@example.com', 'the live passphrase');
  cookie = (await signInWithForm(folio.url, 'live@example.com', 'the live passphrase')).cookie;
  for await (const path of new Bun.Glob('dist/public/assets/*.js').scan('.')) {
    const found = (await Bun.file(path).text()).match(/([0-9a-f]{12})#autosaveDraft\b/);
    if (found?.[1]) autosaveId = found[1];
  }
  if (!autosaveId) throw new Error('the build names no autosaveDraft (bun run build first)');
}, 60_000);
afterAll(async () => {
  await folio?.stop();
});

const page = (slug: string) => withStore((store) => store.getPage(slug, { draft: true }));

/** The action's answer, from the route's payload it comes in (one JSON value after `_value`). */
async function answerOf(response: Response): Promise<Record<string, unknown>> {
  expect(response.status).toBe(200);
  const text = await response.text();
  const start = text.indexOf('"_value":') + '"_value":'.length;
  if (start < '"_value":'.length) throw new Error('no answer in the response');
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i += 1) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i += 1;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{' || c === '[') depth += 1;
    else if (c === '}' || c === ']') {
      depth -= 1;
      if (depth === 0) return JSON.parse(text.slice(start, i + 1)) as Record<string, unknown>;
    }
  }
  throw new Error('an answer cut short');
}

function autosave(slug: string, values: Record<string, string>): Promise<Response> {
  return fetch(`${folio.url}/preview/${slug}`, {
    method: 'POST',
    body: JSON.stringify([values]),
    redirect: 'manual',
    headers: {
      origin: folio.url,
      cookie,
      'content-type': 'text/plain;charset=UTF-8',
      'x-folio-action': `/RSC/F/${autosaveId}/autosaveDraft.txt`,
      'x-waku-action-location': `/preview/${slug}?edit`,
    },
  });
}

/** A page with a live editor who has typed, and the version a form opened before that had. */
async function typedLive(slug: string) {
  await withStore((store) =>
    store.putPage({ slug, title: 'Before', summary: '', body: 'One.\n\nTwo.\n' }),
  );
  const opened = await page(slug);
  if (!opened) throw new Error('no page');
  const client = new CoeditClient(slug);
  await client.connect(`${folio.url.replace(/^http/, 'ws')}/preview/${slug}?live`, {
    cookie,
    origin: folio.url,
  });
  client.text.insert(client.text.length, 'Three, typed live.\n');
  await waitFor(() => (client.allAcknowledged ? true : undefined), { what: 'the acks' });
  // The document writes its draft about a second later: the form's version is then stale.
  await waitFor(
    async () => ((await page(slug))?.bodyMarkdown.includes('Three') ? true : undefined),
    { what: 'the document’s draft', timeoutMs: 15_000 },
  );
  const form = {
    slug,
    originalSlug: slug,
    pageId: String(opened.id),
    version: String(opened.version),
    title: 'After',
    summary: '',
    // Stale, and changed: a body the form's path would merge in (the control shows it does).
    body: 'One.\n\nTwo, edited.\n',
    kind: '',
    topics: '',
    authors: '',
  };
  return { client, form };
}

describe(`saving while live (${TEST_ENGINE})`, () => {
  test('live=1: the text is the document’s, not the form’s; no conflict, nothing doubled', async () => {
    const { client, form } = await typedLive('live-save');
    try {
      const answer = await answerOf(await autosave('live-save', { ...form, live: '1' }));
      expect(answer.ok).toBe(true);
      expect(answer.conflict).toBeUndefined();
      expect(answer.merged).toBeUndefined();
      const saved = await page('live-save');
      // The form's 'After' never reached the document: the document's next draft would write
      // 'Before' back, so the save does not write it either.
      expect(saved?.title).toBe('Before');
      expect(saved?.bodyMarkdown).toBe('One.\n\nTwo.\nThree, typed live.\n');

      // The document goes on from there: the next edit is written once, not merged twice.
      client.text.insert(client.text.length, 'Four.\n');
      await waitFor(() => (client.allAcknowledged ? true : undefined), { what: 'the acks' });
      await waitFor(
        async () => ((await page('live-save'))?.bodyMarkdown.includes('Four') ? true : undefined),
        { what: 'the next draft', timeoutMs: 15_000 },
      );
      // Two polls of the server (3 s each) would have merged a save taken for another's.
      await Bun.sleep(7_000);
      expect((await page('live-save'))?.bodyMarkdown).toBe(
        'One.\n\nTwo.\nThree, typed live.\nFour.\n',
      );
      expect(client.text.toString()).toBe('One.\n\nTwo.\nThree, typed live.\nFour.\n');
      expect(folio.unexpectedErrors()).toEqual([]);
    } finally {
      client.disconnect();
    }
  }, 60_000);

  test('live=1: the title and summary are the document’s, and stay past its next draft write', async () => {
    const { client, form } = await typedLive('live-title');
    try {
      // Typed into the document, as a bound editor's inputs do; the form's own title ('After')
      // is not the document's: the save must not write one the document would write back over.
      client.doc.transact(() => {
        client.title.delete(0, client.title.length);
        client.title.insert(0, 'Typed live');
        client.summary.insert(0, 'A summary typed live.');
      });
      await waitFor(() => (client.allAcknowledged ? true : undefined), { what: 'the acks' });
      const answer = await answerOf(await autosave('live-title', { ...form, live: '1' }));
      expect(answer.ok).toBe(true);
      expect(answer.conflict).toBeUndefined();
      const saved = await page('live-title');
      expect(saved?.title).toBe('Typed live');
      expect(saved?.summary).toBe('A summary typed live.');

      // A body edit over the socket: the document's next draft keeps the title and summary.
      client.text.insert(client.text.length, 'Four.\n');
      await waitFor(() => (client.allAcknowledged ? true : undefined), { what: 'the acks' });
      await waitFor(
        async () => ((await page('live-title'))?.bodyMarkdown.includes('Four') ? true : undefined),
        { what: 'the next draft', timeoutMs: 15_000 },
      );
      const after = await page('live-title');
      expect(after?.title).toBe('Typed live');
      expect(after?.summary).toBe('A summary typed live.');
      expect(folio.unexpectedErrors()).toEqual([]);
    } finally {
      client.disconnect();
    }
  }, 60_000);

  test('live=1 over a form’s save the document has not taken yet: its title merged, and kept', async () => {
    const { client, form } = await typedLive('live-over-form');
    try {
      // Another path's save (a form without the socket), at the current version: a new title.
      const current = await page('live-over-form');
      const other = await answerOf(
        await autosave('live-over-form', {
          ...form,
          version: String(current?.version),
          title: 'From a form',
          body: current?.bodyMarkdown ?? '',
        }),
      );
      expect(other.ok).toBe(true);
      // At once, before the server's poll merges that save into the document: a live save.
      const answer = await answerOf(await autosave('live-over-form', { ...form, live: '1' }));
      expect(answer.ok).toBe(true);
      expect((await page('live-over-form'))?.title).toBe('From a form');

      // The document takes it in (its poll), and its next draft keeps it.
      await waitFor(() => (client.title.toString() === 'From a form' ? true : undefined), {
        what: 'the form’s title in the document',
        timeoutMs: 15_000,
      });
      client.text.insert(client.text.length, 'Four.\n');
      await waitFor(() => (client.allAcknowledged ? true : undefined), { what: 'the acks' });
      await waitFor(
        async () =>
          (await page('live-over-form'))?.bodyMarkdown.includes('Four') ? true : undefined,
        { what: 'the next draft', timeoutMs: 15_000 },
      );
      const after = await page('live-over-form');
      expect(after?.title).toBe('From a form');
      expect(after?.bodyMarkdown).toBe('One.\n\nTwo.\nThree, typed live.\nFour.\n');
      expect(folio.unexpectedErrors()).toEqual([]);
    } finally {
      client.disconnect();
    }
  }, 60_000);

  test('live=1 over a form’s save the document has not taken yet: its body kept, once, in the draft and the document', async () => {
    const { client, form } = await typedLive('live-over-body');
    try {
      // Another path's save (a session that ended saves by the form): a line of its own.
      const current = await page('live-over-body');
      const saved = `${current?.bodyMarkdown ?? ''}Saved by the form.\n`;
      const other = await answerOf(
        await autosave('live-over-body', {
          ...form,
          title: 'Before',
          version: String(current?.version),
          body: saved,
        }),
      );
      expect(other.ok).toBe(true);
      // Meanwhile the live editor changes the same last line, and at once (before the server's
      // poll takes the form's save) a live save goes out: the fault run lost the form's words so.
      client.text.insert(client.text.toString().indexOf('Three') + 'Three'.length, ' (still)');
      await waitFor(() => (client.allAcknowledged ? true : undefined), { what: 'the acks' });
      const answer = await answerOf(
        await autosave('live-over-body', { ...form, title: 'Before', live: '1' }),
      );
      expect(answer.ok).toBe(true);
      expect((await page('live-over-body'))?.bodyMarkdown).toContain('Saved by the form.');
      await waitFor(
        () => (client.text.toString().includes('Saved by the form.') ? true : undefined),
        { what: 'the form’s line in the document', timeoutMs: 15_000 },
      );
      client.text.insert(client.text.length, 'Four.\n');
      await waitFor(() => (client.allAcknowledged ? true : undefined), { what: 'the acks' });
      await waitFor(
        async () =>
          (await page('live-over-body'))?.bodyMarkdown.includes('Four') ? true : undefined,
        { what: 'the next draft', timeoutMs: 15_000 },
      );
      // Past the poll's two looks (3 s each): it must not merge that save in a second time.
      const taken = client.text.toString();
      await Bun.sleep(7_000);
      const body = client.text.toString();
      expect(body).toBe(taken);
      expect(body.split('Saved by the form.').length).toBe(2);
      // Both changed the end of the text (adjacent lines): both kept, the document's first.
      expect(body).toContain('Three (still), typed live.');
      expect((await page('live-over-body'))?.bodyMarkdown).toBe(body);
      expect(folio.unexpectedErrors()).toEqual([]);
    } finally {
      client.disconnect();
    }
  }, 60_000);

  test('the control: without live, the same call is a conflict with the document’s own draft', async () => {
    const { client, form } = await typedLive('form-save');
    try {
      const answer = await answerOf(await autosave('form-save', form));
      // The form's stale body merged against the document's draft: asked about, not saved.
      expect(answer.ok).toBe(false);
      expect(answer.conflict).toBeDefined();
      expect((await page('form-save'))?.title).toBe('Before');
    } finally {
      client.disconnect();
    }
  }, 60_000);

  test('live=1 while the page’s document is being made again: not saved, said so, and saved once it is back', async () => {
    // The hostile pass: a Save draft right after the rows were deleted went the form's way and
    // asked about the lines the others had typed ("by you in another tab or window").
    const { client, form } = await typedLive('live-remade');
    try {
      const current = await page('live-remade');
      const db = await folio.database();
      await db.query`DELETE FROM coedit_updates WHERE page_id = ${Number(form.pageId)}`;
      await db.query`DELETE FROM coedit_documents WHERE page_id = ${Number(form.pageId)}`;
      const answer = await answerOf(
        await autosave('live-remade', { ...form, version: String(current?.version), live: '1' }),
      );
      expect(answer.ok).toBe(false);
      expect(JSON.stringify(answer)).toContain('being made again');
      expect(JSON.stringify(answer)).not.toContain('choose below');
      expect((await page('live-remade'))?.version).toBe(current?.version);
      // A connection makes the new document (from the draft); the save then goes through.
      const again = new CoeditClient('live-remade');
      await again.connect(`${folio.url.replace(/^http/, 'ws')}/preview/live-remade?live`, {
        cookie,
        origin: folio.url,
      });
      again.disconnect();
      const retried = await answerOf(
        await autosave('live-remade', { ...form, version: String(current?.version), live: '1' }),
      );
      expect(retried.ok).toBe(true);
      expect((await page('live-remade'))?.bodyMarkdown).toBe('One.\n\nTwo.\nThree, typed live.\n');
      expect(folio.unexpectedErrors()).toEqual([]);
    } finally {
      client.disconnect();
    }
  }, 60_000);

  test('live=1 on a document missing its updates: not saved, said so; the instance writes its memory as the draft and makes it again', async () => {
    // Only the updates deleted by hand, the row left: the save finds the stored document
    // damaged, and has that very document (the row it read) made again — never one made since.
    const { client, form } = await typedLive('live-damaged');
    try {
      const current = await page('live-damaged');
      const db = await folio.database();
      await db.query`DELETE FROM coedit_updates WHERE page_id = ${Number(form.pageId)}`;
      const answer = await answerOf(
        await autosave('live-damaged', { ...form, version: String(current?.version), live: '1' }),
      );
      expect(answer.ok).toBe(false);
      expect(JSON.stringify(answer)).toContain('being made again');
      // The instance that held it wrote what it had heard as the draft, then dropped the row.
      expect((await page('live-damaged'))?.bodyMarkdown).toBe('One.\n\nTwo.\nThree, typed live.\n');
      const [row] = await db.query<{ n: number | string }>`
        SELECT COUNT(*) AS n FROM coedit_documents WHERE page_id = ${Number(form.pageId)}`;
      expect(Number(row?.n)).toBe(0);
      const again = new CoeditClient('live-damaged');
      await again.connect(`${folio.url.replace(/^http/, 'ws')}/preview/live-damaged?live`, {
        cookie,
        origin: folio.url,
      });
      again.disconnect();
      const retried = await answerOf(
        await autosave('live-damaged', {
          ...form,
          version: String((await page('live-damaged'))?.version),
          live: '1',
        }),
      );
      expect(retried.ok).toBe(true);
      expect((await page('live-damaged'))?.bodyMarkdown).toBe('One.\n\nTwo.\nThree, typed live.\n');
      expect(folio.unexpectedErrors()).toEqual([]);
    } finally {
      client.disconnect();
    }
  }, 60_000);
});
