// Owns how long anything Folio sends may be kept, and by whom (docs/decisions/0012). Imported
// by request-errors.ts, which the browser shares: nothing here may import server-only code.

/**
 * Public pages, their page data, the sitemap and robots.txt. Browsers revalidate every use
 * (an ETag makes that a 304): a browser's own stale-while-revalidate fetches the page again
 * in the background, and Chromium left those revalidations pending for 30 s, holding its six
 * connections to the site. Shared caches keep a copy for 60 s; CDNs that read CDN-Cache-Control
 * (RFC 9213) may also serve it stale for 10 minutes while they fetch a fresh one.
 */
export const PUBLIC_CACHE_HEADERS: Readonly<Record<string, string>> = {
  'cache-control': 'public, max-age=0, s-maxage=60, must-revalidate',
  'cdn-cache-control': 'public, max-age=60, stale-while-revalidate=600',
};

/** Preview, signed-in and action responses, refusals and error pages: nobody keeps them. */
export const PRIVATE_CACHE_CONTROL = 'private, no-store';

/** A render that failed part-way, a health check: never kept, by anyone. */
export const NO_STORE = 'no-store';

/** Renamed-slug redirects: kept, but checked each time, since a rename can be undone. */
export const REVALIDATE_EACH_TIME = 'no-cache';

/** Hashed assets: their names change with their content. */
export const IMMUTABLE_CACHE_CONTROL = 'public, max-age=31536000, immutable';

/** Sets the public caching headers on a response whose headers can change. */
export function setPublicCacheHeaders(headers: Headers): void {
  for (const [name, value] of Object.entries(PUBLIC_CACHE_HEADERS)) headers.set(name, value);
}

/**
 * What no module said may be kept (a 404 page, the router's "no such page" page data) is
 * kept by nobody: CDNs otherwise cache by status (404) or by file extension (`.txt`). Redirects
 * keep HTTP's defaults: a canonical-address 308 is permanent.
 */
export function withDefaultCacheControl(response: Response): Response {
  if (response.headers.has('cache-control') || (response.status >= 300 && response.status < 400))
    return response;
  return withHeader(response, 'cache-control', NO_STORE);
}

/** `response` with `name` set to `value`, copied once when its headers are immutable. */
export function withHeader(response: Response, name: string, value: string): Response {
  try {
    response.headers.set(name, value);
    return response;
  } catch {
    // Responses made by fetch() have immutable headers: copy once.
    const copy = new Response(response.body, response);
    copy.headers.set(name, value);
    return copy;
  }
}
