import { afterEach, expect, test } from 'bun:test';
import { openTestDatabase } from '../../../tests/databases';
import { createContentStore } from '../content/content';
import { addEditor } from '../editors/accounts';
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

  await store.addRedirect({ from: '/2019/old-one', to: '/uno', status: 302 });
  const writer = await addEditor(sqlite, 'writer@example.com', 'the writer passphrase');
  await store.saveAuthorProfile(writer.id, {
    slug: 'writer',
    name: 'A Writer',
    bio: '',
    photo: '',
    links: '',
  });

  const counts = await copySite(sqlite, postgres);
  expect(counts.events).toEqual({ source: 2, target: 2 });
  // The editors' redirects go along (issue 27).
  expect(await createContentStore(postgres).findSiteRedirect('/2019/old-one')).toEqual({
    location: '/uno',
    status: 302,
  });
  // And the authors, still their editors' (issue 27).
  expect(await createContentStore(postgres).authorOfEditor(writer.id)).toMatchObject({
    slug: 'writer',
    name: 'A Writer',
  });
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

test('db copy reads every table a batch at a time, in key order, and misses no row', async () => {
  // Issue 25: the copy held every table in memory at once (41 KB a page). It now reads each
  // table by keyset, `batchSize` rows at a time; a two-row batch crosses every boundary,
  // composite keys (media_variants) included.
  const sqlite = await openTestDatabase('sqlite');
  const postgres = await openTestDatabase('postgres');
  opened.push(sqlite, postgres);
  const store = createContentStore(sqlite);
  for (let n = 1; n <= 5; n++)
    await store.putPage(
      { slug: `page-${n}`, title: `Page ${n}`, summary: '', body: `text ${n}` },
      { publish: true },
    );
  await store.putPage({ slug: 'page-2', title: 'Draft', summary: '', body: 'draft' });
  await store.putPage({ slug: 'page-4', title: 'Draft', summary: '', body: 'draft' });
  await store.renameSlug('page-3', 'third');
  // An author who changed their address (migration 29): the old one still leads to them.
  const ed = (await addEditor(sqlite, 'ed@example.com', 'the ed passphrase')).id;
  const profile = (slug: string) => ({ slug, name: 'Ed', bio: '', photo: '', links: '' });
  await store.saveAuthorProfile(ed, profile('ed'));
  await store.putPage(
    {
      slug: 'page-6',
      title: 'By Ed',
      summary: '',
      body: 'x',
      post: { kind: 'post', topics: [], authors: ['ed'] },
    },
    { publish: true },
  );
  await store.saveAuthorProfile(ed, profile('ed-writes'));
  await sqlite.transaction(async (q) => {
    for (const id of [1, 2]) {
      await q`INSERT INTO media (id, hash, filename, alt, format, width, height, bytes, created_at)
              VALUES (${id}, ${String(id).repeat(32)}, 'a.png', '', 'png', 4, 4, 3, '2026-01-01')`;
      for (const name of ['a', 'b', 'c'])
        await q`INSERT INTO media_variants (media_id, name, content_type, width, height, data)
                VALUES (${id}, ${name}, 'image/png', 4, 4, ${new Uint8Array([id, 1, 2])})`;
    }
  });
  const batches: Record<string, number[]> = {};
  const counts = await copySite(sqlite, postgres, {
    batchSize: 2,
    onProgress: (table, copied) => {
      batches[table] = [...(batches[table] ?? []), copied];
    },
  });
  for (const [table, { source, target }] of Object.entries(counts))
    expect({ table, target }).toEqual({ table, target: source });
  expect(batches.pages).toEqual([2, 4, 6]);
  expect(batches.revisions).toEqual([2, 4, 6]);
  expect(counts.author_slug_history).toEqual({ source: 1, target: 1 });
  expect(batches.media_variants).toEqual([2, 4, 6]);
  const variants = await postgres.query<{ media_id: number; name: string; data: Uint8Array }>`
    SELECT media_id, name, data FROM media_variants ORDER BY media_id, name`;
  expect(variants.map((row) => `${row.media_id}${row.name}${[...row.data].join('.')}`)).toEqual([
    '1a1.1.2',
    '1b1.1.2',
    '1c1.1.2',
    '2a2.1.2',
    '2b2.1.2',
    '2c2.1.2',
  ]);
  const copy = createContentStore(postgres);
  expect((await copy.getPage('third', { draft: false }))?.title).toBe('Page 3');
  expect((await copy.getPage('page-4', { draft: true }))?.title).toBe('Draft');
  expect((await copy.getPage('page-4', { draft: false }))?.title).toBe('Page 4');
  expect(await copy.findRedirect('ed')).toBe('ed-writes');
}, 30_000);
