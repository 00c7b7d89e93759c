// Owns the security headers every response carries: what they are, and the one function that
// puts them on a response. The front door applies it to everything; responses answered from
// memory (cached pages, hashed assets) are built with the same headers once, when stored.
import 'server-only';
import { spotlightOrigin } from '../observability/browser-config';
import { getEnv } from '../runtime/env';
import { DEVELOPMENT } from '../waku/development';
import type { Route } from './routes';

/**
 * What Folio loads, and nothing else. Scripts need 'unsafe-inline': Waku's bootstrap and the
 * RSC payload are inline scripts without a nonce in 1.0.0-rc.1, and so is our load-failure
 * guard (docs/decisions/0007). Images come from the site (uploads are served at /media/…)
 * and the origins IMAGE_ORIGINS names, nowhere else: a Markdown image cannot make a
 * visitor's browser call any host (docs/decisions/0019). Every request the page makes (page
 * data, actions, the Sentry tunnel) is same-origin. In development only, scripts may also
 * use eval() (React's development build rebuilds server components' stacks with it), and the
 * page may send to Spotlight's sidecar when SENTRY_SPOTLIGHT names one.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  DEVELOPMENT
    ? "script-src 'self' 'unsafe-inline' 'unsafe-eval'"
    : "script-src 'self' 'unsafe-inline'",
  "style-src 'self' 'unsafe-inline'",
  ['img-src', "'self'", ...(getEnv().IMAGE_ORIGINS?.split(/\s+/) ?? [])].join(' '),
  "font-src 'self'",
  ['connect-src', "'self'", spotlightOrigin() ?? ''].join(' ').trim(),
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': CONTENT_SECURITY_POLICY,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'strict-origin-when-cross-origin',
  'x-frame-options': 'DENY',
  'permissions-policy':
    'camera=(), microphone=(), geolocation=(), payment=(), usb=(), interest-cohort=()',
};

/**
 * Every document but a public page gets a browsing context group of its own: a window that
 * opened the sign-in form, an editor's screen or a share link keeps no handle on it.
 * A public page is the same for every visitor and holds nothing a handle could reach for,
 * and on it the isolation had a price: the swap of browsing context group on arrival was
 * the longest task of the page load on a slow phone (docs/decisions/0024).
 */
export const OPENER_ISOLATION = ['cross-origin-opener-policy', 'same-origin'] as const;

/**
 * Whether a response gets OPENER_ISOLATION: everything but what a visitor reads, a GET or
 * HEAD of a public page (the page, its 404, a redirect to it) or of its page data (the render
 * cache stores both, and a hit must carry what a miss does). Anything else at those
 * addresses (a forged action, a 405) is a refusal and keeps it. `route` is the route of the
 * address answered for, canonical where the request's was not; null where it names none.
 */
export function isolatedFromOpeners(route: Route | null, method: string): boolean {
  if (method !== 'GET' && method !== 'HEAD') return true;
  if (route?.kind === 'page') return false;
  return !(route?.kind === 'page-data' && !route.preview);
}

/** Sent only over HTTPS: a browser that saw it will not come back over plain HTTP. */
export const HSTS_HEADER = ['strict-transport-security', 'max-age=31536000; includeSubDomains'];

/**
 * Adds the security headers a response lacks (OPENER_ISOLATION unless isolatedFromOpeners
 * says not, HSTS over HTTPS); returns the response.
 */
export function withSecurityHeaders(
  response: Response,
  { https, route, method }: { https: boolean; route: Route | null; method: string },
): Response {
  const entries = Object.entries(SECURITY_HEADERS);
  if (isolatedFromOpeners(route, method)) entries.push([...OPENER_ISOLATION]);
  if (https) entries.push(HSTS_HEADER as [string, string]);
  try {
    for (const [name, value] of entries) {
      if (!response.headers.has(name)) response.headers.set(name, value);
    }
    return response;
  } catch {
    // Responses made by fetch() have immutable headers: copy once.
    const copy = new Response(response.body, response);
    for (const [name, value] of entries) copy.headers.set(name, value);
    return copy;
  }
}
