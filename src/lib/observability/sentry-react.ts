// Loaded lazily by client-errors.ts: Sentry's React SDK, talking to our same-origin tunnel.
// Integrations are chosen one by one rather than taking the defaults: global error handlers
// belong to client-errors.ts (it catches errors before this module has loaded), and tracing
// is a chunk of its own that only sampled page views download.
import {
  dedupeIntegration,
  eventFiltersIntegration,
  functionToStringIntegration,
  httpContextIntegration,
  init,
  linkedErrorsIntegration,
  reactErrorHandler,
  spotlightBrowserIntegration,
  withScope,
} from '@sentry/react';
import type { ClientErrorContext } from './client-errors';
import { scrubSecrets } from './scrub';

/** Where Spotlight alone is set (no DSN): events are made, handed to Spotlight, sent nowhere. */
const SPOTLIGHT_ONLY_DSN = 'http://spotlight@localhost/0';
const sendNothing = () => ({
  send: async () => ({}),
  flush: async () => true,
});

export async function initSentryReact(
  dsn: string | undefined,
  environment: string | undefined,
  { tracing, spotlight }: { tracing: boolean; spotlight?: string | undefined },
) {
  const integrations = [
    eventFiltersIntegration(),
    functionToStringIntegration(),
    // Carries a React error's component stack (a linked error made by reactErrorHandler).
    linkedErrorsIntegration(),
    dedupeIntegration(),
    httpContextIntegration(),
    ...(tracing ? (await import('./sentry-tracing')).tracingIntegrations() : []),
    // `bun run dev` with SENTRY_SPOTLIGHT: every envelope also goes to the sidecar.
    ...(spotlight ? [spotlightBrowserIntegration({ sidecarUrl: spotlight })] : []),
  ];
  init({
    dsn: dsn ?? SPOTLIGHT_ONLY_DSN,
    // Spotlight 4.11 shows whole transactions, not streamed spans.
    ...(spotlight ? { traceLifecycle: 'static' as const } : {}),
    ...(dsn ? {} : { transport: sendNothing }),
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
    // A share link's token (in the page's URL, a message, a span's attributes) and Folio's
    // cookies never leave the browser, as on the server (scrub.ts; hostile pass).
    beforeSend: (event) => scrubSecrets(event),
    beforeBreadcrumb: (breadcrumb) => scrubSecrets(breadcrumb),
    ...(spotlight
      ? { beforeSendTransaction: (event) => scrubSecrets(event) }
      : { beforeSendSpan: (span) => scrubSecrets(span) }),
  });
  // React's root callbacks and the fallback boundary hand over their component stack: those
  // errors go through the SDK's React error handler; errors outside React (event handlers,
  // timers, promises) are plain exceptions.
  const reactError = reactErrorHandler();
  return (error: unknown, { componentStack, ...tags }: ClientErrorContext) => {
    const digest = (error as { digest?: unknown } | null)?.digest;
    withScope((scope) => {
      scope.setTags({ ...tags, ...(typeof digest === 'string' && digest ? { digest } : {}) });
      if (componentStack !== undefined) reactError(error, { componentStack });
      else scope.captureException(error);
    });
  };
}
