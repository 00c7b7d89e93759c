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

// Issue 25: the dashboard's listing columns and full-text index are not copied (they are not
// the site's data) but rebuilt on the target by its triggers as the rows arrive, both ways.
test('db copy leaves the target searchable and its page states right, both ways', async () => {
  const sqlite = await openTestDatabase('sqlite');
  const postgres = await openTestDatabase('postgres');
  const back = await openTestDatabase('sqlite');
  opened.push(sqlite, postgres, back);
  const store = createContentStore(sqlite);
  await store.putPage(
    { slug: 'live', title: 'Live', summary: '', body: 'published walrus' },
    { publish: true },
  );
  await store.putPage({ slug: 'live', title: 'Live again', summary: '', body: 'draft narwhal' });
  await store.putPage({ slug: 'plain', title: 'Plain', summary: '', body: 'only a puffin' });
  await store.putPage(
    { slug: 'steady', title: 'Steady', summary: '', body: 'a quiet gannet' },
    { publish: true },
  );
  const seen = async (db: Database) => {
    const target = createContentStore(db);
    const search = async (q: string) =>
      (await target.listPages({ q, state: 'all', sort: 'title', cursor: null })).rows.map(
        (row) => `${row.slug} ${row.state} ${row.title}`,
      );
    return {
      narwhal: await search('narwhal'),
      walrus: await search('walrus'),
      puffin: await search('puffin'),
      gannet: await search('gannet'),
    };
  };
  const expected = {
    narwhal: ['live changed Live again'],
    walrus: [],
    puffin: ['plain draft-only Plain'],
    gannet: ['steady published Steady'],
  };
  expect(await seen(sqlite)).toEqual(expected);
  await copySite(sqlite, postgres);
  expect(await seen(postgres)).toEqual(expected);
  await copySite(postgres, back);
  expect(await seen(back)).toEqual(expected);
}, 30_000);
