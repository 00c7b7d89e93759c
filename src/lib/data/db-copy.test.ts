import { afterEach, expect, test } from 'bun:test';
import { openTestDatabase } from '../../../tests/databases';
import { createContentStore } from '../content/content';
import type { Database } from './db';
import { copySite } from './db-copy';

const opened: { dispose(): Promise<void> }[] = [];
afterEach(async () => {
  for (const db of opened.splice(0)) await db.dispose();
});

const eventsIn = (db: Database) =>
  db.query<{
    id: number | string;
    type: string;
    slug: string | null;
    dispatched_at: string | null;
  }>`
    SELECT id, type, slug, dispatched_at FROM events ORDER BY id`;

test('db copy takes the content-events outbox along, dispatched or not, ids kept', async () => {
  const sqlite = await openTestDatabase('sqlite');
  const postgres = await openTestDatabase('postgres');
  opened.push(sqlite, postgres);
  const store = createContentStore(sqlite);
  await store.putPage({ slug: 'one', title: 'One', summary: '', body: 'x' }, { publish: true });
  expect(await store.dispatchEvents()).toBe(1);
  await store.renameSlug('one', 'uno');

  const counts = await copySite(sqlite, postgres);
  expect(counts.events).toEqual({ source: 2, target: 2 });
  const copied = await eventsIn(postgres);
  expect(copied.map((row) => ({ ...row, id: Number(row.id) }))).toEqual(
    (await eventsIn(sqlite)).map((row) => ({ ...row, id: Number(row.id) })),
  );
  // The target's dispatcher delivers what the source had not; new events follow the copied ids.
  const target = createContentStore(postgres);
  const got: string[] = [];
  target.subscribeToEvents((event) => {
    got.push(`${event.id} ${event.type}`);
  });
  await target.unpublish('uno');
  expect(await target.dispatchEvents()).toBe(2);
  expect(got).toEqual(['2 page.renamed', '3 page.unpublished']);
}, 30_000);
