// Owns the names a shared cache files Folio's public answers under, and which of them a
// committed change makes stale (docs/decisions/0045). The data layer's because the purge outbox
// (cache-purges.ts) writes a change's keys in the change's own transaction; the front door
// (http/surrogate-keys.ts) puts the same names on answers. The dependency is the render cache's
// (content-changes.ts, decision 0028): a change names page slugs or everything.
import { type ContentChange, EVERYTHING } from './content-changes';

/** On every public answer: what every page shows (settings, menus, the layout). Purging it
 * purges everything. */
export const SITE_KEY = 'site';
/** The feed: every page change may move it (a publish puts a page at its top). */
export const FEED_KEY = 'feed';
/** The sitemap: every page change may move it (a page's date, a page gone). */
export const SITEMAP_KEY = 'sitemap';
/** The content API's answers (/api/v1): its listings move with every page change. */
export const API_KEY = 'api';

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
export function boundedKeys(keys: readonly string[]): string[] {
  const unique = [...new Set(keys)];
  if (!unique.every((key) => KEY_PATTERN.test(key))) return [SITE_KEY];
  if (unique.join(' ').length > MAX_KEYS_BYTES) return [SITE_KEY];
  return unique;
}

/** The keys a committed change makes stale: its pages (and the listings every page change
 * moves), or `site` for everything. */
export function purgeKeysOf(change: ContentChange): string[] {
  if (change === EVERYTHING) return [SITE_KEY];
  return boundedKeys([...change.pages.map(pageKey), FEED_KEY, SITEMAP_KEY, API_KEY]);
}
