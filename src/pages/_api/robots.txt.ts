import { siteOrigin } from '../../lib/site-url';

export async function GET(request: Request): Promise<Response> {
  const body = [
    'User-agent: *',
    'Disallow: /preview',
    'Disallow: /RSC/',
    '',
    `Sitemap: ${siteOrigin(request)}/sitemap.xml`,
    '',
  ].join('\n');
  return new Response(body, {
    headers: {
      'content-type': 'text/plain; charset=utf-8',
      'cache-control': 'public, max-age=0, s-maxage=60, stale-while-revalidate=600',
    },
  });
}

export const getConfig = async () => ({ render: 'dynamic' }) as const;
