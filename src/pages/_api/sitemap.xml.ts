import { contentStore } from '../../lib/content/content';
import { PUBLIC_CACHE_HEADERS } from '../../lib/http/cache-headers';
import { fileCache } from '../../lib/http/file-cache';
import { siteOrigin } from '../../lib/http/site-url';
import { buildSitemap, sitemapPartOf } from '../../lib/http/sitemap';

// The sitemap, or with more pages than one file takes, its index and its files (?page=N):
// sitemap.ts. Published pages only: the store's sitemap reads never see drafts. Built once per
// content version and origin, and a crawler's current copy gets its 304 before any read.
export async function GET(request: Request): Promise<Response> {
  const origin = siteOrigin();
  const part = sitemapPartOf(new URL(request.url));
  // Junk in the parameter shares one key: it cannot fill the cache.
  const key = `sitemap ${origin} ${part ?? 'index'}`;
  return fileCache().serve(
    request,
    key,
    async () => (part === 'invalid' ? null : buildSitemap(contentStore(), origin, part)),
    PUBLIC_CACHE_HEADERS,
    // Only /sitemap.xml itself is there whatever the content; a part may not be.
    { alwaysThere: part === null },
  );
}

export const getConfig = async () => ({ render: 'dynamic' }) as const;
