// Owns slug rules: what a page address may be, which names are reserved, canonical paths.

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
  'robots.txt',
  '404',
  '500',
  'favicon.svg',
  'favicon.ico',
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

export type PathVerdict =
  | { kind: 'ok'; slug: string | null }
  | { kind: 'redirect'; location: string }
  | { kind: 'not-found' };

/**
 * Judges a public page path (`/` or `/<slug>`): canonical, a redirect to the canonical form
 * (trailing slash, upper case, `/home`), or a path no page can have. Never throws.
 */
export function canonicalPagePath(pathname: string): PathVerdict {
  if (pathname === '/') return { kind: 'ok', slug: null };
  if (pathname.length > MAX_SLUG_LENGTH + 2 || !pathname.startsWith('/'))
    return { kind: 'not-found' };
  const trimmed = pathname.endsWith('/') ? pathname.slice(0, -1) : pathname;
  const segment = trimmed.slice(1);
  if (segment.includes('/')) return { kind: 'not-found' };
  const lower = segment.toLowerCase();
  if (!isValidSlug(lower)) return { kind: 'not-found' };
  if (lower === HOME_SLUG) return { kind: 'redirect', location: '/' };
  if (lower !== segment || trimmed !== pathname) return { kind: 'redirect', location: `/${lower}` };
  return { kind: 'ok', slug: segment };
}
