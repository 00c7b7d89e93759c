// Owns the site's public origin: SITE_URL when configured, else the origin of the request.
import 'server-only';
import { unstable_getRequest as getRequest } from 'waku/router/server';
import { getEnv } from './env';

/** The origin a visitor should see in canonical URLs, sitemaps and share links. */
export function siteOrigin(request?: Request): string {
  const configured = getEnv().SITE_URL;
  if (configured) return configured.replace(/\/+$/, '');
  const req = request ?? getRequest();
  return new URL(req.url).origin;
}

export function siteUrlFor(path: string): string {
  return `${siteOrigin()}${path}`;
}
