// Owns what the editors' page lists are asked and answer (page-list.ts runs them): the query,
// the keyset cursor as a query parameter, the sizes. No database here: the dashboard's
// component reads and writes its addresses with these.
import type { PageListing, PageState } from './types';

/** Rows on one dashboard page: with the layout, well under 200 KB of HTML (issue 25). */
export const PAGE_LIST_SIZE = 50;
/** Results the navigation picker shows for one search. */
export const PICKER_RESULTS = 20;
/** Matches counted exactly; beyond it the dashboard says "more than". */
export const COUNT_LIMIT = 1000;

/** `review`: waiting for review (decision 0040). */
export type PageListState = PageState | 'scheduled' | 'review' | 'all';
export type PageListSort = 'changed' | 'title';

/** Where a page of rows starts: after (older/next) or before (newer/previous) a row's key. */
export type PageCursor = { direction: 'after' | 'before'; key: string; slug: string };

export type PageListQuery = {
  q: string;
  state: PageListState;
  sort: PageListSort;
  cursor: PageCursor | null;
};

export type PageListResult = {
  rows: PageListing[];
  /** The cursor of the page before (newer / earlier by title), or null on the first page. */
  previous: PageCursor | null;
  /** The cursor of the page after, or null on the last page. */
  next: PageCursor | null;
  /** Pages in each state (the filter's labels). */
  counts: Record<PageListState, number>;
  /**
   * How many match the filter and search: exact, or (a broad search) more than COUNT_LIMIT, or
   * at least `n` (a broad search with a state filter whose first matches held only that many).
   */
  matching: { n: number; exact: boolean };
};

/** A cursor as a query parameter value: opaque to the editor, readable by `parseCursor`. */
export function cursorParam(cursor: PageCursor): string {
  return Buffer.from(JSON.stringify([cursor.key, cursor.slug])).toString('base64url');
}

/**
 * Whether a cursor's text could be a key Folio wrote: no control characters (PostgreSQL refuses
 * a NUL in a parameter, and answered a hand-made cursor holding one with a 500: hostile pass)
 * and no lone surrogates (not UTF-8).
 */
export function isCursorText(value: unknown): value is string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it finds
  return typeof value === 'string' && value.isWellFormed() && !/[\u0000-\u001f\u007f]/.test(value);
}

/**
 * A cursor parameter's two parts (base64url JSON of `[key, second]`), or null for anything
 * else: a hand-edited address shows the first page. The dashboard's and the library's cursors.
 */
export function cursorParts(value: string | null, maxLength: number): [unknown, unknown] | null {
  if (!value || value.length > maxLength) return null;
  try {
    const parsed: unknown = JSON.parse(Buffer.from(value, 'base64url').toString('utf8'));
    return Array.isArray(parsed) && parsed.length === 2 ? [parsed[0], parsed[1]] : null;
  } catch {
    return null;
  }
}

/** The cursor a query parameter names, or null for anything else (a page 1 then). */
export function parseCursor(direction: PageCursor['direction'], value: string | null) {
  const parts = cursorParts(value, 2000);
  if (!parts || !isCursorText(parts[0]) || !isCursorText(parts[1])) return null;
  return { direction, key: parts[0], slug: parts[1] } satisfies PageCursor;
}

/**
 * PostgreSQL's text search configuration for every search column and query: \`simple\` with
 * accents taken off (migration 13), so "cafe" finds "Café" as SQLite's tokenizer does.
 */
export const SEARCH_CONFIG = 'folio_search';

/** A search box's text beyond this many characters is not read. */
const SEARCH_TEXT_MAX = 100;

/**
 * What a search box's `?q=` holds, as the list reads and shows it: at most SEARCH_TEXT_MAX
 * characters, without control characters (a NUL typed into an address was echoed into the
 * box's value) and without half of an emoji cut at the limit.
 */
export function searchText(raw: string | null): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it removes
  const text = (raw ?? '').replace(/[\u0000-\u001f\u007f-\u009f]/g, '');
  return Array.from(text).slice(0, SEARCH_TEXT_MAX).join('').toWellFormed();
}

/** A search's words beyond this many are ignored (each is one index lookup). */
const MAX_TERMS = 8;

/**
 * The words of a search, for the engine's full-text query: letters, digits and the marks
 * inside a word only, so nothing an editor types is ever query syntax. Each word matches as a
 * prefix ("pub" finds "publish"). Latin letters lose their accents first, as both engines'
 * indexes do: "İstanbul" lower-cased is "i" + a combining dot + "stanbul", which split in two
 * and found nothing (hostile pass). Other scripts keep their marks (a Devanagari vowel sign is
 * part of its word), and NFC puts back what NFD took apart (Hangul syllables).
 */
export function searchTerms(text: string): string[] {
  const plain = text
    .normalize('NFD')
    .replace(/(\p{Script=Latin})\p{M}+/gu, '$1')
    .normalize('NFC')
    .toLowerCase();
  return (plain.match(/[\p{L}\p{N}][\p{L}\p{M}\p{N}]*/gu) ?? []).slice(0, MAX_TERMS);
}

/** Text typed in a search box that holds no word to search for (`😀`, `*`): every row is shown. */
export const searchIsWordless = (text: string) =>
  text.trim() !== '' && searchTerms(text).length === 0;

/** The filter a dashboard address (or its form's fields) asks for; unknown values: the defaults. */
export function listFilterOf(params: URLSearchParams): Pick<PageListQuery, 'q' | 'state' | 'sort'> {
  const state = params.get('state');
  return {
    q: searchText(params.get('q')),
    state:
      state === 'published' ||
      state === 'changed' ||
      state === 'draft-only' ||
      state === 'scheduled' ||
      state === 'review'
        ? state
        : 'all',
    sort: params.get('sort') === 'title' ? 'title' : 'changed',
  };
}

/**
 * The dashboard's query string for a query (without `?`): only what differs from the defaults,
 * so the form's filtering as one types (dashboard-filters.tsx) and the pager's links name a
 * list alike. routes.ts `dashboardPath` makes it an address.
 */
export function dashboardSearch(
  query: Pick<PageListQuery, 'q' | 'state' | 'sort'> & { cursor?: PageCursor | null },
): string {
  const params = new URLSearchParams();
  if (query.q.trim() !== '') params.set('q', query.q);
  if (query.state !== 'all') params.set('state', query.state);
  if (query.sort !== 'changed') params.set('sort', query.sort);
  if (query.cursor) params.set(query.cursor.direction, cursorParam(query.cursor));
  return params.toString();
}
