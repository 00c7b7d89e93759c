// Owns visitors' search (issue 27, `/?q=`): ranked published pages with highlighted titles,
// summaries and snippets, from the index of published revisions only (migration 15; the
// editors' index holds drafts and is never read here). Bounded at any size: one ranked index
// lookup with a LIMIT and an offset of at most RESULT_PAGES_MAX pages, snippets made for the
// shown rows only (ts_headline is costly), and a count that stops at COUNT_MAX.
import 'server-only';
import { sqlTemplate } from '../data/db';
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
// LIMIT drive the query, and snippet()/highlight() run for the returned rows only.
const SQLITE_RESULTS = sqlTemplate([
  `SELECT p.slug,
     highlight(public_search, 0, '${MARK_START}', '${MARK_STOP}') AS title,
     highlight(public_search, 1, '${MARK_START}', '${MARK_STOP}') AS summary,
     snippet(public_search, 2, '${MARK_START}', '${MARK_STOP}', '…', 28) AS snippet
   FROM public_search CROSS JOIN pages p ON p.id = public_search.rowid
   WHERE public_search MATCH `,
  ` AND public_search.rowid >= (
       SELECT COALESCE(MIN(rowid), 0) FROM (
         SELECT rowid FROM public_search WHERE public_search MATCH `,
  ` ORDER BY rowid DESC LIMIT ${RANKED_MAX}))
     AND p.published_revision_id IS NOT NULL
   ORDER BY public_search.rank LIMIT `,
  ' OFFSET ',
  '',
]);
const SQLITE_COUNT = sqlTemplate([
  'SELECT COUNT(*) AS n FROM (SELECT 1 FROM public_search WHERE public_search MATCH ',
  ' LIMIT ',
  ')',
]);

/**
 * PostgreSQL reads the newest NEWEST_WINDOW pages first (the primary key walked backwards, a
 * fixed number of rows): when RANKED_MAX of them match, those are the candidates. Only a
 * search matching fewer of them asks the GIN index. The planner cannot tell a prefix that
 * expands to a word on every page from a rare one ('folio':* was estimated at 2 000 matches)
 * and read the index's bitmap of all 100 000 matches, rechecking each: 180 ms for the ranked
 * page and 45 ms for the count at 100 000 pages, where this takes 3 ms and 5 ms
 * (docs/decisions/0033, amendment). The candidates are the same rows either way.
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
          const [rows, counted] = await Promise.all([
            engine === 'sqlite'
              ? q<Row>(SQLITE_RESULTS, match, match, RESULTS_PER_PAGE + 1, offset)
              : q<Row>(POSTGRES_RESULTS, match, match, match, RESULTS_PER_PAGE + 1, offset),
            engine === 'sqlite'
              ? q<{ n: number | string }>(SQLITE_COUNT, match, COUNT_MAX + 1)
              : q<{ n: number | string }>(
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
