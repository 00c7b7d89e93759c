import { afterEach, describe, expect, test } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createContentStore, FULL_MESSAGE, isContentError } from '../content/content';
import { type Database, openDatabase } from './db';
import { isDatabaseFull } from './db-errors';

let db: Database | null = null;
let dir: string | null = null;
afterEach(async () => {
  await db?.close();
  db = null;
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = null;
});

describe('a full SQLite file', () => {
  test('a write that does not fit is SQLITE_FULL, remembered until a write succeeds again', async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'folio-full-'));
    db = await openDatabase(`sqlite:${path.join(dir, 'folio.db')}`);
    const store = createContentStore(db);
    await store.putPage({ slug: 'fits', title: 'Fits', summary: '', body: 'small' });
    expect(db.writeFailedFullAt()).toBeNull();
    // SQLite's own cap on this connection (the server's connection cannot be capped from
    // outside: max_page_count is per connection), so the next page does not fit.
    const [{ page_count: pages } = { page_count: 0 }] = await db.query<{
      page_count: number;
    }>`PRAGMA page_count`;
    await db.query.unsafe(`PRAGMA max_page_count = ${Number(pages)}`);
    const refused = await store
      .putPage({ slug: 'too-big', title: 'Too big', summary: '', body: 'x'.repeat(200_000) })
      .then(
        () => null,
        (error: unknown) => error,
      );
    // The store's words for an editor: "cannot save right now", the text kept (no bug).
    expect(isContentError(refused)).toBe(true);
    expect((refused as Error).message).toBe(FULL_MESSAGE);
    expect(db.writeFailedFullAt()).not.toBeNull();
    // Reads go on.
    expect((await store.getPage('fits', { draft: true }))?.title).toBe('Fits');
    const raw = await db
      .transaction(
        (q) => q`INSERT INTO schema_migrations (id, name, applied_at)
        VALUES (9999, ${'x'.repeat(200_000)}, '')`,
      )
      .then(
        () => null,
        (error: unknown) => error,
      );
    expect(isDatabaseFull(raw)).toBe(true);
    // Room again: the next write that succeeds clears it.
    await db.query.unsafe('PRAGMA max_page_count = 1073741823');
    await store.putPage({ slug: 'fits', title: 'Fits again', summary: '', body: 'small' });
    expect(db.writeFailedFullAt()).toBeNull();
  });
});

describe('inside a transaction', () => {
  test('the same database is refused (it would wait for itself); another database answers', async () => {
    // `db copy` reads its source a batch at a time inside the target's transaction (issue 25).
    dir = mkdtempSync(path.join(tmpdir(), 'folio-nesting-'));
    db = await openDatabase(`sqlite:${path.join(dir, 'target.db')}`);
    const other = await openDatabase(`sqlite:${path.join(dir, 'source.db')}`);
    try {
      const target = db;
      const seen = await target.transaction(async () => {
        // Refused at once, as it is called (not waited on).
        let same = 'answered';
        try {
          await target.query`SELECT 1 AS n`;
        } catch (error) {
          same = (error as Error).message;
        }
        const [row] = await other.query<{ n: number }>`SELECT 2 AS n`;
        return { same, other: row?.n };
      });
      expect(seen).toEqual({
        same: 'database used from inside a transaction: use the query the work was given',
        other: 2,
      });
    } finally {
      await other.close();
    }
  });
});
