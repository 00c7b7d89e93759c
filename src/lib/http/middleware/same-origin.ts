// Refuses state-changing requests from other sites (403) before anything else handles them.
// Waku checks the origin of actions too, but only after decoding the action id; this covers
// every POST (actions, API routes) first and the same way.
import type { MiddlewareHandler } from 'hono';
import { PRIVATE_CACHE_CONTROL } from '../cache-headers';

export function isCrossSite(request: Request): boolean {
  const origin = request.headers.get('origin');
  if (origin === 'null') return true;
  if (origin !== null) return !isThisSite(origin, request.url);
  if (request.headers.get('sec-fetch-site') === 'cross-site') return true;
  // No Origin and no fetch metadata (an old browser, or a client that left them out): a
  // Referer from elsewhere still says where the request came from (hostile pass, issue 23:
  // a signed-in post with only a foreign Referer went through). Without either, it is no
  // browser's cross-site request: the CLI, curl, a health check.
  const referer = request.headers.get('referer');
  return referer !== null && !isThisSite(referer, request.url);
}

function isThisSite(address: string, requestUrl: string): boolean {
  try {
    const from = new URL(address);
    const to = new URL(requestUrl);
    // Behind a TLS-terminating proxy the server sees http while the browser says https.
    return from.host === to.host && (from.protocol === to.protocol || from.protocol === 'https:');
  } catch {
    return false;
  }
}

export function sameOrigin(): MiddlewareHandler {
  return async function sameOriginMiddleware(c, next) {
    const method = c.req.method;
    if (method === 'GET' || method === 'HEAD' || method === 'OPTIONS') return next();
    if (isCrossSite(c.req.raw)) {
      return c.text('Forbidden: this request must come from this site.\n', 403, {
        'cache-control': PRIVATE_CACHE_CONTROL,
      });
    }
    return next();
  };
}
