// Owns what a page's slug may be: its pattern and length, the home page's slug, and the names
// no page may take because the framework, the API or Folio answers them. Domain rules, so the
// page store and the Markdown files check slugs without importing the HTTP edge; routes.ts
// builds its addresses on them (and re-exports them for its importers).
// Shared by server and browser code: nothing here may import server-only modules.

export const HOME_SLUG = 'home';
export const MAX_SLUG_LENGTH = 100;

const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** Names the framework, the API or Folio itself answers; no page may take them. */
export const RESERVED_SLUGS: ReadonlySet<string> = new Set([
  'preview',
  'api',
  'rsc',
  'assets',
  'monitoring',
  'healthz',
  'sitemap.xml',
  'feed.xml',
  'robots.txt',
  '404',
  '500',
  'favicon.svg',
  'favicon.ico',
  'media',
]);

export function isValidSlug(slug: string): boolean {
  return slug.length >= 1 && slug.length <= MAX_SLUG_LENGTH && SLUG_PATTERN.test(slug);
}

export function isReservedSlug(slug: string): boolean {
  return RESERVED_SLUGS.has(slug.toLowerCase());
}

/** A message for the editor's form, or null when the slug can be used for a new page. */
export function validateNewSlug(slug: string): string | null {
  if (slug.length === 0) return 'Enter a slug.';
  if (slug.length > MAX_SLUG_LENGTH) return `Use at most ${MAX_SLUG_LENGTH} characters.`;
  if (!SLUG_PATTERN.test(slug)) {
    return 'Use lowercase letters, digits and single hyphens, not at the start or end.';
  }
  if (isReservedSlug(slug)) return `“${slug}” is reserved.`;
  return null;
}

/**
 * The slug a new page's title suggests (`Café & Bar, 2026!` → `cafe-bar-2026`): lower case,
 * accents dropped, runs of anything else one hyphen, at most MAX_SLUG_LENGTH characters.
 */
export function slugFromTitle(title: string): string {
  return title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, MAX_SLUG_LENGTH)
    .replace(/-+$/, '');
}
