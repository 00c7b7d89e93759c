import {
  contentVersionInStep,
  currentContentVersion,
  suspectContentVersion,
} from '../../lib/data/content-version';
import { checkDatabase } from '../../lib/data/db';
import { NO_STORE } from '../../lib/http/cache-headers';

// 200 when the database answers a query and this instance hears the other instances'
// publishes (on PostgreSQL, its LISTEN connection is back after an outage); 503 otherwise, so
// a load balancer keeps visitors off an instance whose cached pages could fall behind. Never
// cached. `x-folio-content-version` says which version of the content this instance serves,
// so an operator (or a test) can see that instances agree after a publish; it is a count of
// publishes, nothing a visitor could not learn by watching the site.
export async function GET(): Promise<Response> {
  const reachable = await checkDatabase();
  if (!reachable) suspectContentVersion();
  const ok = reachable && (await contentVersionInStep());
  const headers = new Headers({
    'content-type': 'text/plain; charset=utf-8',
    'cache-control': NO_STORE,
  });
  const version = servedVersion();
  if (version !== null) headers.set('x-folio-content-version', String(version));
  return new Response(ok ? 'ok\n' : reachable ? 'catching up\n' : 'database unavailable\n', {
    status: ok ? 200 : 503,
    headers,
  });
}

function servedVersion(): number | null {
  try {
    return currentContentVersion();
  } catch {
    // Not followed yet (still starting): nothing to report.
    return null;
  }
}

export const getConfig = async () => ({ render: 'dynamic' }) as const;
