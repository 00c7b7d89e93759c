// Owns the names a shared cache (Varnish, a CDN) files Folio's public answers under, and which
// of them a content change makes stale (docs/decisions/0045). A public answer names what it
// depends on in `Surrogate-Key` (space-separated: Varnish, Fastly) and the same set in
// `Cache-Tag` (comma-separated: Cloudflare); a committed change is purged by the keys it names.
// The dependency is the render cache's own (content-changes.ts, docs/decisions/0028): a change
// names page slugs (a page's addresses, the listings that show it) or everything, so a key is
// `page-<slug>` for the page at that address, or `site` for what every page shows.
// The names themselves, and which a change makes stale, are the data layer's (the purge outbox
// is written in the change's transaction): data/cache-keys.ts. This module puts them on answers.
import {
  API_KEY,
  boundedKeys,
  FEED_KEY,
  mediaKey,
  pageKey,
  SITE_KEY,
  SITEMAP_KEY,
} from '../data/cache-keys';
import { mediaHashOf } from '../media/media-refs';
import type { Route } from './routes';

export {
  API_KEY,
  FEED_KEY,
  MAX_KEYS_BYTES,
  mediaKey,
  pageKey,
  purgeKeysOf,
  SITE_KEY,
  SITEMAP_KEY,
} from '../data/cache-keys';

export const SURROGATE_KEY_HEADER = 'surrogate-key';
export const CACHE_TAG_HEADER = 'cache-tag';

/**
 * The keys of a public answer at `pathname`, or null for a route that is never public
 * (preview, actions, health, editors' screens). A page and its page data share their page's
 * key: the render cache drops both when a change names that slug.
 */
export function surrogateKeysOf(route: Route, pathname: string): string[] | null {
  switch (route.kind) {
    case 'page':
      return route.slug === undefined ? null : boundedKeys([pageKey(route.slug), SITE_KEY]);
    case 'page-data':
      return route.preview || route.slug === undefined
        ? null
        : boundedKeys([pageKey(route.slug), SITE_KEY]);
    case 'feed':
      return [FEED_KEY, SITE_KEY];
    case 'sitemap':
      return [SITEMAP_KEY, SITE_KEY];
    case 'robots':
      return [SITE_KEY];
    case 'api':
      return [API_KEY, SITE_KEY];
    case 'media': {
      const hash = mediaHashOf(pathname);
      return hash === null ? null : boundedKeys([mediaKey(hash), SITE_KEY]);
    }
    default:
      return null;
  }
}

/** Whether shared caches may keep this answer (what they are told by Cache-Control). */
function isPublic(headers: Headers): boolean {
  const control = headers.get('cache-control') ?? '';
  return /\bpublic\b/.test(control) && !/private|no-store/.test(control);
}

/**
 * The one place keys are put on an answer: a public answer of a public route gets its keys,
 * anything else (a refusal, a failed render, a preview) none, whatever it carried.
 */
export function withSurrogateKeys(response: Response, route: Route, pathname: string): Response {
  const keys = isPublic(response.headers) ? surrogateKeysOf(route, pathname) : null;
  try {
    setKeys(response.headers, keys);
    return response;
  } catch {
    // A fetch() response's headers are immutable: copy once.
    const copy = new Response(response.body, response);
    setKeys(copy.headers, keys);
    return copy;
  }
}

/**
 * A public page's (or its page data's) key headers, for the render cache to store with its
 * entry: a hit is answered with headers built once, never computed again per request.
 */
export function pageKeyHeaders(slug: string): [string, string][] {
  const keys = boundedKeys([pageKey(slug), SITE_KEY]);
  return [
    [SURROGATE_KEY_HEADER, keys.join(' ')],
    [CACHE_TAG_HEADER, keys.join(',')],
  ];
}

function setKeys(headers: Headers, keys: readonly string[] | null) {
  if (keys === null) {
    if (headers.has(SURROGATE_KEY_HEADER)) headers.delete(SURROGATE_KEY_HEADER);
    if (headers.has(CACHE_TAG_HEADER)) headers.delete(CACHE_TAG_HEADER);
    return;
  }
  headers.set(SURROGATE_KEY_HEADER, keys.join(' '));
  headers.set(CACHE_TAG_HEADER, keys.join(','));
}
