// Refuses state-changing requests from other sites (403) before anything else handles them.
// Waku checks the origin of actions too, but only after decoding the action id; this covers
// every POST (actions, API routes) first and the same way.
import type { MiddlewareHandler } from 'hono';
import { getEnv } from '../../runtime/env';
import { PRIVATE_CACHE_CONTROL } from '../cache-headers';
import { requestContext } from '../request-context';

/**
 * The origins a state-changing request may come from, scheme, host and port alike (hostile
 * pass 2, issue 28: an Origin of the same host over the other scheme was taken, so a page
 * served over plain http — by anyone who can answer there — could post to the https site).
 * This request's own origin, its scheme as the front door read it (https behind a trusted
 * proxy, TRUST_PROXY; nothing else believes X-Forwarded-Proto); and SITE_URL's when set, which
 * alone says the scheme of its own host name: a request to that name over http is no
 * permission for http pages to post.
 */
export function allowedOrigins(
  request: { host: string; https: boolean },
  siteUrl: string | undefined,
): string[] {
  const own = `${request.https ? 'https' : 'http'}://${request.host}`;
  if (siteUrl === undefined) return [own];
  const site = new URL(siteUrl);
  return site.host === request.host ? [site.origin] : [site.origin, own];
}

export function isCrossSite(request: Request, origins: readonly string[]): boolean {
  const origin = request.headers.get('origin');
  if (origin === 'null') return true;
  if (origin !== null) return !isThisSite(origin, origins);
  if (request.headers.get('sec-fetch-site') === 'cross-site') return true;
  // No Origin and no fetch metadata (an old browser, or a client that left them out): a
  // Referer from elsewhere still says where the request came from (hostile pass, issue 23:
  // a signed-in post with only a foreign Referer went through). Without either, it is no
  // browser's cross-site request: the CLI, curl, a health check.
  const referer = request.headers.get('referer');
  return referer !== null && !isThisSite(referer, origins);
}

function isThisSite(address: string, origins: readonly string[]): boolean {
  try {
    return origins.includes(new URL(address).origin);
  } catch {
    return false;
  }
}

export function sameOrigin(): MiddlewareHandler {
  return async function sameOriginMiddleware(c, next) {
    const method = c.req.method;
    if (method === 'GET' || method === 'HEAD' || method === 'OPTIONS') return next();
    const { url, https } = requestContext();
    const origins = allowedOrigins({ host: url.host, https }, getEnv().SITE_URL);
    if (isCrossSite(c.req.raw, origins)) {
      return c.text('Forbidden: this request must come from this site.\n', 403, {
        'cache-control': PRIVATE_CACHE_CONTROL,
      });
    }
    return next();
  };
}
