import { contentStore } from '../../lib/content/content';
import { PUBLIC_CACHE_HEADERS } from '../../lib/http/cache-headers';
import { HOME_SLUG } from '../../lib/http/routes';
import { siteOrigin } from '../../lib/http/site-url';
import { escapeXml } from '../../lib/http/xml';

// Published pages only: listPublished() never reads drafts.
export async function GET(): Promise<Response> {
  const origin = siteOrigin();
  const urls = (await contentStore().listPublished()).map((page) => {
    const path = page.slug === HOME_SLUG ? '/' : `/${page.slug}`;
    const lastmod = page.publishedAt ? `<lastmod>${escapeXml(page.publishedAt)}</lastmod>` : '';
    return `  <url><loc>${escapeXml(origin + path)}</loc>${lastmod}</url>`;
  });
  const body = `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join('\n')}\n</urlset>\n`;
  return new Response(body, {
    headers: {
      'content-type': 'application/xml; charset=utf-8',
      ...PUBLIC_CACHE_HEADERS,
    },
  });
}

export const getConfig = async () => ({ render: 'dynamic' }) as const;
