import { PUBLIC_CACHE_HEADERS } from '../../lib/http/cache-headers';
import { siteOrigin } from '../../lib/http/site-url';
import { RSC_PREFIX } from '../../lib/waku/internals';

export async function GET(): Promise<Response> {
  const body = [
    'User-agent: *',
    'Disallow: /preview',
    `Disallow: ${RSC_PREFIX}`,
    '',
    `Sitemap: ${siteOrigin()}/sitemap.xml`,
    '',
  ].join('\n');
  return new Response(body, {
    headers: {
      'content-type': 'text/plain; charset=utf-8',
      ...PUBLIC_CACHE_HEADERS,
    },
  });
}

export const getConfig = async () => ({ render: 'dynamic' }) as const;
