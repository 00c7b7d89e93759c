// Editors' redirects (issue 27, redirects.ts): a full load of an address an editor redirected
// answers 301 or 302 to where they chose — unless a page is published there now, which wins.
// Any address may be redirected, a page's (`/old-post`) or one no page could have
// (`/2019/05/old-post`, an earlier site's); Folio's own addresses never reach here. Like a
// renamed page's, the answer tells caches to check again each time: a redirect can be removed.
import type { MiddlewareHandler } from 'hono';
import { contentStore } from '../../content/content';
import { REVALIDATE_EACH_TIME } from '../cache-headers';
import { requestContext } from '../request-context';
import { HOME_SLUG } from '../routes';

export function siteRedirects(): MiddlewareHandler {
  return async function siteRedirectsMiddleware(c, next) {
    const { route, url } = requestContext();
    const method = c.req.method;
    if (
      (route.kind !== 'page' && route.kind !== 'other') ||
      route.slug === HOME_SLUG ||
      (method !== 'GET' && method !== 'HEAD')
    )
      return next();
    const found = await contentStore().findSiteRedirect(url.pathname);
    if (!found) return next();
    // An address on this site keeps the query (a campaign's parameters); another site's is
    // sent as the editor wrote it.
    const location = found.location.startsWith('/')
      ? `${found.location}${url.search}`
      : found.location;
    return new Response(null, {
      status: found.status,
      headers: { location, 'cache-control': REVALIDATE_EACH_TIME },
    });
  };
}
