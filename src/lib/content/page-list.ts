// Owns the editors' page lists at any size (issue 25): the dashboard's one page of rows,
// filtered, sorted, searched and paged in SQL (keyset, never OFFSET), and the navigation
// picker's bounded search among published pages. Every query here walks an index of migration
// 10 (pages_by_change, pages_by_title, pages_state_by_*) or the engine's full-text index
// (SQLite FTS5 `page_search`, PostgreSQL `pages.search`), so its cost follows the rows shown,
// not the site's size. Editors only: the text searched is a page's current one, draft included.
import 'server-only';
import { type Engine, type Query, sqlTemplate } from '../data/db';
import {
  COUNT_LIMIT,
  PAGE_LIST_SIZE,
  type PageCursor,
  type PageListQuery,
  type PageListResult,
  type PageListState,
  PICKER_RESULTS,
  SEARCH_CONFIG,
  searchTerms,
} from './page-list-params';
import { type ListingRow, toListing } from './rows';

import type { PageState } from './types';

export { searchTerms };

/** The engine's full-text query for these terms (each a prefix; all must match). */
export function ftsQuery(engine: Engine, terms: readonly string[]): string {
  return engine === 'sqlite'
    ? terms.map((term) => `"${term}"*`).join(' ')
    : terms.map((term) => `${term}:*`).join(' & ');
}

/**
 * Matches fetched first. Up to this many, a search is narrow: its pages are looked up by id and
 * sorted (cheap at any site size). Past it, it is broad ("page"): the sort index is walked and
 * each row checked against the full-text match, which finds a page of rows within a few hundred.
 * Walking for a rare word, or sorting every match of a common one, is what costs seconds at
 * 100 000 pages (measured: bench/scale-dashboard.ts).
 */
const CANDIDATES = 2000;

/** What a search resolved to before the listing runs. */
export type Search =
  | { kind: 'none' }
  | { kind: 'ids'; ids: number[] }
  | { kind: 'broad'; match: string; sample: number[] };

/** One full-text lookup, at most CANDIDATES + 1 ids, in the index's own order. */
export function candidatesStatement(engine: Engine, match: string, limit = CANDIDATES): Fragment {
  const sql =
    engine === 'sqlite'
      ? 'SELECT rowid AS id FROM page_search WHERE page_search MATCH '
      : `SELECT id FROM pages WHERE search @@ to_tsquery('${SEARCH_CONFIG}', `;
  const fragment: Fragment = { sql: [sql], values: [] };
  add(fragment, '', match);
  add(fragment, `${engine === 'sqlite' ? '' : ')'} LIMIT `, limit + 1);
  return fragment;
}

export async function resolveSearch(
  q: Query,
  engine: Engine,
  text: string,
  limit = CANDIDATES,
): Promise<Search> {
  const terms = searchTerms(text);
  if (terms.length === 0) return { kind: 'none' };
  const match = ftsQuery(engine, terms);
  const found = await run<{ id: number | string }>(q, candidatesStatement(engine, match, limit));
  const ids = found.map((row) => Number(row.id));
  return ids.length > limit ? { kind: 'broad', match, sample: ids } : { kind: 'ids', ids };
}

/** `AND p.id IN (…these ids…)`, as one JSON value. */
function idsIn(engine: Engine, ids: readonly number[], into: Fragment) {
  add(
    into,
    engine === 'sqlite'
      ? ' AND p.id IN (SELECT value FROM json_each('
      : ' AND p.id IN (SELECT CAST(value AS INTEGER) FROM json_array_elements_text(CAST(CAST(',
    JSON.stringify(ids),
  );
  add(into, engine === 'sqlite' ? '))' : ' AS text) AS json)))');
}

export type Fragment = { sql: string[]; values: unknown[] };

/** Appends SQL text and, when given, one value after it. */
function add(into: Fragment, sql: string, ...value: [unknown?]) {
  into.sql[into.sql.length - 1] += sql;
  if (value.length > 0) {
    into.values.push(value[0]);
    into.sql.push('');
  }
}

function run<T>(q: Query, fragment: Fragment): Promise<T[]> {
  return q<T>(sqlTemplate(fragment.sql), ...fragment.values);
}

/** The state filter, as `AND …` after a WHERE. */
function stateFilter(state: PageListState, into: Fragment) {
  if (state === 'scheduled') add(into, ' AND p.publish_at IS NOT NULL');
  // Waiting for review: the pages of migration 24's partial index, which holds only those.
  else if (state === 'review')
    add(into, " AND p.id IN (SELECT page_id FROM review_requests WHERE state = 'waiting')");
  else if (state !== 'all') add(into, ' AND p.state = ', state);
}

/** The filter and search, as `AND …` after a WHERE. */
function filters(engine: Engine, state: PageListState, search: Search, into: Fragment) {
  stateFilter(state, into);
  if (search.kind === 'ids') idsIn(engine, search.ids, into);
  else if (search.kind === 'broad') {
    // The match is kept off the plan's driving side, so the sort index is walked and each row
    // checked: SQLite's unary + hides the term from the planner; PostgreSQL's @@ operator would
    // offer the GIN index, whose estimate for a prefix query is a guess (200 rows) that made it
    // fetch and sort every match (10 times slower at 10 000 pages, growing with the site),
    // while its function `ts_match_vq` is the same test with no index to offer.
    if (engine === 'sqlite') {
      add(
        into,
        ' AND +p.id IN (SELECT rowid FROM page_search WHERE page_search MATCH ',
        search.match,
      );
      add(into, ')');
    } else {
      add(into, ` AND ts_match_vq(p.search, to_tsquery('${SEARCH_CONFIG}', `, search.match);
      add(into, '))');
    }
  }
}

/** A listed page with the key its sort is by (the keyset cursor). */
type SortedListingRow = ListingRow & { sort_key: string };

/** The dashboard's one statement for a page of rows (exported for its query-plan test). */
export function listStatement(
  engine: Engine,
  query: PageListQuery,
  size: number,
  search: Search,
): Fragment {
  // The sort key, ascending in the order shown: the newest change first reads the index
  // backwards from a cursor just as the title reads it forwards.
  const key = query.sort === 'title' ? 'LOWER(p.title)' : 'p.updated_at';
  const cursor = query.cursor;
  // Walking towards the previous page reverses every order; the rows are turned back after.
  const backwards = cursor?.direction === 'before';
  const descending = (query.sort === 'changed') !== backwards;
  const list: Fragment = {
    sql: [
      `SELECT p.id, p.slug, p.title, p.state, ${key} AS sort_key, p.updated_at, p.updated_by,
        p.last_change, r.published_at, p.publish_at, p.missed_publish_at, p.created_by,
        COALESCE((SELECT d.kind FROM drafts d WHERE d.page_id = p.id), r.kind) AS kind
      FROM pages p LEFT JOIN revisions r ON r.id = p.published_revision_id WHERE 1 = 1`,
    ],
    values: [],
  };
  filters(engine, query.state, search, list);
  if (cursor) {
    // (key, slug) strictly past the cursor in the walking order; written as a range on the
    // key alone plus a tie-break, so both engines seek the index to the cursor.
    const [wide, strict] = descending ? ['<=', '<'] : ['>=', '>'];
    const slugPast = backwards ? '<' : '>';
    add(list, ` AND ${key} ${wide} `, cursor.key);
    add(list, ` AND (${key} ${strict} `, cursor.key);
    add(list, ` OR p.slug ${slugPast} `, cursor.slug);
    add(list, ')');
  }
  const keyOrder = descending ? 'DESC' : 'ASC';
  const slugOrder = backwards ? 'DESC' : 'ASC';
  add(list, ` ORDER BY ${key} ${keyOrder}, p.slug ${slugOrder} LIMIT `, size + 1);
  return list;
}

/** One page of the dashboard's rows, with what its filter and pager show. */
export async function listPages(
  q: Query,
  engine: Engine,
  query: PageListQuery,
  { size = PAGE_LIST_SIZE, candidates = CANDIDATES }: { size?: number; candidates?: number } = {},
): Promise<PageListResult> {
  const cursor = query.cursor;
  const backwards = cursor?.direction === 'before';
  const search = await resolveSearch(q, engine, query.q, candidates);
  const [found, counts] = await Promise.all([
    run<SortedListingRow>(q, listStatement(engine, query, size, search)),
    stateCounts(q),
  ]);
  const more = found.length > size;
  const rows = found.slice(0, size);
  if (backwards) rows.reverse();
  const first = rows[0];
  const last = rows.at(-1);
  const at = (row: SortedListingRow, direction: PageCursor['direction']): PageCursor => ({
    direction,
    key: row.sort_key,
    slug: row.slug,
  });
  const previous = first && (backwards ? more : cursor !== null) ? at(first, 'before') : null;
  const next = last && (backwards || more) ? at(last, 'after') : null;

  const matching = await countMatching(q, engine, query.state, search, counts);
  return {
    rows: rows.map(toListing),
    previous,
    next,
    counts,
    matching,
  };
}

/**
 * Pages per state, as the triggers keep them (page_counts), and the scheduled ones and those
 * waiting for review (each counted on its partial index).
 */
async function stateCounts(q: Query): Promise<Record<PageListState, number>> {
  const [rows, [scheduled], [review]] = await Promise.all([
    q<{ state: PageState; n: number | string }>`SELECT state, n FROM page_counts`,
    q<{ n: number | string }>`SELECT COUNT(*) AS n FROM pages WHERE publish_at IS NOT NULL`,
    q<{ n: number | string }>`
      SELECT COUNT(*) AS n FROM review_requests WHERE state = 'waiting'`,
  ]);
  const counts: Record<PageListState, number> = {
    all: 0,
    published: 0,
    changed: 0,
    'draft-only': 0,
    scheduled: Number(scheduled?.n ?? 0),
    review: Number(review?.n ?? 0),
  };
  for (const row of rows) {
    counts[row.state] = Number(row.n);
    counts.all += Number(row.n);
  }
  return counts;
}

/**
 * How many pages the filter and search match: exact without a search (the counts) or for a
 * narrow one; for a broad one, past COUNT_LIMIT as soon as its first matches say so, else the
 * number among them (the dashboard says "more than" or "at least").
 */
async function countMatching(
  q: Query,
  engine: Engine,
  state: PageListState,
  search: Search,
  counts: Record<PageListState, number>,
): Promise<{ n: number; exact: boolean }> {
  if (search.kind === 'none') return { n: counts[state], exact: true };
  const ids = search.kind === 'ids' ? search.ids : search.sample;
  let n = ids.length;
  if (state !== 'all' && ids.length > 0) {
    const count: Fragment = { sql: ['SELECT COUNT(*) AS n FROM pages p WHERE 1 = 1'], values: [] };
    stateFilter(state, count);
    idsIn(engine, ids, count);
    const [row] = await run<{ n: number | string }>(q, count);
    n = Number(row?.n ?? 0);
  }
  return { n, exact: search.kind === 'ids' || n > COUNT_LIMIT };
}

/**
 * Published pages (home excepted) matching a search, by title, at most PICKER_RESULTS: the
 * navigation picker. An empty search lists the first ones by title.
 */
export async function findPublishedPages(
  q: Query,
  engine: Engine,
  text: string,
  homeSlug: string,
): Promise<{ id: number; slug: string; title: string }[]> {
  const find: Fragment = {
    sql: [
      "SELECT p.id, p.slug, r.title FROM pages p JOIN revisions r ON r.id = p.published_revision_id WHERE p.state <> 'draft-only' AND p.slug <> ",
    ],
    values: [],
  };
  add(find, '', homeSlug);
  filters(engine, 'all', await resolveSearch(q, engine, text), find);
  add(find, ' ORDER BY LOWER(p.title), p.slug LIMIT ', PICKER_RESULTS);
  const rows = await run<{ id: number | string; slug: string; title: string }>(q, find);
  return rows.map((row) => ({ id: Number(row.id), slug: row.slug, title: row.title }));
}

/** Ids a form may name at most before any is looked up (the navigation keeps 20). */
const MAX_IDS = 100;

/** Which of `ids` are published pages, with their slugs and published titles. */
export async function publishedByIds(
  q: Query,
  ids: readonly number[],
): Promise<{ id: number; slug: string; title: string }[]> {
  const wanted = [...new Set(ids)].filter((id) => Number.isSafeInteger(id) && id > 0);
  if (wanted.length === 0) return [];
  const find: Fragment = {
    sql: [
      'SELECT p.id, p.slug, r.title FROM pages p JOIN revisions r ON r.id = p.published_revision_id WHERE p.id IN (',
    ],
    values: [],
  };
  for (const [index, id] of wanted.slice(0, MAX_IDS).entries())
    add(find, index === 0 ? '' : ', ', id);
  add(find, ')');
  const rows = await run<{ id: number | string; slug: string; title: string }>(q, find);
  return rows.map((row) => ({ id: Number(row.id), slug: row.slug, title: row.title }));
}
