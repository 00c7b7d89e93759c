// Owns the page-data address of the original specification: "page-data requests go to the
// current page address, with a flag asking for the component payload". The browser asks for a
// page's data at the page's own address (`/about`, `/`, `/preview/about?edit`) with the flag
// header and a cache-busting parameter — the parameter so that a cache which ignores `Vary`
// can never answer one with the other; the server turns such a request into Waku's own
// page-data request (`/RSC/R/about.txt`) before anything else sees it, so the render cache,
// ETags, redirects, 404s and preview privacy are those of page data, one set of rules. Shared
// by server and browser code: nothing here may import server-only modules.
import { NOT_FOUND_ROUTE_PATH, pageDataPathOf, pagePathOfPageData } from '../waku/internals';

/** The flag: a request header, as Next.js has `RSC: 1`. */
export const PAGE_DATA_HEADER = 'rsc';
export const PAGE_DATA_FLAG = '1';
/** The `Vary` of every page and page-data response: compression, and the flag. */
export const PAGE_VARY = 'Accept-Encoding, RSC';
/** The cache-busting query parameter the browser adds (its value is the build's). */
export const PAGE_DATA_PARAM = '_rsc';

/** Browser: the address to ask for the data of the page at `target` (a path and query). */
export function pageDataAddress(target: string, stamp: string): string {
  return `${target}${target.includes('?') ? '&' : '?'}${PAGE_DATA_PARAM}=${encodeURIComponent(stamp)}`;
}

/** A path a browser resolves on this site: one leading slash, not `//host` or `/\\host`. */
function isSitePath(path: string): boolean {
  return /^\/(?![/\\])/.test(path);
}

/** The query string of a page-data request without the cache-busting parameter. */
function pageQueryOf(search: string): string {
  return search
    .replace(/^\?/, '')
    .split('&')
    .filter((pair) => pair !== '' && pair.split('=')[0] !== PAGE_DATA_PARAM)
    .join('&');
}

/**
 * Server: Waku's page-data address (path and query) for a request made at a page's address
 * with the flag, or null when the request is not one. `isPageAddress` says whether a path may
 * be a page (routes.ts): feeds, assets, media and Waku's own addresses never are.
 */
export function wakuPageDataAddress(
  url: URL,
  flag: string | null,
  isPageAddress: (pathname: string) => boolean,
): { address: string; stamp: string } | null {
  // Both the flag and the parameter: a flagged request at the plain address (which a cache
  // that ignores Vary would file under the page's HTML) is answered with the HTML.
  const stamp = url.searchParams.get(PAGE_DATA_PARAM);
  if (flag !== PAGE_DATA_FLAG || !stamp) return null;
  // The not-found route is no page of the site (its HTML is the plain 404), but the router
  // asks for its data after a page's data said "no such page": answered as Waku's, it shows
  // the 404 page in place (asked as HTML, the router looped on it, issue 27's leftovers).
  if (!isPageAddress(url.pathname) && url.pathname !== NOT_FOUND_ROUTE_PATH) return null;
  const query = pageQueryOf(url.search);
  return {
    address: `${pageDataPathOf(url.pathname)}${query ? `?query=${encodeURIComponent(query)}` : ''}`,
    stamp,
  };
}

/**
 * Waku's page-data address (`/RSC/R/about.txt?query=`) said at the page's own address, with
 * the stamp: the browser asks there instead, and the server says its page-data redirects
 * (a canonical spelling) there, so the browser's fetch follows them there. Any other address
 * is returned as it is.
 */
export function pageAddressOfPageData(location: string, stamp: string): string {
  const url = new URL(location, 'http://folio.invalid');
  const pagePath = pagePathOfPageData(url.pathname);
  // Only a path on this site: `//evil.example` is another site's address to a browser
  // (hostile pass); such a page's data stays at Waku's address, which is on this site.
  if (pagePath === null || url.origin !== 'http://folio.invalid' || !isSitePath(pagePath))
    return location;
  const query = url.searchParams.get('query') ?? '';
  return pageDataAddress(`${pagePath}${query ? `?${query}` : ''}`, stamp);
}

/**
 * Browser: a page-data answer as Waku's router takes it. The server answers page data with its
 * page's status, as the page's HTML is answered: "no such page" is a 404 with the not-found
 * payload, a refused search a 400, a screen not for the editor's role a 403, the sign-in form a
 * 401, each with the payload that shows it. The router treats any status but 2xx as a failed
 * fetch, so a 4xx payload is handed on as a 200 and the router shows that page, as before. Any
 * other answer (a 5xx, a plain-text refusal, a redirect) is handed on as it is.
 */
export function pageDataForRouter(response: Response): Response {
  const type = response.headers.get('content-type') ?? '';
  if (response.status < 400 || response.status >= 500 || !type.startsWith('text/x-component'))
    return response;
  return new Response(response.body, { status: 200, headers: response.headers });
}
