// Owns the site's public origin as pages and actions see it: SITE_URL when configured, else the
// origin of the request being answered (the front door puts it in the request context).
import 'server-only';
import { getEnv } from '../runtime/env';
import { currentRequestContext } from './request-context';

/** The origin for links made for one request (share links, redirects, the sitemap). */
export function siteOrigin(): string {
  return (
    currentRequestContext()?.origin ?? getEnv().SITE_URL ?? `http://localhost:${getEnv().PORT}`
  );
}

/**
 * Where a public page lives, for its canonical link and Open Graph URL. Public pages are cached
 * and shared by every host the server answers to, so they name a host only when SITE_URL says
 * which: without it the link is the path (a relative canonical link is valid, RFC 6596), and
 * `absolute` is false.
 */
export function publicPageUrl(path: string): { href: string; absolute: boolean } {
  const configured = getEnv().SITE_URL;
  return configured
    ? { href: `${configured}${path}`, absolute: true }
    : { href: path, absolute: false };
}
