// Owns the parameters a visitor's page takes (issue 27): `q`, a search, on `/` alone, and
// `page`, which page of a listing, on `/` and every `/<slug>`. Everything else in a public
// page's query string (tracking parameters, junk) is dropped by the front door before anything
// can reflect it, as before. A request is reduced to its canonical kept query here, once: the
// front door hands Waku that and nothing else, the render cache keys on it (a listing's second
// page is its own entry; a search is never stored), and a page reads what it was asked with
// through `publicParams()`. Shared by the front door and the render cache, which run before a
// request context exists, and by pages, which run inside one.
import { pagePathOfPageData } from '../waku/internals';
import { currentRequestContext } from './request-context';
import { HOME_SLUG, PREVIEW_DASHBOARD, previewPath } from './routes';

/** A visitor's search words, on `/` only: `/?q=words`. */
export const SEARCH_PARAM = 'q';
/** Which page of a listing, from 1 (the default, never written): `/<topic>?page=2`. */
export const PAGE_PARAM = 'page';
/**
 * The highest page number a listing can be asked for. A site of 100 000 posts at 20 a page has
 * 5 000; whether a given page exists is the listing's question (past its end: a 404).
 */
export const PAGE_NUMBER_MAX = 99_999;

export type PublicParams = {
  /** The search words as typed, or null when the request is not a search. */
  q: string | null;
  /** Which page of a listing: 1 unless asked for another. */
  page: number;
};

export type PublicQuery =
  /** `canonical` is the kept query without its `?` ('' for none): `q=…&page=2`. */
  | { ok: true; params: PublicParams; canonical: string }
  /**
   * A `page` that is not a page number (`0`, `02`, `abc`, past PAGE_NUMBER_MAX): a 404 whose
   * words say why (pageNumberProblem); `asked` is the value as given.
   */
  | { ok: false; asked: string };

const NO_PARAMS: PublicParams = { q: null, page: 1 };
const PLAIN: PublicQuery = { ok: true, params: NO_PARAMS, canonical: '' };
/** One spelling per page number, so two spellings never make two cache entries. */
const PAGE_NUMBER = /^[1-9][0-9]{0,4}$/;

/**
 * The kept parameters of a request for the public page at `pagePath` (`/` or `/<slug>`) whose
 * query string (without `?`) is `query`.
 */
export function publicQueryOf(pagePath: string, query: string): PublicQuery {
  if (query === '') return PLAIN;
  const search = new URLSearchParams(query);
  const q = pagePath === '/' ? search.get(SEARCH_PARAM) : null;
  const asked = search.get(PAGE_PARAM);
  if (asked !== null && !PAGE_NUMBER.test(asked)) return { ok: false, asked };
  const page = asked === null ? 1 : Number(asked);
  if (q === null && page === 1) return PLAIN;
  const kept = new URLSearchParams();
  if (q !== null) kept.set(SEARCH_PARAM, q);
  if (page !== 1) kept.set(PAGE_PARAM, String(page));
  return { ok: true, params: { q, page }, canonical: kept.toString() };
}

/**
 * Why `asked` names no page of a listing, in a visitor's words (the front door's 404 says it):
 * `0`, a number written with a leading zero, one past any listing's end, or not a number at all
 * (hostile pass: every one of them was "not a number"). Plain text; the caller escapes it.
 */
export function pageNumberProblem(asked: string): string {
  if (/^0+$/.test(asked)) return 'A list’s pages are numbered from 1: there is no page 0.';
  if (/^0[0-9]+$/.test(asked) && Number(asked) <= PAGE_NUMBER_MAX)
    return `Page numbers are written without leading zeros: ask for ?page=${Number(asked)}.`;
  if (/^-?[0-9]*\.?[0-9]+$/.test(asked) && !/^[0-9]+$/.test(asked))
    return 'A list’s pages are numbered 1, 2, 3…: there is no page with a sign or a fraction.';
  if (/^[0-9]+$/.test(asked))
    return `No list on this site has that many pages: the highest page number there can be is ${PAGE_NUMBER_MAX.toLocaleString('en')}.`;
  return 'A list’s pages are numbered from 1: the page asked for is not a number.';
}

/**
 * The kept parameters of a public page's data request (`/RSC/R/<page>.txt?query=…`, Waku's
 * spelling: the page's own query string, encoded once more), or null when `pathname` is not
 * page data.
 */
export function publicQueryOfPageData(pathname: string, query: string): PublicQuery | null {
  const pagePath = pagePathOfPageData(pathname);
  if (pagePath === null) return null;
  return publicQueryOf(pagePathOf(pagePath), new URLSearchParams(query).get('query') ?? '');
}

/** Waku's page-data query for a canonical kept query (`query=…`, or '' for none). */
export function pageDataQueryOf(canonical: string): string {
  return canonical === '' ? '' : new URLSearchParams({ query: canonical }).toString();
}

/**
 * What the page being rendered was asked with: its search words and page number. Outside a
 * request, or for an address whose `page` is not a number (a preview: the front door refuses
 * those on public addresses), the first page and no search.
 */
export function publicParams(): PublicParams {
  const url = currentRequestContext()?.url;
  if (!url) return NO_PARAMS;
  const query = url.search.slice(1);
  const parsed =
    publicQueryOfPageData(url.pathname, query) ?? publicQueryOf(pagePathOf(url.pathname), query);
  return parsed.ok ? parsed.params : NO_PARAMS;
}

/** `/preview/<slug>` shows the page at `/<slug>` (the home page's preview shows `/`). */
function pagePathOf(pathname: string): string {
  if (pathname === previewPath(HOME_SLUG)) return '/';
  return pathname.startsWith(`${PREVIEW_DASHBOARD}/`)
    ? pathname.slice(PREVIEW_DASHBOARD.length)
    : pathname;
}
