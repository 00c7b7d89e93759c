import { afterAll, describe, expect, test } from 'bun:test';
import { openTestDatabase } from '../../../tests/databases';
import { createContentStore } from './content';
import {
  type ContentSource,
  exportBatches,
  exportContent,
  ImportStopped,
  importBatches,
  importContent,
  parseContentFile,
  toFrontMatterFile,
} from './files';

// On the run's engine (FOLIO_TEST_ENGINE).
const opened: Awaited<ReturnType<typeof openTestDatabase>>[] = [];
async function freshStore() {
  const db = await openTestDatabase();
  opened.push(db);
  return { db, store: createContentStore(db) };
}
// Dropping five PostgreSQL databases one after another passed bun's 5 s hook limit on a
// loaded machine: they go together, with room to spare.
afterAll(async () => {
  await Promise.all(opened.map((db) => db.dispose()));
}, 30_000);

describe('content files', () => {
  test('export then import gives back every field exactly, odd characters included', async () => {
    const { store } = await freshStore();
    const title = 'Line\u2028separator and paragraph\u2029separator, "quotes", \\ and é';
    const summary = 'Tab\there, a --- rule and a # heading-like text';
    const body = '---\nA body that starts with a rule.\n\n  indented\n\u2028\nend without newline';
    await store.putPage({ slug: 'odd', title, summary, body }, { publish: true, editor: 'test' });
    await store.putPage(
      { slug: 'odd', title: `${title} (draft)`, summary, body: `${body}\nmore` },
      { publish: false, editor: 'test' },
    );
    const files = await exportContent(store);
    expect(files.map((file) => file.name).sort()).toEqual(['odd.draft.md', 'odd.md']);
    // Nothing in a file breaks a line where a text editor or YAML reader would not expect it.
    for (const file of files)
      expect(file.text.slice(0, file.text.indexOf('\n---\n'))).not.toMatch(/[\u2028\u2029]/);

    const copy = await freshStore();
    expect(await importContent(copy.store, files)).toEqual({
      imported: 2,
      problems: [],
      missingMedia: [],
    });
    for (const draft of [false, true]) {
      const before = await store.getPage('odd', { draft });
      const after = await copy.store.getPage('odd', { draft });
      expect(after?.title).toBe(before?.title ?? 'missing');
      expect(after?.summary).toBe(before?.summary ?? 'missing');
      expect(after?.bodyMarkdown).toBe(before?.bodyMarkdown ?? 'missing');
    }
    expect((await copy.store.getPage('odd', { draft: false }))?.title).toBe(title);
  });

  test('pages naming images this database lacks are imported, and the images named', async () => {
    // Export writes Markdown only; the images come by backup or `db copy`, maybe afterwards.
    // Publishing by hand refuses such a text (visitors would see a broken image); an import
    // brings it in and says which images to bring.
    const { store } = await freshStore();
    const hash = 'a'.repeat(32);
    const result = await importContent(store, [
      {
        name: 'pictured.md',
        text: toFrontMatterFile({ title: 'P', summary: '', body: `![A cat](/media/${hash})` }),
      },
    ]);
    expect(result).toEqual({ imported: 1, problems: [], missingMedia: [`/media/${hash}`] });
    expect((await store.getPage('pictured', { draft: false }))?.bodyMarkdown).toContain(hash);
  });

  test('a file written with CRLF lines reads like the same file with LF lines', async () => {
    const lf = toFrontMatterFile({ title: 'Title', summary: 'Sum', body: 'one\n\ntwo\n' });
    const crlf = lf.replace(/\n/g, '\r\n');
    const fromLf = parseContentFile({ name: 'page.md', text: lf });
    const fromCrlf = parseContentFile({ name: 'page.md', text: `\uFEFF${crlf}` });
    expect(fromCrlf).toEqual(fromLf);
    expect(fromLf.fields).toEqual({ title: 'Title', summary: 'Sum', body: 'one\n\ntwo\n' });
  });

  test('bodies are stored with LF line endings, whatever the browser sent', async () => {
    const { store } = await freshStore();
    await store.putPage(
      { slug: 'crlf', title: 'T', summary: '', body: 'a\r\nb\rc\n' },
      { publish: true, editor: 'test' },
    );
    expect((await store.getPage('crlf', { draft: false }))?.bodyMarkdown).toBe('a\nb\nc\n');
  });

  test('bad files are refused with the reason, and none of a batch is imported', async () => {
    const { store } = await freshStore();
    const good = {
      name: 'good.md',
      text: toFrontMatterFile({ title: 'G', summary: '', body: '' }),
    };
    const result = await importContent(store, [
      good,
      { name: 'no-front.md', text: 'just text' },
      { name: 'bad-value.md', text: '---\ntitle: unquoted\n---\n' },
      { name: 'Bad Name.md', text: good.text },
      { name: 'notes.txt', text: good.text },
    ]);
    expect(result.imported).toBe(0);
    expect(result.problems).toEqual([
      'no-front.md: missing front matter (--- title/summary ---)',
      'bad-value.md: title must be a quoted string',
      expect.stringMatching(/^Bad Name\.md: bad slug "Bad Name": /),
      'notes.txt: the file name must be <slug>.md or <slug>.draft.md',
    ]);
    expect(await store.listAll()).toEqual([]);
  });
});

// Issue 25: import held every file of the folder, and export every page, in memory at once
// (41 KB a page; 4.3 GB at 100 000 pages). Both now go a batch at a time.
describe('content files in batches', () => {
  const text = (title: string) => toFrontMatterFile({ title, summary: '', body: `${title}\n` });

  test('import batches hold at most the batch size, a page and its draft together, published first', () => {
    const names = ['a.md', 'b.draft.md', 'b.md', 'c.md', 'd.draft.md', 'e.draft.md', 'e.md'];
    const batches = [...importBatches(names, 3)];
    expect(batches).toEqual([
      ['a.md', 'b.md', 'b.draft.md'],
      ['c.md', 'd.draft.md'],
      ['e.md', 'e.draft.md'],
    ]);
    for (const batch of batches) expect(batch.length).toBeLessThanOrEqual(3);
  });

  test('import reads at most a batch of files between two commits, one transaction each', async () => {
    const { store } = await freshStore();
    const files = new Map([1, 2, 3, 4, 5].map((n) => [`p${n}.md`, text(`P${n}`)]));
    const seen: string[] = [];
    const source: ContentSource = {
      names: [...files.keys()],
      read: async (name) => {
        seen.push('read');
        return files.get(name) ?? { problem: 'gone' };
      },
    };
    const result = await importContent(store, source, {
      batchSize: 2,
      onProgress: (done, total) => seen.push(`${done}/${total}`),
    });
    expect(result).toEqual({ imported: 5, problems: [], missingMedia: [] });
    // Every file is checked first (five reads), then written two at a time.
    expect(seen.join(' ')).toBe('read read read read read read read 2/5 read read 4/5 read 5/5');
    expect((await store.getPage('p5', { draft: false }))?.title).toBe('P5');
  });

  test('a batch that fails stops the import and says which files are in', async () => {
    const { store } = await freshStore();
    const files = new Map([1, 2, 3, 4, 5].map((n) => [`p${n}.md`, text(`P${n}`)]));
    let reads = 0;
    const source: ContentSource = {
      names: [...files.keys()],
      // The third file changes after the check (the sixth and later reads are the writes).
      read: async (name) =>
        ++reads > 5 && name === 'p3.md' ? 'no front matter now' : (files.get(name) ?? ''),
    };
    const stopped = await importContent(store, source, { batchSize: 2 }).then(
      () => null,
      (error: unknown) => error,
    );
    expect(stopped).toBeInstanceOf(ImportStopped);
    expect((stopped as ImportStopped).message).toBe(
      'import stopped after 2 of 5 files (the pages up to p2.md, in name order, are imported; the rest are not): p3.md: missing front matter (--- title/summary ---) (changed since it was checked); run the same import again to finish it',
    );
    expect((await store.listAll()).map((page) => page.slug)).toEqual(['p1', 'p2']);
  });

  test('export yields a batch of pages at a time, in id order, and all of them', async () => {
    const { store } = await freshStore();
    for (const n of [1, 2, 3, 4, 5])
      await store.putPage(
        { slug: `p${n}`, title: `P${n}`, summary: '', body: '' },
        { publish: true },
      );
    await store.putPage({ slug: 'p2', title: 'P2 draft', summary: '', body: '' });
    await store.putPage({ slug: 'p6', title: 'P6 draft only', summary: '', body: '' });
    const batches: string[][] = [];
    for await (const files of exportBatches(store, 2)) batches.push(files.map((file) => file.name));
    expect(batches).toEqual([
      ['p1.md', 'p2.md', 'p2.draft.md'],
      ['p3.md', 'p4.md'],
      ['p5.md', 'p6.draft.md'],
    ]);
  });
});
