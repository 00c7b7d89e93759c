import { NO_STORE } from '../../lib/http/cache-headers';
import { checkHealth } from '../../lib/observability/health';

// 200 when the database answers a query and this instance hears the other instances'
// publishes; 503 otherwise, so a load balancer keeps visitors off an instance whose cached
// pages could fall behind (src/lib/observability/health.ts). Never cached.
// `x-folio-content-version` says which version of the content this instance serves, so an
// operator (or a test) can see that instances agree after a publish; it is a count of
// publishes, nothing a visitor could not learn by watching the site.
export async function GET(): Promise<Response> {
  const health = await checkHealth();
  const headers = new Headers({
    'content-type': 'text/plain; charset=utf-8',
    'cache-control': NO_STORE,
  });
  if (health.contentVersion !== null)
    headers.set('x-folio-content-version', String(health.contentVersion));
  return new Response(`${health.state === 'ok' ? 'ok' : health.state}\n`, {
    status: health.state === 'ok' ? 200 : 503,
    headers,
  });
}

export const getConfig = async () => ({ render: 'dynamic' }) as const;
