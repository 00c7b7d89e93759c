// Owns the names a shared cache (Varnish, a CDN) files Folio's public answers under, and which
// of them a content change makes stale (docs/decisions/0045). A public answer names what it
// depends on in `Surrogate-Key` (space-separated: Varnish, Fastly) and the same set in
// `Cache-Tag` (comma-separated: Cloudflare); a committed change is purged by the keys it names.
// The dependency is the render cache's own (content-changes.ts, docs/decisions/0028): a change
// names page slugs (a page's addresses, the listings that show it) or everything, so a key is
// `page-<slug>` for the page at that address, or `site` for what every page shows.
// Shared by the front door and the purge outbox; nothing here may import server-only code.
import { type ContentChange, EVERYTHING } from '../data/content-changes';
import { mediaHashOf } from '../media/media-refs';
import type { Route } from './routes';

export const SURROGATE_KEY_HEADER = 'surrogate-key';
export const CACHE_TAG_HEADER = 'cache-tag';

/** On every public answer: what every page shows (settings, menus, the layout). Purging it
 * purges everything. */
export const SITE_KEY = 'site';
/** The feed: every page change may move it (a publish puts a page at its top). */
export const FEED_KEY = 'feed';
/** The sitemap: every page change may move it (a page's date, a page gone). */
export const SITEMAP_KEY = 'sitemap';

/**
 * What one purge may name at most, in bytes: far under the 8 KB most proxies allow a header,
 * and a VCL regex compiles it quickly. Beyond it the purge is `site` (everything).
 */
export const MAX_KEYS_BYTES = 4096;

/** A key's spelling: what the shipped VCL accepts and builds its ban from, nothing to escape. */
const KEY_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

export function pageKey(slug: string): string {
  return `page-${slug}`;
}

export function mediaKey(hash: string): string {
  return `media-${hash}`;
}

/** Keys that are all well spelled and fit, or `site` alone. */
function bounded(keys: readonly string[]): string[] {
  const unique = [...new Set(keys)];
  if (!unique.every((key) => KEY_PATTERN.test(key))) return [SITE_KEY];
  if (unique.join(' ').length > MAX_KEYS_BYTES) return [SITE_KEY];
  return unique;
}

/**
 * The keys of a public answer at `pathname`, or null for a route that is never public
 * (preview, actions, health, editors' screens). A page and its page data share their page's
 * key: the render cache drops both when a change names that slug.
 */
export function surrogateKeysOf(route: Route, pathname: string): string[] | null {
  switch (route.kind) {
    case 'page':
      return route.slug === undefined ? null : bounded([pageKey(route.slug), SITE_KEY]);
    case 'page-data':
      return route.preview || route.slug === undefined
        ? null
        : bounded([pageKey(route.slug), SITE_KEY]);
    case 'feed':
      return [FEED_KEY, SITE_KEY];
    case 'sitemap':
      return [SITEMAP_KEY, SITE_KEY];
    case 'robots':
      return [SITE_KEY];
    case 'media': {
      const hash = mediaHashOf(pathname);
      return hash === null ? null : bounded([mediaKey(hash), SITE_KEY]);
    }
    default:
      return null;
  }
}

/** The keys a committed change makes stale: its pages (and the listings every page change
 * moves), or `site` for everything. */
export function purgeKeysOf(change: ContentChange): string[] {
  if (change === EVERYTHING) return [SITE_KEY];
  return bounded([...change.pages.map(pageKey), FEED_KEY, SITEMAP_KEY]);
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

function setKeys(headers: Headers, keys: readonly string[] | null) {
  if (keys === null) {
    if (headers.has(SURROGATE_KEY_HEADER)) headers.delete(SURROGATE_KEY_HEADER);
    if (headers.has(CACHE_TAG_HEADER)) headers.delete(CACHE_TAG_HEADER);
    return;
  }
  headers.set(SURROGATE_KEY_HEADER, keys.join(' '));
  headers.set(CACHE_TAG_HEADER, keys.join(','));
}
