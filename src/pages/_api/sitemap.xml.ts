import { contentStore } from '../../lib/content';
import { siteOrigin } from '../../lib/site-url';
import { HOME_SLUG } from '../../lib/slug';

function escapeXml(text: string): string {
  return text.replace(/[<>&'"]/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

// Published pages only: listPublished() never reads drafts.
export async function GET(request: Request): Promise<Response> {
  const origin = siteOrigin(request);
  const urls = contentStore()
    .listPublished()
    .map((page) => {
      const path = page.slug === HOME_SLUG ? '/' : `/${page.slug}`;
      const lastmod = page.publishedAt ? `<lastmod>${escapeXml(page.publishedAt)}</lastmod>` : '';
      return `  <url><loc>${escapeXml(origin + path)}</loc>${lastmod}</url>`;
    });
  const body = `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join('\n')}\n</urlset>\n`;
  return new Response(body, {
    headers: {
      'content-type': 'application/xml; charset=utf-8',
      'cache-control': 'public, max-age=0, s-maxage=60, stale-while-revalidate=600',
    },
  });
}

export const getConfig = async () => ({ render: 'dynamic' }) as const;
