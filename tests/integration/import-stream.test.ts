// `folio import` at scale (issue 25): the files are written a batch at a time, each batch in
// its own short transaction, so a server on the same database keeps answering, and its own
// writes wait a moment at most, while thousands of pages come in.
import { afterAll, describe, expect, test } from 'bun:test';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { IMPORT_BATCH, toFrontMatterFile } from '../../src/lib/content/files';
import { openDatabase } from '../../src/lib/data/db';
import { createThrowAwayDatabase, TEST_ENGINE, type ThrowAwayDatabase } from '../databases';
import { runFolioCli, startFolio, withStore } from '../harness';

const root = mkdtempSync(path.join(tmpdir(), 'folio-import-stream-'));
const made: ThrowAwayDatabase[] = [];
afterAll(async () => {
  rmSync(root, { recursive: true, force: true });
  await Promise.all(made.map((database) => database.drop()));
}, 30_000);

/** A folder of `count` published pages, 1–2 KB of Markdown each. */
function folderOf(count: number, name: string): string {
  const dir = path.join(root, name);
  mkdirSync(dir);
  const body = 'A paragraph of ordinary text about nothing in particular. '.repeat(20);
  for (let n = 1; n <= count; n++)
    writeFileSync(
      path.join(dir, `page-${n}.md`),
      toFrontMatterFile({ title: `Page ${n}`, summary: `Summary ${n}`, body: `${body}\n\n${n}\n` }),
    );
  return dir;
}

async function contentVersion(url: string): Promise<number> {
  const db = await openDatabase(url, { migrate: false });
  try {
    const [row] = await db.query<{ value: string }>`
      SELECT value FROM settings WHERE key = 'content_version'`;
    return Number(row?.value);
  } finally {
    await db.close();
  }
}

describe('import in batches', () => {
  test('more pages than a batch are written in several transactions; piped, no progress line', async () => {
    const database = await createThrowAwayDatabase();
    made.push(database);
    const count = IMPORT_BATCH * 2 + 50;
    const dir = folderOf(count, 'batches');
    expect((await runFolioCli(['db', 'migrate'], { databaseUrl: database.url })).code).toBe(0);
    const before = await contentVersion(database.url);
    const result = await runFolioCli(['import', dir], { databaseUrl: database.url });
    expect(result).toEqual({
      code: 0,
      stdout: `imported ${count} files from ${dir}\n`,
      stderr: '',
    });
    // Every write transaction moves the content version on once: one per batch of files.
    expect((await contentVersion(database.url)) - before).toBe(3);
  }, 60_000);

  // One engine: what it guards (readers and writers keep going while an import writes in
  // batches) holds on both, and the PostgreSQL half of the suite is the longer one.
  test.if(TEST_ENGINE === 'sqlite')(
    'a server on the same database keeps answering, reads and writes, during an import of 2 000 pages',
    async () => {
      const folio = await startFolio();
      try {
        const dir = folderOf(2_000, 'served');
        const importing = runFolioCli(['import', dir], { databaseUrl: folio.databaseUrl });
        let finished = false;
        void importing.finally(() => {
          finished = true;
        });
        const reads: number[] = [];
        const writes: number[] = [];
        let saves = 0;
        while (!finished) {
          const started = performance.now();
          const response = await fetch(`${folio.url}/about`);
          expect(response.status).toBe(200);
          await response.text();
          reads.push(performance.now() - started);
          // A write of the site's own (an editor saving a draft), from another connection as a
          // second instance would: it waits for the import's current batch, not its whole run.
          const saving = performance.now();
          await withStore(folio, (store) =>
            store.putPage({ slug: 'during', title: `Save ${++saves}`, summary: '', body: 'text' }),
          );
          writes.push(performance.now() - saving);
        }
        const result = await importing;
        expect(result.stderr).toBe('');
        expect(result.stdout).toBe(`imported 2000 files from ${dir}\n`);
        expect(reads.length).toBeGreaterThan(3);
        // Generous on a busy 2-core machine: a stall would be the whole import (many seconds).
        expect(Math.max(...reads)).toBeLessThan(5_000);
        expect(Math.max(...writes)).toBeLessThan(5_000);
        expect(folio.unexpectedErrors()).toEqual([]);
      } finally {
        await folio.stop();
      }
    },
    120_000,
  );
});
