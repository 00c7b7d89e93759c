// Loaded lazily by client-errors.ts: the Sentry browser SDK with tracing, through the tunnel.
import * as Sentry from '@sentry/react';

export function initSentryBrowser(dsn: string, environment: string | undefined) {
  Sentry.init({
    dsn,
    environment,
    // Same-origin: ad blockers leave it alone, and the server forwards only to its own DSN.
    tunnel: '/monitoring',
    integrations: [Sentry.browserTracingIntegration()],
    tracesSampleRate: 1,
    // Without tracePropagationTargets only same-origin requests (page data, actions) carry
    // sentry-trace and baggage, which is exactly what we want.
    dataCollection: { userInfo: false, cookies: false, httpBodies: [], urlQueryParams: false },
  });
  return (error: unknown, context: Record<string, string>) => {
    const digest = (error as { digest?: unknown } | null)?.digest;
    Sentry.captureException(error, {
      captureContext: {
        tags: { ...context, ...(typeof digest === 'string' && digest ? { digest } : {}) },
      },
    });
  };
}
