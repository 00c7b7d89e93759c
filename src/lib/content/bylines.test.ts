import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import sharp from 'sharp';
import { openTestDatabase } from '../../../tests/databases';
import { insertPublishedPages } from '../../../tests/generated-site';
import { type Query, sqlTemplate } from '../data/db';
import { addEditor, removeEditor } from '../editors/accounts';
import { createMediaStore, processImage } from '../media/media';
import { type ContentStore, createContentStore, isContentError } from './content';
import { LISTING_PAGE_SIZE, LISTING_QUERIES, listingSlugsOf } from './posts';

// Bylines (issue 27): a post's authors, drafted and published like its topics, on the run's
// engine (FOLIO_TEST_ENGINE).
let db: Awaited<ReturnType<typeof openTestDatabase>>;
let store: ContentStore;
let clock = Date.parse('2026-01-01T00:00:00Z');
let adaEditor = 0;

beforeEach(async () => {
  db = await openTestDatabase();
  clock = Date.parse('2026-01-01T00:00:00Z');
  store = createContentStore(db, () => {
    clock += 1000;
    return new Date(clock);
  });
  // The site's first editor is its Owner, never removed (issue 28): Ada and Grace come after.
  await addEditor(db, 'owner@example.com', 'the owner passphrase');
  adaEditor = (await addEditor(db, 'ada@example.com', 'the ada passphrase')).id;
  const grace = (await addEditor(db, 'grace@example.com', 'the grace passphrase')).id;
  await store.saveAuthorProfile(adaEditor, {
    slug: 'ada',
    name: 'Ada Lovelace',
    bio: 'Engines.',
    photo: '',
    links: 'https://example.com/ada',
  });
  await store.saveAuthorProfile(grace, {
    slug: 'grace',
    name: 'Grace Hopper',
    bio: '',
    photo: '',
    links: '',
  });
});
afterEach(async () => {
  await db.dispose();
});

const text = (title: string) => ({ title, summary: `${title} summary`, body: `${title} body` });

async function post(
  slug: string,
  authors: string[] | undefined,
  { publish = true, editor = null }: { publish?: boolean; editor?: string | null } = {},
) {
  return store.saveDraft(
    {
      slug,
      ...text(slug),
      expectedVersion: null,
      editor,
      post: { kind: 'post', topics: [], ...(authors ? { authors } : {}) },
    },
    { publish },
  );
}

async function edit(slug: string, authors: string[]) {
  const page = await store.getPage(slug, { draft: true });
  return store.saveDraft({
    slug,
    ...text(slug),
    pageId: page?.id,
    expectedVersion: page?.version ?? 0,
    editor: null,
    post: { kind: 'post', topics: [], authors },
  });
}

const bylineOf = async (slug: string, draft: boolean) =>
  (await store.bylinesByIds((await store.getPage(slug, { draft }))?.authorIds ?? [])).map(
    (a) => a.name,
  );

describe('bylines', () => {
  test('a new post by an editor with a profile is theirs; one by another has none', async () => {
    await post('mine', undefined, { editor: 'ada@example.com' });
    await post('theirs', undefined, { editor: 'nobody@example.com' });
    expect(await bylineOf('mine', false)).toEqual(['Ada Lovelace']);
    expect(await bylineOf('theirs', false)).toEqual([]);
    // Said explicitly (the editor's form unticked): no authors, whoever writes it.
    await post('anonymous', [], { editor: 'ada@example.com' });
    expect(await bylineOf('anonymous', false)).toEqual([]);
  });

  test('drafted and published like topics: visitors see the published byline only', async () => {
    await post('duo', ['ada', 'grace']);
    expect(await bylineOf('duo', false)).toEqual(['Ada Lovelace', 'Grace Hopper']);
    expect(await store.getPublicAuthor('grace')).not.toBeNull();
    await edit('duo', ['grace']);
    expect(await bylineOf('duo', true)).toEqual(['Grace Hopper']);
    expect(await bylineOf('duo', false)).toEqual(['Ada Lovelace', 'Grace Hopper']);
    const listed = (await store.listPosts(1, { authorId: 1 }))?.posts ?? [];
    expect(listed.map((p) => p.slug)).toEqual(['duo']);
    expect((await store.listPosts(1))?.posts[0]?.authors.map((a) => a.slug)).toEqual([
      'ada',
      'grace',
    ]);
    await store.publish('duo');
    expect(await store.getPublicAuthor('ada')).toBeNull();
    expect((await store.listPosts(1, { authorId: 1 }))?.posts).toEqual([]);
    const feed = await store.feedPosts(20, { authorId: 2 });
    expect(feed.map((f) => [f.slug, f.authors.map((a) => a.name)])).toEqual([
      ['duo', ['Grace Hopper']],
    ]);
  });

  test('an author whose only post is a draft has no public page and no feed', async () => {
    await post('draft', ['ada'], { publish: false });
    expect(await store.getPublicAuthor('ada')).toBeNull();
    expect(await store.feedPosts(20, { authorId: 1 })).toEqual([]);
    await store.publish('draft');
    expect((await store.getPublicAuthor('ada'))?.name).toBe('Ada Lovelace');
    await store.unpublish('draft');
    expect(await store.getPublicAuthor('ada')).toBeNull();
  });

  test('an unknown author address is refused with nothing saved', async () => {
    try {
      await post('bad', ['nobody']);
      throw new Error('saved');
    } catch (error) {
      expect(isContentError(error) && error.message).toBe('No author is at /nobody.');
    }
    expect(await store.getPage('bad', { draft: true })).toBeNull();
  });

  test("a publish names its authors' pages among the listings it changes", async () => {
    const saved = await post('named', ['grace']);
    const pageId = saved.ok ? saved.pageId : 0;
    expect(await listingSlugsOf(db.query as Query, pageId)).toContain('grace');
    await edit('named', ['ada']);
    await store.publish('named');
    const now = await listingSlugsOf(db.query as Query, pageId);
    expect(now).toContain('ada');
    expect(now).not.toContain('grace');
  });

  test('removing an editor keeps their author and bylines', async () => {
    await post('kept', ['ada']);
    await removeEditor(db, 'ada@example.com');
    expect(await bylineOf('kept', false)).toEqual(['Ada Lovelace']);
    expect((await store.getPublicAuthor('ada'))?.name).toBe('Ada Lovelace');
  });

  test("a listing entry shows the post's first image when it opens with one", async () => {
    const bytes = await sharp({
      create: { width: 640, height: 400, channels: 3, background: '#3366aa' },
    })
      .png()
      .toBuffer();
    const { hash } = await createMediaStore(db).add(await processImage(new Uint8Array(bytes)), {
      alt: 'Blue',
      filename: 'blue.png',
    });
    await store.saveDraft(
      {
        slug: 'pictured',
        title: 'Pictured',
        summary: '',
        body: `![Blue](/media/${hash})\n\nText.`,
        expectedVersion: null,
        editor: null,
        post: { kind: 'post', topics: [], authors: ['ada'] },
      },
      { publish: true },
    );
    await post('plain', ['ada']);
    const listed = (await store.listPosts(1, { authorId: 1 }))?.posts ?? [];
    expect(
      listed.map((p) => [p.slug, p.image?.path.startsWith(`/media/${hash}/`) ?? null]),
    ).toEqual([
      ['plain', null],
      ['pictured', true],
    ]);
    expect(listed[1]?.image?.width).toBeGreaterThan(0);
  });

  test("an author's listing: newest first, 20 a page, bounded page numbers", async () => {
    for (let i = 1; i <= 25; i += 1) await post(`p-${i}`, ['grace']);
    const first = await store.listPosts(1, { authorId: 2 });
    expect(first?.posts).toHaveLength(LISTING_PAGE_SIZE);
    expect(first?.posts[0]?.slug).toBe('p-25');
    expect(first?.hasNext).toBe(true);
    const second = await store.listPosts(2, { authorId: 2 });
    expect(second?.posts.map((p) => p.slug)).toEqual(['p-5', 'p-4', 'p-3', 'p-2', 'p-1']);
    expect(await store.listPosts(501, { authorId: 2 })).toBeNull();
  });

  test("an author's listing and feed read their index in order: no sort, no scan", async () => {
    await insertPublishedPages(db, 2_000);
    await db.query.unsafe(`
      INSERT INTO published_post_authors (author_id, page_id, first_published_at)
      SELECT 1, page_id, first_published_at FROM published_posts`);
    await post('other', ['grace']);
    await db.query.unsafe('ANALYZE');
    const prefix = db.engine === 'sqlite' ? 'EXPLAIN QUERY PLAN ' : 'EXPLAIN ';
    const planOf = async (template: TemplateStringsArray, values: unknown[]) => {
      const explained = sqlTemplate([`${prefix}${template[0]}`, ...template.slice(1)]);
      const rows = await (db.query as Query)<Record<string, unknown>>(explained, ...values);
      return rows.map((row) => String(row.detail ?? row['QUERY PLAN'])).join('\n');
    };
    const cases: [string, TemplateStringsArray, unknown[]][] = [
      ['author', LISTING_QUERIES.OF_AUTHOR, [1, 21, 20]],
      // A deep page: the offset skips index entries, never joined rows (posts.ts).
      ['author, deep page', LISTING_QUERIES.OF_AUTHOR, [1, 21, 1_960]],
      ['author feed', LISTING_QUERIES.FEED_OF_AUTHOR, [1, 20]],
    ];
    for (const [what, template, values] of cases) {
      const plan = await planOf(template, values);
      expect(plan, what).toMatch(/published_post_authors_newest|published_post_authors_pkey/);
      expect(plan, what).not.toMatch(/TEMP B-TREE|Sort/);
      expect(plan, what).not.toMatch(/SCAN p\b|SCAN r\b|Seq Scan on (pages|revisions)/);
    }
  });
});
