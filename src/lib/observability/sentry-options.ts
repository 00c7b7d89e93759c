// Owns the Sentry options of the server SDK: what is collected, what is scrubbed before it
// leaves (share tokens, cookies), and where it goes.
import type { BunOptions } from '@sentry/bun';
import { DEVELOPMENT } from '../waku/development';
import { scrubSecrets } from './scrub';

/** What Folio lets the SDK collect: no cookies (sessions), no bodies (passwords, drafts), no
 * user info (editor emails), and only headers that help debugging. */
export const DATA_COLLECTION: NonNullable<BunOptions['dataCollection']> = {
  userInfo: false,
  cookies: false,
  httpHeaders: {
    request: { allow: ['user-agent', 'accept', 'content-type', 'referer'] },
    response: false,
  },
  httpBodies: [],
  urlQueryParams: false,
};

/** Spotlight's sidecar, where SENTRY_SPOTLIGHT (`1`, or the sidecar's URL) sends, or null. */
export function spotlightSidecarUrl(value: string | undefined): string | null {
  if (!value || value === '0' || value === 'false') return null;
  return value === '1' || value === 'true' ? 'http://localhost:8969/stream' : value;
}

/**
 * The share of requests and page views traced when SENTRY_TRACES_SAMPLE_RATE is not set:
 * every one under `bun run dev`, one in ten when deployed. A traced page view loads the
 * tracing SDK and ends its page-load span in long tasks after load (Lighthouse's slow phone
 * scored a traced `/` 4 to 12 points under the same view not traced), so visitors pay for
 * it; one in ten still gives a small site its Web Vitals (docs/decisions/0009, amendment).
 */
export const DEFAULT_TRACES_SAMPLE_RATE = DEVELOPMENT ? 1 : 0.1;

/** SENTRY_TRACES_SAMPLE_RATE as a number in [0, 1]; unset or unreadable is the default. */
export function tracesSampleRate(value: string | number | undefined): number {
  const rate = value === undefined || value === '' ? Number.NaN : Number(value);
  return Number.isFinite(rate) && rate >= 0 && rate <= 1 ? rate : DEFAULT_TRACES_SAMPLE_RATE;
}

/** Reads SENTRY_DSN, SENTRY_ENVIRONMENT, SENTRY_RELEASE, SENTRY_TRACES_SAMPLE_RATE and
 * SENTRY_SPOTLIGHT (`1`, or the sidecar's URL). */
export type ServerSentryEnv = Record<string, string | undefined>;

export function serverSentryOptions(env: ServerSentryEnv): BunOptions | null {
  const sidecar = spotlightSidecarUrl(env.SENTRY_SPOTLIGHT);
  // No DSN and no Spotlight: the SDK stays off and nothing leaves the machine.
  if (!env.SENTRY_DSN && !sidecar) return null;
  const rate = tracesSampleRate(env.SENTRY_TRACES_SAMPLE_RATE);
  return {
    dsn: env.SENTRY_DSN,
    environment: env.SENTRY_ENVIRONMENT ?? 'production',
    release: env.SENTRY_RELEASE,
    tracesSampleRate: rate,
    dataCollection: DATA_COLLECTION,
    // The referer (kept for debugging) and URLs can carry a share token: none leaves.
    beforeSend: (event) => scrubSecrets(event),
    beforeBreadcrumb: (breadcrumb) => scrubSecrets(breadcrumb),
    spotlight: sidecar ?? false,
    // Spotlight 4.11 shows whole transactions, not streamed spans ("missing root
    // transaction"): for a developer's sidecar, traces are sent whole. The dev server's own
    // module requests (each a request to Vite's server) are not Folio's to trace.
    // Spans are scrubbed as streamed spans, or within their transaction when sent whole.
    ...(sidecar
      ? {
          traceLifecycle: 'static' as const,
          beforeSendTransaction: (event) => scrubSecrets(event),
          ignoreTransactions: [
            /^[A-Z]+ \/(?:src|node_modules|@vite|@fs|@id|@react-refresh)(?:\/|$)/,
          ],
        }
      : { beforeSendSpan: (span) => scrubSecrets(span) }),
  };
}
