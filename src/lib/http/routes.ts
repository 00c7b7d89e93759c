// Owns Folio's addresses: what a slug may be and which names no page may take, which route a
// path is and which methods it answers, the canonical form of public and preview paths, page
// data and share-link addresses — and the request facts every layer must agree on: the cookie
// names, whether a request came over HTTPS, and which address it came from.
// Shared by server and browser code: nothing here may import server-only modules.

import { HOME_SLUG, isReservedSlug, isValidSlug } from '../content/slugs';
import { MEDIA_ADDRESS } from '../media/media-refs';
import { ACTION_PATH, pageDataPathOf, pagePathOfPageData, RSC_PREFIX } from '../waku/internals';

// --- Slugs ------------------------------------------------------------------------------------

// The rules live with the content domain (content/slugs.ts); re-exported for routes' importers.
export {
  HOME_SLUG,
  isReservedSlug,
  isValidSlug,
  MAX_SLUG_LENGTH,
  RESERVED_SLUGS,
  slugFromTitle,
  validateNewSlug,
} from '../content/slugs';

/** The editors' media library (the dashboard's `?media`). */
export const MEDIA_LIBRARY = '/preview?media';
/** The editors' topics: names, addresses and introductions (issue 27). */
export const TOPICS_SCREEN = '/preview?topics';
/** The built-in help: Markdown as Folio renders it, and the editor's keyboard shortcuts. */
export const EDITOR_HELP = '/preview?help';
/** Developer tools (checking error reporting), off the editors' dashboard. */
export const DEVELOPER_TOOLS = '/preview?developer';
/** The signed-in editor's public author profile (issue 27). */
export const AUTHOR_PROFILE = '/preview?profile';
/** One's own passkeys and authenticator app, and the site's second-factor rule (issue 28). */
export const SECURITY_SCREEN = '/preview?security';
/** The editors' redirects (issue 27). */
export const REDIRECTS_SCREEN = '/preview?redirects';
/** The header's and footer's menus (issue 27). */
export const NAVIGATION_SCREEN = '/preview?navigation';
/** The people of the site: roles, invitations, suspension (issue 28). */
export const PEOPLE_SCREEN = '/preview?people';
/** A person's own sessions: where and when each is signed in (issue 28). */
export const SESSIONS_SCREEN = '/preview?sessions';
/** The invitation's accept page, signed out (issue 28): the token follows. */
export const INVITATION_PARAM = 'invite';
/** The audit trail, for those who may read it (issue 28). */
export const AUDIT_SCREEN = '/preview?audit';
/** Webhooks: endpoints, their delivery logs, redelivery (issue 29, decision 0046). */
export const WEBHOOKS_SCREEN = '/preview?webhooks';
/** Keys to the content API, for Administrators (issue 29, docs/decisions/0047). */
export const API_KEYS_SCREEN = '/preview?api-keys';

// --- Routes -----------------------------------------------------------------------------------

export type RouteKind =
  | 'page'
  | 'preview'
  | 'page-data'
  | 'action'
  | 'asset'
  | 'file'
  | 'sitemap'
  | 'feed'
  | 'robots'
  | 'healthz'
  | 'monitoring'
  | 'media'
  | 'api'
  | 'other';

/** A request's route. `slug` names the page of a page, preview or page-data route. */
export type Route = { kind: RouteKind; slug?: string; preview?: boolean };

const FIXED_ROUTES: Readonly<Record<string, RouteKind>> = {
  '/sitemap.xml': 'sitemap',
  '/feed.xml': 'feed',
  '/robots.txt': 'robots',
  '/healthz': 'healthz',
  '/monitoring': 'monitoring',
  '/favicon.svg': 'file',
};

/** Which route a (decoded) path is. Paths no route serves are `other`: the router's 404. */
export function routeOf(pathname: string): Route {
  const fixed = FIXED_ROUTES[pathname];
  if (fixed) return { kind: fixed };
  if (pathname === '/') return { kind: 'page', slug: HOME_SLUG };
  if (pathname.startsWith(RSC_PREFIX)) {
    const pagePath = pagePathOfPageData(pathname);
    if (pagePath !== null) {
      // Page data for an address no page is at is still page data (the router's "not found"
      // payload), typed and kept out of caches like any other.
      const page = routeOf(pagePath);
      if (page.kind === 'page' || page.kind === 'preview')
        return { kind: 'page-data', slug: page.slug, preview: page.kind === 'preview' };
      return { kind: 'page-data', preview: isPreviewPath(pagePath) };
    }
    return ACTION_PATH.test(pathname) ? { kind: 'action' } : { kind: 'other' };
  }
  if (pathname.startsWith('/assets/')) return { kind: 'asset' };
  // Uploaded images: /media/<hash>/<variant> (media-refs.ts).
  if (MEDIA_ADDRESS.test(pathname)) return { kind: 'media' };
  // The content API (docs/decisions/0044): `api` is a reserved slug, so no page is there.
  if (pathname === '/api' || pathname.startsWith('/api/')) return { kind: 'api' };
  const segments = pathname.slice(1).split('/');
  const [first = '', second] = segments;
  if (first === 'preview') {
    // /preview itself is the editors' dashboard; the home page's preview is /preview/home.
    if (segments.length === 1) return { kind: 'preview' };
    if (segments.length === 2 && second !== undefined && isValidSlug(second))
      return { kind: 'preview', slug: second };
    return { kind: 'other' };
  }
  if (segments.length === 1 && isValidSlug(first) && !isReservedSlug(first))
    return { kind: 'page', slug: first };
  return { kind: 'other' };
}

/**
 * Whether a path may be a page's address, for a page-data request made there
 * (page-data-address.ts): a page or a preview, in any spelling the canonical redirect fixes
 * (a page that does not exist is still a page's address: its data is the router's "not
 * found"). Nothing else: not a fixed route, an asset, an image, one of Waku's own addresses,
 * or a path no page could have — `/_root` and `/about_` are spellings of other pages in
 * Waku's page-data addresses, and a flagged request for them is answered as a plain one.
 */
export function mayBePageAddress(pathname: string): boolean {
  const kind = routeOf(canonicalLocation(pathname) ?? pathname).kind;
  return kind === 'page' || kind === 'preview';
}

/** The methods each route answers; `null` means no route is there (404, whatever the method).
 * Every GET route answers HEAD. Pages take POST: forms post back to the page's own address. */
export const ALLOWED_METHODS: Readonly<Record<RouteKind, readonly string[] | null>> = {
  page: ['GET', 'HEAD', 'POST'],
  preview: ['GET', 'HEAD', 'POST'],
  'page-data': ['GET', 'HEAD'],
  action: ['POST'],
  asset: ['GET', 'HEAD'],
  file: ['GET', 'HEAD'],
  sitemap: ['GET', 'HEAD'],
  feed: ['GET', 'HEAD'],
  robots: ['GET', 'HEAD'],
  healthz: ['GET', 'HEAD'],
  monitoring: ['POST'],
  media: ['GET', 'HEAD'],
  // OPTIONS: the CORS preflight of a script on another site (api/content-api.ts).
  api: ['GET', 'HEAD', 'OPTIONS'],
  other: null,
};

/**
 * Where a path belongs when it is not in canonical form (a 308), or null when it is — or when
 * no page could be there (a 404 for the router). Canonical: lower case, no trailing or doubled
 * slash, no `index.html`, `/home` as `/`, and the same for the preview's mirror of each page.
 */
export function canonicalLocation(pathname: string): string | null {
  if (!pathname.startsWith('/')) return null;
  if (pathname.startsWith(RSC_PREFIX)) return canonicalPageDataLocation(pathname);
  // `/about/index.html` is `/about` to Waku's router: one address per page.
  const collapsed = pathname.replace(/\/{2,}/g, '/').replace(/\/index\.html\/?$/i, '/');
  const trimmed = collapsed.length > 1 ? collapsed.replace(/\/$/, '') : collapsed;
  const segments = trimmed.toLowerCase().slice(1).split('/');
  const [first = '', second] = segments;
  let target: string | null = null;
  if (trimmed === '/') target = '/';
  else if (FIXED_ROUTES[trimmed.toLowerCase()]) target = trimmed.toLowerCase();
  else if (first === 'preview' && segments.length <= 2) {
    if (second === undefined) target = PREVIEW_DASHBOARD;
    else if (isValidSlug(second)) target = previewPath(second);
  } else if (segments.length === 1 && isValidSlug(first) && !isReservedSlug(first)) {
    target = publicPath(first);
  }
  return target !== null && target !== pathname ? target : null;
}

/**
 * Page data has one address per page too: Waku's router asks for exactly `pageDataPathOf` of
 * a canonical path, so any other spelling (`/RSC/R/About.txt`, `/RSC/R/about_.txt`) is sent
 * there rather than rendered, and cached, under a second name.
 */
function canonicalPageDataLocation(pathname: string): string | null {
  const pagePath = pagePathOfPageData(pathname);
  if (pagePath === null) return null;
  const canonical = canonicalLocation(pagePath) ?? pagePath;
  const kind = routeOf(canonical).kind;
  if (kind !== 'page' && kind !== 'preview') return null;
  const target = pageDataPathOf(canonical);
  return target !== pathname ? target : null;
}

export function publicPath(slug: string): `/${string}` {
  return slug === HOME_SLUG ? '/' : `/${slug}`;
}

/** The editors' dashboard: every page, its state and last change. */
export const PREVIEW_DASHBOARD = '/preview';

/** The dashboard's address with a query string (page-list-params.ts `dashboardSearch`). */
export function dashboardPath(search: string): `${typeof PREVIEW_DASHBOARD}${string}` {
  return search === '' ? PREVIEW_DASHBOARD : `${PREVIEW_DASHBOARD}?${search}`;
}

/** A page's preview: `/preview/<slug>`, the home page's included (`/preview/home`). */
export function previewPath(slug: string): `/preview/${string}` {
  return `/preview/${slug}`;
}

export function isPreviewPath(path: string): boolean {
  return path === PREVIEW_DASHBOARD || path.startsWith('/preview/');
}

/** Points root-relative links of rendered Markdown at their preview versions. */
export function rewriteLinksForPreview(html: string): string {
  return html.replace(/href="\/(?!\/|preview(?:[/"?#]))([^"]*)"/g, (_match, rest: string) =>
    rest === '' || rest.startsWith('?') || rest.startsWith('#')
      ? `href="${previewPath(HOME_SLUG)}${rest}"`
      : `href="/preview/${rest}"`,
  );
}

// --- Share links ------------------------------------------------------------------------------

/** The query parameter that carries a share link's token. */
export const SHARE_PARAM = 'share';

export function shareLinkPath(
  slug: string,
  token: string,
): `${ReturnType<typeof previewPath>}?${string}` {
  return `${previewPath(slug)}?${SHARE_PARAM}=${encodeURIComponent(token)}`;
}

// --- Request facts ----------------------------------------------------------------------------

/** The editor's session (HttpOnly, SameSite=Lax, Secure over HTTPS). */
export const SESSION_COOKIE = 'folio_session';
/** A device an editor has signed in from (sign-in throttling, docs/decisions/0011). */
export const DEVICE_COOKIE = 'folio_device';
/** A password sign-in waiting for its second step (editors/second-factor.ts; HttpOnly, Lax). */
export const SECOND_STEP_COOKIE = 'folio_second_step';

/**
 * Whether the visitor's connection is HTTPS: the server's own TLS, or — only when a proxy is
 * trusted (TRUST_PROXY) — what the nearest proxy says in X-Forwarded-Proto.
 */
export function isHttps(request: Request, trustedProxyHops: number): boolean {
  if (request.url.startsWith('https:')) return true;
  if (trustedProxyHops < 1) return false;
  const forwarded = request.headers.get('x-forwarded-proto');
  return forwarded?.split(',').at(-1)?.trim().toLowerCase() === 'https';
}

/**
 * The client's address: the socket's peer, or with `trustedProxyHops` proxies in front, the
 * address the outermost trusted proxy saw (X-Forwarded-For read from the right, as each proxy
 * appends the address it was connected from). Anything further left is the client's own say.
 */
export function clientAddressOf(
  request: Request,
  socketAddress: string,
  trustedProxyHops: number,
): string {
  if (trustedProxyHops < 1) return socketAddress;
  const forwarded = (request.headers.get('x-forwarded-for') ?? '')
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
  const chain = [...forwarded, socketAddress];
  return chain[Math.max(0, chain.length - 1 - trustedProxyHops)] ?? socketAddress;
}
