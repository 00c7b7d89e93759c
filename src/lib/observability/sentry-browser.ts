// Loaded lazily by client-errors.ts: the Sentry browser SDK, talking to our same-origin tunnel.
// Integrations are chosen one by one rather than taking the defaults: global error handlers
// belong to client-errors.ts (it catches errors before this module has loaded), and tracing
// is a chunk of its own that only sampled page views download.
import {
  captureException,
  dedupeIntegration,
  eventFiltersIntegration,
  functionToStringIntegration,
  httpContextIntegration,
  init,
  linkedErrorsIntegration,
} from '@sentry/browser';

export async function initSentryBrowser(
  dsn: string,
  environment: string | undefined,
  { tracing }: { tracing: boolean },
) {
  const integrations = [
    eventFiltersIntegration(),
    functionToStringIntegration(),
    linkedErrorsIntegration(),
    dedupeIntegration(),
    httpContextIntegration(),
    ...(tracing ? (await import('./sentry-tracing')).tracingIntegrations() : []),
  ];
  init({
    dsn,
    environment,
    // Same-origin: ad blockers leave it alone, and the server forwards only to its own DSN.
    tunnel: '/monitoring',
    defaultIntegrations: false,
    integrations,
    // The sampling decision was made for this page view before loading (client-errors.ts).
    ...(tracing ? { tracesSampleRate: 1 } : {}),
    // Without tracePropagationTargets only same-origin requests (page data, actions) carry
    // sentry-trace and baggage, which is exactly what we want.
    dataCollection: { userInfo: false, cookies: false, httpBodies: [], urlQueryParams: false },
  });
  return (error: unknown, context: Record<string, string>) => {
    const digest = (error as { digest?: unknown } | null)?.digest;
    captureException(error, {
      captureContext: {
        tags: { ...context, ...(typeof digest === 'string' && digest ? { digest } : {}) },
      },
    });
  };
}
