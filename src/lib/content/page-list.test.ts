import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { openTestDatabase } from '../../../tests/databases';
import { sqlTemplate } from '../data/db';
import { type ContentStore, createContentStore, type PageListQuery } from './content';
import { candidatesStatement, listStatement, type Search } from './page-list';

// The editors' page lists at any size (issue 25), on the run's engine (FOLIO_TEST_ENGINE):
// the dashboard's statement walks an index, search goes through the engine's full-text index,
// keyset pages stay put while pages are added, and the picker stays bounded.
let db: Awaited<ReturnType<typeof openTestDatabase>>;
let store: ContentStore;
let clock = Date.parse('2026-01-01T00:00:00Z');

beforeEach(async () => {
  db = await openTestDatabase();
  // Each write one second after the last: "last change first" is a known order.
  store = createContentStore(db, () => {
    clock += 1000;
    return new Date(clock);
  });
});

afterEach(async () => {
  await db.dispose();
});

const query = (over: Partial<PageListQuery> = {}): PageListQuery => ({
  q: '',
  state: 'all',
  sort: 'changed',
  cursor: null,
  ...over,
});

async function addPages(count: number, prefix: string, publish = true) {
  await store.putPages(
    Array.from({ length: count }, (_, i) => ({
      slug: `${prefix}-${String(i).padStart(4, '0')}`,
      title: `${prefix} page ${i}`,
      summary: '',
      body: `Body of ${prefix} ${i}.`,
      publish,
    })),
  );
}

/** The plan of the dashboard's statement as text (SQLite's EXPLAIN QUERY PLAN, PostgreSQL's EXPLAIN). */
async function planOf(
  asked: PageListQuery,
  dear: readonly string[] = ['enable_seqscan', 'enable_sort'],
  search: Search = { kind: 'none' },
): Promise<string> {
  return planOfStatement(listStatement(db.engine, asked, 50, search), dear);
}

async function planOfStatement(
  { sql, values }: { sql: string[]; values: unknown[] },
  dear: readonly string[],
): Promise<string> {
  if (db.engine === 'sqlite') {
    const rows = await db.query<{ detail: string }>(
      sqlTemplate([`EXPLAIN QUERY PLAN ${sql[0]}`, ...sql.slice(1)]),
      ...values,
    );
    return rows.map((row) => row.detail).join('\n');
  }
  // A small table is cheaper to scan and sort; with both made dear, the planner shows whether
  // an index can give the order at all (if none could, a Sort would still be there).
  return db.transaction(async (q) => {
    for (const setting of dear) await q.unsafe(`SET LOCAL ${setting} = off`);
    const rows = await q<{ 'QUERY PLAN': string }>(
      sqlTemplate([`EXPLAIN ${sql[0]}`, ...sql.slice(1)]),
      ...values,
    );
    return rows.map((row) => row['QUERY PLAN']).join('\n');
  });
}

describe('the dashboard statement', () => {
  test('reads the index in the order shown, for each sort, filter and a cursor', async () => {
    await addPages(30, 'plan');
    const first = await store.listPages(query());
    const cursor = first.next;
    const cases: [PageListQuery, string][] = [
      [query(), 'pages_by_change'],
      [query({ sort: 'title' }), 'pages_by_title'],
      [query({ state: 'published' }), 'pages_state_by_change'],
      [query({ state: 'draft-only', sort: 'title' }), 'pages_state_by_title'],
      [query({ cursor }), 'pages_by_change'],
      [query({ cursor: cursor && { ...cursor, direction: 'before' } }), 'pages_by_change'],
    ];
    for (const [asked, index] of cases) {
      const plan = await planOf(asked);
      expect(plan, JSON.stringify(asked)).toContain(index);
      // No sort of the whole table: the index gives the order.
      if (db.engine === 'sqlite') expect(plan, JSON.stringify(asked)).not.toContain('TEMP B-TREE');
      else expect(plan, JSON.stringify(asked)).not.toMatch(/^\s*(->\s*)?Sort/m);
    }
  });

  test('waiting for review: only waiting pages, counted, paged by the keyset, read from its index', async () => {
    await addPages(6, 'wait', false);
    const waiting: string[] = [];
    for (const slug of ['wait-0001', 'wait-0003', 'wait-0004']) {
      const page = await store.getPage(slug, { draft: true });
      if (!page) throw new Error(slug);
      await store.submitForReview(page.id, {
        editor: 'w@example.com',
        expectedVersion: page.version,
      });
      waiting.push(slug);
    }
    // Sent back: no longer waiting, nor counted.
    const sent = await store.getPage('wait-0004', { draft: true });
    if (!sent) throw new Error('wait-0004');
    await store.sendBack(sent.id, {
      editor: 'e@example.com',
      note: 'No.',
      expectedVersion: sent.version,
    });
    const first = await store.listPages(query({ state: 'review', sort: 'title' }), { size: 1 });
    expect(first.counts.review).toBe(2);
    expect(first.matching).toEqual({ n: 2, exact: true });
    expect(first.rows.map((row) => row.slug)).toEqual(['wait-0001']);
    const second = await store.listPages(
      query({ state: 'review', sort: 'title', cursor: first.next }),
      { size: 1 },
    );
    expect(second.rows.map((row) => row.slug)).toEqual(['wait-0003']);
    expect(second.next).toBeNull();
    if (db.engine === 'sqlite')
      expect(await planOf(query({ state: 'review' }))).toContain('review_requests_waiting');
  });

  test('a search goes through the full-text index, and a broad one walks the sort index', async () => {
    await addPages(5, 'fts');
    // PostgreSQL: with tables scans and plain index walks made dear, the search is answered
    // through the GIN index (a bitmap scan needs an index that can take the condition).
    const match = db.engine === 'sqlite' ? '"body"*' : 'body:*';
    const plan = await planOfStatement(candidatesStatement(db.engine, match), [
      'enable_seqscan',
      'enable_indexscan',
    ]);
    if (db.engine === 'sqlite') expect(plan).toMatch(/VIRTUAL TABLE INDEX \d+:M/);
    else expect(plan).toContain('pages_search');
    // A search matching more than the candidates fetched walks the sort index, never sorting
    // every match; a narrow one is looked up by its ids.
    const broad = await planOf(query({ q: 'body' }), undefined, {
      kind: 'broad',
      match,
      sample: [],
    });
    expect(broad).toContain('pages_by_change');
    if (db.engine === 'sqlite') expect(broad).not.toContain('TEMP B-TREE');
    else expect(broad).not.toMatch(/^\s*(->\s*)?Sort/m);
  });
});

describe('search', () => {
  test('finds pages by title, slug and text, the draft for editors, and forgets what went', async () => {
    await store.putPage(
      { slug: 'harbour-notes', title: 'Lighthouse keepers', summary: '', body: 'About the quay.' },
      { publish: true },
    );
    await store.putPage({ slug: 'other', title: 'Other', summary: '', body: 'Nothing.' });
    const slugs = async (q: string) =>
      (await store.listPages(query({ q }))).rows.map((r) => r.slug);
    expect(await slugs('lighthouse')).toEqual(['harbour-notes']);
    expect(await slugs('harbour')).toEqual(['harbour-notes']);
    expect(await slugs('quay')).toEqual(['harbour-notes']);
    // Words match as prefixes, in any order; punctuation is never query syntax.
    expect(await slugs('keep light')).toEqual(['harbour-notes']);
    expect(await slugs('"quay"* ^(')).toEqual(['harbour-notes']);
    expect(await slugs('quay nothing')).toEqual([]);
    // A draft's new text is what editors search; the published one's old words go.
    await store.putPage({ slug: 'harbour-notes', title: 'Beacon', summary: '', body: 'Fog.' });
    expect(await slugs('fog')).toEqual(['harbour-notes']);
    expect(await slugs('quay')).toEqual([]);
    // The picker, which names pages in the public header, shows the published title only.
    expect(await store.findPublishedPages('harbour')).toEqual([
      expect.objectContaining({ slug: 'harbour-notes', title: 'Lighthouse keepers' }),
    ]);
    expect(await store.findPublishedPages('fog')).toEqual([
      expect.objectContaining({ slug: 'harbour-notes', title: 'Lighthouse keepers' }),
    ]);
    // Discarding the draft brings the published text back; a rename is found by its new slug.
    await store.discardDraft('harbour-notes');
    expect(await slugs('fog')).toEqual([]);
    expect(await slugs('quay')).toEqual(['harbour-notes']);
    await store.renameSlug('harbour-notes', 'pier');
    expect(await slugs('pier')).toEqual(['pier']);
    expect(await slugs('harbour')).toEqual([]);
    // Unpublished: a draft only, still found by editors, gone from the picker.
    await store.unpublish('pier');
    expect((await store.listPages(query({ q: 'quay' }))).rows[0]?.state).toBe('draft-only');
    expect(await store.findPublishedPages('quay')).toEqual([]);
  });

  test('ignores accents and case, typed or written, on both engines', async () => {
    await store.putPage(
      {
        slug: 'cafe-muller',
        title: 'Café Müller',
        summary: '',
        body: 'Crème brûlée at the Hôtel Ångström, São Paulo. İstanbul, 한국어, हिन्दी.',
      },
      { publish: true },
    );
    await store.putPage({ slug: 'cafeteria', title: 'Plain', summary: '', body: 'Tea.' });
    const slugs = async (q: string) =>
      (await store.listPages(query({ q }))).rows.map((r) => r.slug).sort();
    expect(await slugs('muller')).toEqual(['cafe-muller']);
    expect(await slugs('MÜLLER')).toEqual(['cafe-muller']);
    expect(await slugs('creme brulee')).toEqual(['cafe-muller']);
    expect(await slugs('hôtel angstrom sao')).toEqual(['cafe-muller']);
    // A dotted capital I lower-cases with a combining dot; Hangul and Devanagari stay whole.
    expect(await slugs('İstanbul')).toEqual(['cafe-muller']);
    expect(await slugs('ISTANBUL')).toEqual(['cafe-muller']);
    expect(await slugs('한국어')).toEqual(['cafe-muller']);
    expect(await slugs('हिन्दी')).toEqual(['cafe-muller']);
    // As a prefix too: "café" is "cafe", which begins both slugs.
    expect(await slugs('café')).toEqual(['cafe-muller', 'cafeteria']);
    expect(await store.findPublishedPages('brulee')).toEqual([
      expect.objectContaining({ slug: 'cafe-muller' }),
    ]);
  });

  test('states and counts follow drafts and publishes', async () => {
    await addPages(3, 'live');
    await addPages(2, 'draft', false);
    await store.putPage({ slug: 'live-0001', title: 'Changed', summary: '', body: 'new' });
    const { counts, rows } = await store.listPages(query({ state: 'changed' }));
    expect(rows.map((row) => [row.slug, row.title])).toEqual([['live-0001', 'Changed']]);
    expect(counts).toEqual({
      all: 5,
      published: 2,
      changed: 1,
      'draft-only': 2,
      scheduled: 0,
      review: 0,
    });
    expect((await store.listPages(query({ state: 'draft-only' }))).matching).toEqual({
      n: 2,
      exact: true,
    });
    // The kept counts follow every change, a deleted page and its search entry included.
    await store.discardDraft('draft-0000');
    await store.unpublish('live-0002');
    await store.publish('live-0001');
    const recount = await db.query<{ state: string; n: number | string }>`
      SELECT state, COUNT(*) AS n FROM pages GROUP BY state`;
    const kept = (await store.listPages(query())).counts;
    for (const state of ['published', 'changed', 'draft-only'] as const)
      expect(kept[state], state).toBe(Number(recount.find((row) => row.state === state)?.n ?? 0));
    expect(kept).toEqual({
      all: 4,
      published: 2,
      changed: 0,
      'draft-only': 2,
      scheduled: 0,
      review: 0,
    });
    expect((await store.listPages(query({ q: 'draft 0' }))).rows.map((row) => row.slug)).toEqual([
      'draft-0001',
    ]);
  });
});

describe('a broad search', () => {
  test('lists the same rows, in the same order, as a narrow one, and says how many roughly', async () => {
    await addPages(6, 'wide');
    await addPages(4, 'wide-draft', false);
    for (const sort of ['changed', 'title'] as const)
      for (const state of ['all', 'draft-only', 'published'] as const) {
        const asked = query({ q: 'wide', sort, state });
        const narrow = await store.listPages(asked, { size: 3 });
        const broad = await store.listPages(asked, { size: 3, candidates: 2 });
        expect(broad.rows, `${sort} ${state}`).toEqual(narrow.rows);
        const after = await store.listPages(
          { ...asked, cursor: broad.next },
          { size: 3, candidates: 2 },
        );
        const afterNarrow = await store.listPages({ ...asked, cursor: narrow.next }, { size: 3 });
        expect(after.rows, `${sort} ${state}`).toEqual(afterNarrow.rows);
      }
    // The first three matches (ids in index order) say "at least" this many drafts.
    const counted = await store.listPages(query({ q: 'wide', state: 'draft-only' }), {
      candidates: 2,
    });
    expect(counted.matching.exact).toBe(false);
    expect((await store.listPages(query({ q: 'wide' }))).matching).toEqual({ n: 10, exact: true });
  });
});

describe('keyset pages', () => {
  test('walking forward and back shows each page once, while new pages are added', async () => {
    await addPages(7, 'walk');
    const seen: string[] = [];
    let page = await store.listPages(query({ sort: 'title' }), { size: 3 });
    seen.push(...page.rows.map((row) => row.slug));
    const firstRows = page.rows.map((row) => row.slug);
    // New pages sorted before and among the listed ones move nothing on the next pages.
    await addPages(4, 'aaa');
    await store.putPage({ slug: 'walk-0003b', title: 'walk page 3b', summary: '', body: '' });
    while (page.next) {
      const cursor = page.next;
      page = await store.listPages(query({ sort: 'title', cursor }), { size: 3 });
      seen.push(...page.rows.map((row) => row.slug));
    }
    expect(seen.filter((slug) => slug.startsWith('walk-') && slug !== 'walk-0003b')).toEqual(
      Array.from({ length: 7 }, (_, i) => `walk-000${i}`),
    );
    expect(new Set(seen).size).toBe(seen.length);
    // Back from the second page gives the rows before it, the new ones included.
    const second = await store.listPages(query({ sort: 'title', cursor: null }), { size: 3 });
    expect(second.previous).toBeNull();
    const onward = await store.listPages(query({ sort: 'title', cursor: second.next }), {
      size: 3,
    });
    const back = await store.listPages(query({ sort: 'title', cursor: onward.previous }), {
      size: 3,
    });
    expect(back.rows.map((row) => row.slug)).toEqual(second.rows.map((row) => row.slug));
    expect(firstRows).toEqual(['walk-0000', 'walk-0001', 'walk-0002']);
  });

  test('"last change first" pages stay put when pages change meanwhile', async () => {
    await addPages(6, 'older');
    const first = await store.listPages(query(), { size: 2 });
    // A page saved now jumps to the top; the next page goes on where the first one ended.
    await store.putPage({ slug: 'older-0000', title: 'Bumped', summary: '', body: '' });
    const second = await store.listPages(query({ cursor: first.next }), { size: 2 });
    const all = (await store.listPages(query(), { size: 100 })).rows.map((row) => row.slug);
    expect(all[0]).toBe('older-0000');
    const endOfFirst = all.indexOf(first.rows[1]?.slug ?? '');
    expect(second.rows.map((row) => row.slug)).toEqual(all.slice(endOfFirst + 1, endOfFirst + 3));
  });
});

describe('the navigation picker', () => {
  test('answers a bounded number of published pages, never home, and reads chosen ids only', async () => {
    await addPages(30, 'nav');
    await store.putPage(
      { slug: 'home', title: 'Home nav', summary: '', body: '' },
      { publish: true },
    );
    const found = await store.findPublishedPages('nav');
    expect(found).toHaveLength(20);
    expect(found.map((page) => page.slug)).not.toContain('home');
    expect((await store.findPublishedPages('')).length).toBe(20);
    const ids = found.slice(0, 2).map((page) => page.id);
    const byIds = await store.publishedByIds([...ids, 999_999]);
    expect(byIds.map((page) => page.id).sort()).toEqual([...ids].sort());
  });
});
