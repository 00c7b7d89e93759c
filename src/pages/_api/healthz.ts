import { checkDatabase } from '../../lib/db';

// 200 when the database answers a query, 503 when it does not; never cached.
export async function GET(): Promise<Response> {
  const ok = checkDatabase();
  return new Response(ok ? 'ok\n' : 'database unavailable\n', {
    status: ok ? 200 : 503,
    headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' },
  });
}

export const getConfig = async () => ({ render: 'dynamic' }) as const;
