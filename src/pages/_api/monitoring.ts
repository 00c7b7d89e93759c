import { handleTunnelRequest } from '@sentry/core';
import { log } from '../../lib/observability/log';
import { getEnv } from '../../lib/runtime/env';

const MAX_ENVELOPE_BYTES = 1024 * 1024;

// The browser SDK's same-origin tunnel: forwards an envelope only when it names the DSN this
// deployment gave the browser (any other → 403, garbage → 400). Off without a DSN (404).
export async function POST(request: Request): Promise<Response> {
  const dsn = getEnv().WAKU_PUBLIC_SENTRY_DSN;
  if (!dsn) return new Response('Not found\n', { status: 404 });
  const length = Number(request.headers.get('content-length') ?? 0);
  if (length > MAX_ENVELOPE_BYTES) return new Response('Envelope too large\n', { status: 413 });
  const response = await handleTunnelRequest({ request, allowedDsns: [dsn] });
  if (response.status >= 500) {
    // Sentry itself is unreachable: telling the browser changes nothing, and reporting it to
    // Sentry cannot work. Log it and let the browser move on.
    log.warn('sentry tunnel could not forward an envelope', { status: response.status });
    return new Response(null, { status: 202 });
  }
  return new Response(response.body, { status: response.status });
}

export const getConfig = async () => ({ render: 'dynamic' }) as const;
