// Canonical URLs: 308 for trailing slashes and upper case, 301 for renamed slugs, and an early
// 404 for paths no page could ever have, before Waku's router sees them.
import type { MiddlewareHandler } from 'hono';
import { contentStore } from '../lib/content';
import { canonicalPagePath } from '../lib/slug';

// Paths owned by the framework, static files or API routes: never rewritten here.
const PASS_THROUGH =
  /^\/(?:RSC\/|assets\/|@|node_modules\/|src\/|__)|^\/(?:sitemap\.xml|robots\.txt|healthz|monitoring|favicon\.svg)$/;

export function canonicalUrls(): MiddlewareHandler {
  return async function canonicalUrlsMiddleware(c, next) {
    const method = c.req.method;
    if (method !== 'GET' && method !== 'HEAD') return next();
    const url = new URL(c.req.url);
    const path = url.pathname;
    if (PASS_THROUGH.test(path)) return next();
    if (/^\/preview(?:\/|$)/i.test(path)) {
      // Preview mirrors the public paths: same trailing-slash and case rules.
      const canonical = path.length > 1 ? path.replace(/\/+$/, '').toLowerCase() : path;
      if (canonical !== path) return c.redirect(canonical + url.search, 308);
      return next();
    }
    const verdict = canonicalPagePath(path);
    if (verdict.kind === 'redirect') return c.redirect(verdict.location + url.search, 308);
    if (verdict.kind === 'not-found') return next();
    if (path !== '/') {
      const current = contentStore().findRedirect(path.slice(1));
      if (current) return c.redirect(`/${current}${url.search}`, 301);
    }
    return next();
  };
}
