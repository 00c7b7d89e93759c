// Owns visitors' search (issue 27, `/?q=`): ranked published pages with highlighted titles,
// summaries and snippets, from the index of published revisions only (migration 15; the
// editors' index holds drafts and is never read here). Bounded at any size: one ranked index
// lookup with a LIMIT and an offset of at most RESULT_PAGES_MAX pages, snippets made for the
// shown rows only (ts_headline is costly), and a count that stops at COUNT_MAX.
import 'server-only';
import { type Query, sqlTemplate } from '../data/db';
import { traced } from '../observability/spans';
import {
  engineQuery,
  MARK_START,
  MARK_STOP,
  type ParsedSearch,
  RESULT_PAGES_MAX,
  RESULTS_PER_PAGE,
  type Segment,
  segmentsOf,
} from './public-search-query';
import type { StoreContext } from './store-context';

/** Matches counted at most: beyond, the page says "more than". */
export const COUNT_MAX = 2000;

/**
 * Matches ranked at most. Ranking costs per match (bm25, ts_rank): a word every page holds
 * would rank the whole site, 100 000 pages, on every keystroke. A broader search ranks the
 * RANKED_MAX newest pages that match (page ids grow with creation): the best of the recent,
 * found through the index in id order, so its cost stays the same at any size.
 */
export const RANKED_MAX = 2000;

export type SearchResult = {
  slug: string;
  title: Segment[];
  summary: Segment[];
  snippet: Segment[];
};

export type SearchResults = {
  results: SearchResult[];
  /** Pages matching, up to COUNT_MAX; `more` when there are more than that. */
  count: { n: number; more: boolean };
  /** Whether a next page of results exists (and may be asked for). */
  hasNext: boolean;
};

const NONE: SearchResults = { results: [], count: { n: 0, more: false }, hasNext: false };

// The configuration migration 15 made: english stemming, accents off where unaccent exists.
const CONFIG = `'folio_public_search'`;
// ts_headline's options: the markers are control characters, so they are given by chr().
const MARKS = `'StartSel=' || chr(2) || ', StopSel=' || chr(3)`;

// SQLite: the newest RANKED_MAX matches' lowest rowid bounds the ranked ones (FTS5 takes a
// rowid range with MATCH), CROSS JOIN keeps FTS5 the outer loop so its rank order and the
// LIMIT drive the query, and snippet()/highlight() run for the returned rows only. Written for
// either FTS5 table: the site-wide one (migration 15) and the newest pages' (migration 28).
const sqliteResults = (table: string) =>
  sqlTemplate([
    `SELECT p.slug,
     highlight(${table}, 0, '${MARK_START}', '${MARK_STOP}') AS title,
     highlight(${table}, 1, '${MARK_START}', '${MARK_STOP}') AS summary,
     snippet(${table}, 2, '${MARK_START}', '${MARK_STOP}', '…', 28) AS snippet
   FROM ${table} CROSS JOIN pages p ON p.id = ${table}.rowid
   WHERE ${table} MATCH `,
    ` AND ${table}.rowid >= (
       SELECT COALESCE(MIN(rowid), 0) FROM (
         SELECT rowid FROM ${table} WHERE ${table} MATCH `,
    ` ORDER BY rowid DESC LIMIT ${RANKED_MAX}))
     AND p.published_revision_id IS NOT NULL
   ORDER BY ${table}.rank LIMIT `,
    ' OFFSET ',
    '',
  ]);
const sqliteCount = (table: string) =>
  sqlTemplate([
    `SELECT COUNT(*) AS n FROM (SELECT 1 FROM ${table} WHERE ${table} MATCH `,
    ' LIMIT ',
    ')',
  ]);

/**
 * SQLite ranks in the index of the newest pages (migration 28: the published pages from a
 * floor that follows the newest page id, at most NEWEST_WINDOW of them) when RANKED_MAX of
 * them match: they are then the search's newest RANKED_MAX matches on the whole site, the
 * ones the site-wide index would rank. On the site-wide index a search matching most of the
 * site cost as much as its matches, whatever the LIMITs: bm25 counts the pages holding each
 * term over the whole table, once per statement, and a prefix builds its whole list of
 * matches in memory each time a statement names it — 10 ms for a prefix at 100 000 pages
 * where the window takes 1.5 (docs/decisions/0033, second amendment). A search with fewer
 * matches among the newest pages (a rare word, none) asks the site-wide index as before.
 */
const SQLITE_SEARCH = {
  recent: {
    results: sqliteResults('public_search_recent'),
    count: sqliteCount('public_search_recent'),
  },
  all: { results: sqliteResults('public_search'), count: sqliteCount('public_search') },
};

/** SQLite's statements (bench/scale-search.ts times the site-wide ones beside a search). */
export const SQLITE_SEARCH_QUERIES = SQLITE_SEARCH;

/**
 * PostgreSQL reads the newest NEWEST_WINDOW pages first (the primary key walked backwards, a
 * fixed number of rows): when RANKED_MAX of them match, those are the candidates. Only a
 * search matching fewer of them asks the GIN index. The planner cannot tell a prefix that
 * expands to a word on every page from a rare one ('folio':* was estimated at 2 000 matches)
 * and read the index's bitmap of all 100 000 matches, rechecking each: 180 ms for the ranked
 * page and 45 ms for the count at 100 000 pages, where this takes 3 ms and 5 ms
 * (docs/decisions/0033, amendment). The candidates are the same rows either way. SQLite's
 * index of the newest pages holds at most this many (migration 28 writes the number out).
 */
export const NEWEST_WINDOW = 2 * RANKED_MAX;

// PostgreSQL: the query is written out in each WHERE (from the CTE it would be a join the
// planner cannot give to the index: 80 ms of sequential scan at 100 000 pages for a word no
// page holds). The newest window first (NEWEST_WINDOW), else the GIN index — the one-time
// filters on the window's count run only one of the two — then ts_rank orders the candidates
// (title A, summary B, text D), and ts_headline runs on the page of rows the LIMIT kept.
const POSTGRES_RESULTS = sqlTemplate([
  `WITH query AS (SELECT to_tsquery(${CONFIG}, `,
  `) AS q),
   newest AS MATERIALIZED (
     SELECT w.page_id, w.document FROM (
       SELECT page_id, document FROM public_search ORDER BY page_id DESC LIMIT ${NEWEST_WINDOW}
     ) w
     WHERE w.document @@ to_tsquery(${CONFIG}, `,
  `) LIMIT ${RANKED_MAX}
   ),
   candidates AS (
     SELECT page_id, document FROM newest WHERE (SELECT COUNT(*) FROM newest) >= ${RANKED_MAX}
     UNION ALL
     (SELECT s.page_id, s.document FROM public_search s
      WHERE (SELECT COUNT(*) FROM newest) < ${RANKED_MAX}
        AND s.document @@ to_tsquery(${CONFIG}, `,
  `)
      ORDER BY s.page_id DESC LIMIT ${RANKED_MAX})
   ),
   top AS (
     SELECT c.page_id, ts_rank(c.document, query.q) AS score
     FROM candidates c, query
     ORDER BY score DESC, c.page_id LIMIT `,
  ' OFFSET ',
  `)
   SELECT p.slug,
     ts_headline(${CONFIG}, r.title, query.q, 'HighlightAll=true, ' || ${MARKS}) AS title,
     ts_headline(${CONFIG}, r.summary, query.q, 'HighlightAll=true, ' || ${MARKS}) AS summary,
     ts_headline(${CONFIG}, r.search_text, query.q,
       'MaxWords=40, MinWords=15, MaxFragments=2, FragmentDelimiter=" … ", ' || ${MARKS}) AS snippet
   FROM top
   JOIN pages p ON p.id = top.page_id
   JOIN revisions r ON r.id = p.published_revision_id
   CROSS JOIN query
   ORDER BY top.score DESC, top.page_id`,
]);
// The count the same way: past COUNT_MAX matches among the newest window, the index is never
// asked (CASE evaluates the other subquery only when it is needed).
const POSTGRES_COUNT = sqlTemplate([
  `WITH newest AS MATERIALIZED (
     SELECT 1 FROM (
       SELECT document FROM public_search ORDER BY page_id DESC LIMIT ${NEWEST_WINDOW}
     ) w
     WHERE w.document @@ to_tsquery(${CONFIG}, `,
  `) LIMIT `,
  `)
   SELECT CASE WHEN (SELECT COUNT(*) FROM newest) > ${COUNT_MAX} THEN (SELECT COUNT(*) FROM newest)
     ELSE (SELECT COUNT(*) FROM (SELECT 1 FROM public_search
       WHERE document @@ to_tsquery(${CONFIG}, `,
  ') LIMIT ',
  ') AS matching) END AS n',
]);

/** PostgreSQL's statements, for a test that asks for their plans. */
export const POSTGRES_SEARCH_QUERIES = { POSTGRES_RESULTS, POSTGRES_COUNT };

type Row = { slug: string; title: string; summary: string; snippet: string };
type Counted = { n: number | string }[];

/**
 * SQLite: the newest pages' index first (its count stops at COUNT_MAX + 1 matches, so it reads
 * at most NEWEST_WINDOW pages); the site-wide one only for what the window cannot answer.
 */
async function searchSqlite(q: Query, match: string, offset: number): Promise<[Row[], Counted]> {
  const recent = await q<{ n: number | string }>(SQLITE_SEARCH.recent.count, match, COUNT_MAX + 1);
  const inWindow = Number(recent[0]?.n ?? 0);
  const ranked = inWindow >= RANKED_MAX ? SQLITE_SEARCH.recent : SQLITE_SEARCH.all;
  const rows = await q<Row>(ranked.results, match, match, RESULTS_PER_PAGE + 1, offset);
  const counted =
    inWindow > COUNT_MAX
      ? recent
      : await q<{ n: number | string }>(SQLITE_SEARCH.all.count, match, COUNT_MAX + 1);
  return [rows, counted];
}

export function publicSearch({ read, opened }: StoreContext) {
  return {
    /**
     * Published pages matching a visitor's search, best first, RESULTS_PER_PAGE at a time:
     * `page` 1 to RESULT_PAGES_MAX (the caller refuses others: parseResultPage).
     */
    async searchPublished(search: ParsedSearch, page: number): Promise<SearchResults> {
      if (search.terms.length === 0 || page < 1 || page > RESULT_PAGES_MAX) return NONE;
      const { engine } = await opened();
      return traced('db.query', 'searchPublished', () =>
        read(async (q) => {
          const match = engineQuery(engine, search.terms);
          const offset = (page - 1) * RESULTS_PER_PAGE;
          const [rows, counted] =
            engine === 'sqlite'
              ? await searchSqlite(q, match, offset)
              : await Promise.all([
                  q<Row>(POSTGRES_RESULTS, match, match, match, RESULTS_PER_PAGE + 1, offset),
                  q<{ n: number | string }>(
                    POSTGRES_COUNT,
                    match,
                    COUNT_MAX + 1,
                    match,
                    COUNT_MAX + 1,
                  ),
                ]);
          const n = Number(counted[0]?.n ?? 0);
          return {
            results: rows.slice(0, RESULTS_PER_PAGE).map((row) => ({
              slug: row.slug,
              title: segmentsOf(row.title),
              summary: segmentsOf(row.summary),
              snippet: segmentsOf(row.snippet),
            })),
            count: { n: Math.min(n, COUNT_MAX), more: n > COUNT_MAX },
            hasNext: rows.length > RESULTS_PER_PAGE && page < RESULT_PAGES_MAX,
          };
        }),
      );
    },
  };
}
