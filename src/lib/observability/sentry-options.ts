// Owns the Sentry options of the server SDK: what is collected, what is scrubbed before it
// leaves (share tokens, cookies), and where it goes.
import type { BunOptions } from '@sentry/bun';
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

/** Reads SENTRY_DSN, SENTRY_ENVIRONMENT, SENTRY_RELEASE, SENTRY_TRACES_SAMPLE_RATE and
 * SENTRY_SPOTLIGHT (`1`, or the sidecar's URL). */
export type ServerSentryEnv = Record<string, string | undefined>;

export function serverSentryOptions(env: ServerSentryEnv): BunOptions | null {
  const spotlight = env.SENTRY_SPOTLIGHT;
  // No DSN and no Spotlight: the SDK stays off and nothing leaves the machine.
  if (!env.SENTRY_DSN && !spotlight) return null;
  const rate =
    env.SENTRY_TRACES_SAMPLE_RATE === undefined ? 1 : Number(env.SENTRY_TRACES_SAMPLE_RATE);
  return {
    dsn: env.SENTRY_DSN,
    environment: env.SENTRY_ENVIRONMENT ?? 'production',
    release: env.SENTRY_RELEASE,
    tracesSampleRate: Number.isFinite(rate) ? rate : 1,
    dataCollection: DATA_COLLECTION,
    // The referer (kept for debugging) and URLs can carry a share token: none leaves.
    beforeSend: (event) => scrubSecrets(event),
    beforeSendTransaction: (event) => scrubSecrets(event),
    beforeSendSpan: (span) => scrubSecrets(span),
    beforeBreadcrumb: (breadcrumb) => scrubSecrets(breadcrumb),
    spotlight: spotlight ? (spotlight === '1' || spotlight === 'true' ? true : spotlight) : false,
  };
}
