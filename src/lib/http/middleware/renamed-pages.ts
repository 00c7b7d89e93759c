// Renamed pages: a full load of a slug a page once had answers 301 to the page's current slug
// — unless a page holds that slug now, which wins. Caches are told to check again each time
// (no-cache): a rename can be undone, and a remembered 301 would then loop.
import type { MiddlewareHandler } from 'hono';
import { contentStore } from '../../content/content';
import { REVALIDATE_EACH_TIME } from '../cache-headers';
import { requestContext } from '../request-context';
import { HOME_SLUG } from '../routes';

export function renamedPages(): MiddlewareHandler {
  return async function renamedPagesMiddleware(c, next) {
    const { route, url } = requestContext();
    const method = c.req.method;
    if (
      route.kind !== 'page' ||
      route.slug === HOME_SLUG ||
      (method !== 'GET' && method !== 'HEAD')
    )
      return next();
    const current = await contentStore().findRedirect(route.slug ?? '');
    if (!current) return next();
    return new Response(null, {
      status: 301,
      headers: { location: `/${current}${url.search}`, 'cache-control': REVALIDATE_EACH_TIME },
    });
  };
}
