// Owns the server SDK's life: started by the production entry before Bun.serve is called (so
// bunServerIntegration wraps it: one http.server span per request, continuing the browser's
// trace), flushed and closed at shutdown. Without SENTRY_DSN (or SENTRY_SPOTLIGHT) it stays
// off and nothing leaves the machine.
import 'server-only';
import * as Sentry from '@sentry/bun';
import { serverSentryOptions } from './sentry-options';
import { traceWith } from './spans';

export function startServerMonitoring(env: Record<string, string | undefined> = process.env) {
  if (Sentry.isInitialized()) return true;
  const options = serverSentryOptions(env);
  if (!options) return false;
  Sentry.init(options);
  traceWith(Sentry.startSpan);
  return true;
}

export async function stopServerMonitoring(timeoutMs = 2000): Promise<void> {
  if (Sentry.isInitialized()) await Sentry.close(timeoutMs);
}
