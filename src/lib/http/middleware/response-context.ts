// Applies what pages and actions asked of the response (cookies, status, privacy), and makes
// every preview, signed-in or action response private: `no-store` and `noindex`.
import type { MiddlewareHandler } from 'hono';
import { RETRY_AFTER_SECONDS } from '../../observability/request-errors';
import { PRIVATE_CACHE_CONTROL } from '../cache-headers';
import { requestContext } from '../request-context';
import { SESSION_COOKIE } from '../routes';

export function responseContext(): MiddlewareHandler {
  return async function responseContextMiddleware(c, next) {
    const context = requestContext();
    const { route } = context;
    if (
      route.kind === 'preview' ||
      route.preview === true ||
      (c.req.method !== 'GET' && c.req.method !== 'HEAD') ||
      (c.req.header('cookie') ?? '').includes(`${SESSION_COOKIE}=`)
    ) {
      context.isPrivate = true;
    }
    await next();
    let response = c.res;
    // The status a page asked for applies to the document here; page data gets it once its
    // render is read whole (front-door.ts withPageDataStatus), as a stream may still be rendering.
    if (context.status && response.status === 200 && route.kind !== 'page-data') {
      response = new Response(response.body, { status: context.status, headers: response.headers });
      // A form refused because the database could not take it: the same 503 as every other.
      if (context.status === 503) response.headers.set('retry-after', RETRY_AFTER_SECONDS);
    }
    for (const cookie of context.cookies) response.headers.append('set-cookie', cookie);
    if (context.isPrivate) {
      response.headers.set('cache-control', PRIVATE_CACHE_CONTROL);
      response.headers.set('x-robots-tag', 'noindex');
    }
    if (response !== c.res) {
      c.res = undefined;
      c.res = response;
    }
  };
}
