// Starts Sentry on the server before Bun.serve is called, so that bunServerIntegration can
// wrap it (one http.server span per request, continuing the browser's sentry-trace/baggage).
// Without SENTRY_DSN (or SENTRY_SPOTLIGHT for local development) nothing is started.
import * as Sentry from '@sentry/bun';
import { serverSentryOptions } from './lib/observability/sentry-options';

const options = serverSentryOptions(process.env);
if (options) Sentry.init(options);

export const sentryEnabled = options !== null;
