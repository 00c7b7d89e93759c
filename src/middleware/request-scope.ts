// Applies what pages and actions asked of the response (cookies, status, privacy), and makes
// every preview, signed-in or action response private: `no-store` and `noindex`.
import type { MiddlewareHandler } from 'hono';
import { EDITOR_SESSION_COOKIE } from '../lib/editor-session';
import { type RequestScope, requestScopeStorage } from '../lib/request-scope';

const PREVIEW_PATH = /^\/(?:RSC\/R\/)?preview(?:[/.]|$)/;

export function requestScope(): MiddlewareHandler {
  return async function requestScopeMiddleware(c, next) {
    const url = new URL(c.req.url);
    const cookieHeader = c.req.header('cookie') ?? '';
    const scope: RequestScope = {
      cookies: [],
      isPrivate:
        PREVIEW_PATH.test(url.pathname) ||
        c.req.method !== 'GET' ||
        cookieHeader.includes(`${EDITOR_SESSION_COOKIE}=`),
    };
    await requestScopeStorage.run(scope, () => next());
    let response = c.res;
    if (scope.status && response.status === 200 && !url.pathname.startsWith('/RSC/')) {
      response = new Response(response.body, { status: scope.status, headers: response.headers });
    }
    for (const cookie of scope.cookies) response.headers.append('set-cookie', cookie);
    if (scope.isPrivate) {
      response.headers.set('cache-control', 'private, no-store');
      response.headers.set('x-robots-tag', 'noindex');
    }
    if (response !== c.res) {
      c.res = undefined;
      c.res = response;
    }
  };
}
