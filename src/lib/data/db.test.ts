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
