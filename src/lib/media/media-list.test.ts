import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import sharp from 'sharp';
import { createThrowAwayDatabase, openTestDatabase, TEST_ENGINE } from '../../../tests/databases';
import { type ContentStore, createContentStore } from '../content/content';
import { migrate, openDatabase, sqlTemplate } from '../data/db';
import { copySite } from '../data/db-copy';
import { migrations } from '../data/migrations';
import { createMediaStore, type MediaStore, processImage } from './media';
import { mediaListStatement } from './media-list';
import type { MediaListQuery } from './media-list-params';

// The media library at any size (issue 25), on the run's engine (FOLIO_TEST_ENGINE): where an
// image is used is read from media_uses, which follows every write (save, publish, unpublish,
// discard, delete, restore, db copy, the migration's backfill); the list is keyset-paged on
// the upload index and searched through the full-text index.
let db: Awaited<ReturnType<typeof openTestDatabase>>;
let store: ContentStore;
let media: MediaStore;

beforeEach(async () => {
  db = await openTestDatabase();
  store = createContentStore(db);
  media = createMediaStore(db);
});

afterEach(async () => {
  await db.dispose();
});

async function upload(colour: string, alt = `A ${colour} square`): Promise<string> {
  const bytes = await sharp({ create: { width: 24, height: 16, channels: 3, background: colour } })
    .png()
    .toBuffer();
  const item = await media.add(await processImage(new Uint8Array(bytes)), {
    alt,
    filename: `${colour.slice(1)}.png`,
  });
  return item.hash;
}

const usesOf = async (hash: string) => (await media.uses([hash])).get(hash);
const page = (slug: string, body: string) => ({ slug, title: slug, summary: '', body });

describe('where an image is used', () => {
  test('follows saves, publishes, unpublish, discard, restore and delete', async () => {
    const red = await upload('#cc2200');
    const blue = await upload('#0033cc');
    expect(await usesOf(red)).toEqual({ pages: 0, shown: [] });

    await store.putPage(page('one', `![red](/media/${red})`));
    expect(await usesOf(red)).toEqual({
      pages: 1,
      shown: [{ slug: 'one', published: false, draft: true }],
    });
    await store.publish('one');
    expect(await usesOf(red)).toEqual({
      pages: 1,
      shown: [{ slug: 'one', published: true, draft: false }],
    });
    // A draft without it: visitors still see it; then published, it is used nowhere.
    await store.putPage(page('one', `![blue](/media/${blue})`));
    expect((await usesOf(red))?.shown).toEqual([{ slug: 'one', published: true, draft: false }]);
    expect((await usesOf(blue))?.shown).toEqual([{ slug: 'one', published: false, draft: true }]);
    await store.discardDraft('one');
    expect((await usesOf(blue))?.pages).toBe(0);
    await store.putPage(page('one', 'No image.'), { publish: true });
    expect((await usesOf(red))?.pages).toBe(0);
    // Deletable now; restoring the version that showed it brings the use back as a draft.
    const current = await store.getPage('one', { draft: true });
    if (!current) throw new Error('no page');
    const withRed = (await store.listRevisions(current.id)).at(-1);
    if (!withRed) throw new Error('no revision');
    const restored = await store.restoreRevision({
      pageId: current.id,
      revisionId: withRed.id,
      expectedVersion: current.version,
      editor: null,
    });
    expect(restored.ok).toBe(true);
    expect((await usesOf(red))?.shown).toEqual([{ slug: 'one', published: false, draft: true }]);
    // Unpublishing keeps the text as a draft: still used.
    await store.publish('one');
    await store.unpublish('one');
    expect((await usesOf(red))?.shown).toEqual([{ slug: 'one', published: false, draft: true }]);
    // A page never published is deleted with its draft.
    await store.putPage(page('two', `![blue](/media/${blue})`));
    expect((await usesOf(blue))?.pages).toBe(1);
    await store.discardDraft('two');
    expect((await usesOf(blue))?.pages).toBe(0);
  });

  test('an image in use is not deleted, and the refusal names its pages; unused, it goes', async () => {
    const red = await upload('#cc2200');
    for (const slug of ['a', 'b', 'c', 'd', 'e', 'f', 'g'])
      await store.putPage(page(`use-${slug}`, `![red](/media/${red})`), { publish: slug < 'd' });
    const refusal = await media.remove(red).catch((error: unknown) => error as Error);
    expect(refusal).toBeInstanceOf(Error);
    expect((refusal as { code?: string }).code).toBe('conflict');
    expect((refusal as Error).message).toContain(
      '/use-a, /use-b, /use-c, /use-d, /use-e and 2 more',
    );
    expect((await usesOf(red))?.pages).toBe(7);
    for (const slug of ['a', 'b', 'c', 'd', 'e', 'f', 'g'])
      await store.putPage(page(`use-${slug}`, 'Gone.'), { publish: true });
    await media.remove(red);
    expect((await media.byHashes([red])).size).toBe(0);
  });

  test('db copy rebuilds the uses and the search on the other engine', async () => {
    const red = await upload('#cc2200', 'Harbour at dusk');
    await store.putPage(page('pub', `![x](/media/${red})`), { publish: true });
    await store.putPage(page('draft', `![x](/media/${red})`));
    const other = await openTestDatabase(TEST_ENGINE === 'sqlite' ? 'postgres' : 'sqlite');
    try {
      await copySite(db, other);
      const copied = createMediaStore(other);
      expect((await copied.uses([red])).get(red)).toEqual({
        pages: 2,
        shown: [
          { slug: 'pub', published: true, draft: false },
          { slug: 'draft', published: false, draft: true },
        ],
      });
      expect((await copied.page({ q: 'harbour', cursor: null })).items.map((i) => i.hash)).toEqual([
        red,
      ]);
    } finally {
      await other.dispose();
    }
  }, 30_000);

  test('migration 11 reads the uses of the texts already there', async () => {
    // Migrates a new database from nothing: under a second alone, 3 s beside two spin loops,
    // but a whole suite run with both cores loaded timed it out at 20–30 s and then at 60 s
    // (all its work is waits on the server: creating, migrating, dropping a database).
    const made = await createThrowAwayDatabase();
    const old = await openDatabase(made.url, { migrate: false, poolSize: 2 });
    try {
      await migrate(
        old,
        migrations.filter((migration) => migration.id < 11),
      );
      const hash = 'ab'.repeat(16);
      const html = (n: number) => `<p><img src="/media/${hash}/original.png" alt="${n}"></p>`;
      await old.transaction(async (q) => {
        await q`INSERT INTO pages (id, slug, created_at, updated_at) VALUES
                (1, 'old', '2026-01-01', '2026-01-01'), (2, 'older', '2026-01-01', '2026-01-01')`;
        await q`INSERT INTO revisions (id, page_id, title, summary, body, body_html, published_at)
                VALUES (1, 1, 'Old', '', 'x', ${html(1)}, '2026-01-01')`;
        await q`UPDATE pages SET published_revision_id = 1 WHERE id = 1`;
        await q`INSERT INTO drafts (page_id, title, summary, body, body_html, updated_at)
                VALUES (2, 'Older', '', 'x', ${html(2)}, '2026-01-01'),
                       (1, 'Old', '', 'y', '<p>none</p>', '2026-01-01')`;
      });
      expect((await migrate(old)).map((migration) => migration.id)).toContain(11);
      expect((await createMediaStore(old).uses([hash])).get(hash)).toEqual({
        pages: 2,
        shown: [
          { slug: 'old', published: true, draft: false },
          { slug: 'older', published: false, draft: true },
        ],
      });
    } finally {
      await old.close();
      await made.drop();
    }
  }, 180_000);
});

/** `count` images straight into the table (no bytes: the list reads only their rows). */
async function addImages(count: number) {
  await db.transaction(async (q) => {
    for (let i = 0; i < count; i++)
      await q`INSERT INTO media (hash, filename, alt, format, width, height, bytes, created_at)
              VALUES (${i.toString(16).padStart(32, '0')}, ${`IMG_${1000 + i}.jpg`},
                      ${i % 10 === 3 ? 'A quokka smiling' : `Picture number ${i}`}, 'jpeg',
                      40, 30, 100, ${new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString()})`;
  });
}

const query = (over: Partial<MediaListQuery> = {}): MediaListQuery => ({
  q: '',
  cursor: null,
  ...over,
});

describe('the library list', () => {
  test('pages 40 at a time, newest first, by keyset, there and back', async () => {
    await addImages(120);
    const first = await media.page(query());
    expect(first.total).toBe(120);
    expect(first.items.map((item) => item.filename).slice(0, 2)).toEqual([
      'IMG_1119.jpg',
      'IMG_1118.jpg',
    ]);
    expect(first.previous).toBeNull();
    const second = await media.page(query({ cursor: first.next }));
    const third = await media.page(query({ cursor: second.next }));
    expect([first, second, third].map((list) => list.items.length)).toEqual([40, 40, 40]);
    expect(third.next).toBeNull();
    const names = [first, second, third].flatMap((list) => list.items.map((i) => i.filename));
    expect(new Set(names).size).toBe(120);
    const back = await media.page(query({ cursor: third.previous }));
    expect(back.items.map((item) => item.hash)).toEqual(second.items.map((item) => item.hash));
  });

  test('searches file names and alt text through the full-text index', async () => {
    await addImages(60);
    const quokkas = await media.page(query({ q: 'quokka' }));
    expect(quokkas.matching).toBe(6);
    expect(quokkas.items.every((item) => item.alt.includes('quokka'))).toBe(true);
    const byName = await media.page(query({ q: 'IMG_1042' }));
    expect(byName.items.map((item) => item.filename)).toEqual(['IMG_1042.jpg']);
    expect((await media.page(query({ q: 'nothing-like-it' }))).items).toEqual([]);
  });

  test('search ignores accents, in the name, the alt text and what is typed', async () => {
    await db.query`INSERT INTO media (hash, filename, alt, format, width, height, bytes, created_at)
      VALUES (${'e'.repeat(32)}, ${'Café-Façade.jpg'}, ${'Fjällräven on the Zürichsee'}, 'jpeg',
              40, 30, 100, ${new Date(Date.UTC(2026, 0, 2)).toISOString()})`;
    const names = async (q: string) =>
      (await media.page(query({ q }))).items.map((item) => item.filename);
    expect(await names('cafe facade')).toEqual(['Café-Façade.jpg']);
    expect(await names('zurichsee')).toEqual(['Café-Façade.jpg']);
    expect(await names('FJÄLL')).toEqual(['Café-Façade.jpg']);
  });

  test('its statement walks the upload index, with or without a cursor, never sorting', async () => {
    await addImages(5);
    const first = await media.page(query({}));
    const cursors = [
      null,
      first.next,
      first.next && { ...first.next, direction: 'before' as const },
    ];
    for (const cursor of cursors) {
      const { sql, values } = mediaListStatement(db.engine, cursor, { kind: 'none' }, 50);
      const plan =
        db.engine === 'sqlite'
          ? (
              await db.query<{ detail: string }>(
                sqlTemplate([`EXPLAIN QUERY PLAN ${sql[0]}`, ...sql.slice(1)]),
                ...values,
              )
            )
              .map((row) => row.detail)
              .join('\n')
          : await db.transaction(async (q) => {
              // A small table is cheaper to scan and sort: made dear, the plan shows whether
              // the index can give the order at all.
              await q.unsafe('SET LOCAL enable_seqscan = off');
              await q.unsafe('SET LOCAL enable_sort = off');
              const rows = await q<{ 'QUERY PLAN': string }>(
                sqlTemplate([`EXPLAIN ${sql[0]}`, ...sql.slice(1)]),
                ...values,
              );
              return rows.map((row) => row['QUERY PLAN']).join('\n');
            });
      expect(plan, JSON.stringify(cursor)).toContain('media_by_upload');
      if (db.engine === 'sqlite') expect(plan).not.toContain('TEMP B-TREE');
      else expect(plan).not.toMatch(/^\s*(->\s*)?Sort/m);
    }
  });
});
