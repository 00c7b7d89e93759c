// Owns what the browser is told about monitoring, read at run time from the server's
// environment so one build serves any deployment (docs/decisions/0005).
import 'server-only';
import { getEnv } from '../runtime/env';
import { DEVELOPMENT } from '../waku/development';
import { spotlightSidecarUrl, tracesSampleRate } from './sentry-options';

export function browserMonitoringConfig(): {
  dsn?: string;
  environment?: string;
  tracesSampleRate?: string;
  spotlight?: string;
} {
  const env = getEnv();
  const dsn = env.WAKU_PUBLIC_SENTRY_DSN;
  const spotlight = developmentSidecar();
  if (!dsn && !spotlight) return {};
  return {
    dsn,
    environment: env.SENTRY_ENVIRONMENT ?? (DEVELOPMENT ? 'development' : 'production'),
    // The same rate as the server's, the same default (sentry-options.ts).
    tracesSampleRate: String(tracesSampleRate(env.SENTRY_TRACES_SAMPLE_RATE)),
    ...(spotlight ? { spotlight } : {}),
  };
}

/** The sidecar's origin the page may send to (the CSP's connect-src), in development only. */
export function spotlightOrigin(): string | null {
  const spotlight = developmentSidecar();
  return spotlight ? new URL(spotlight).origin : null;
}

/** Spotlight is for `bun run dev` only: a deployed page never names a sidecar. */
function developmentSidecar(): string | null {
  return DEVELOPMENT ? spotlightSidecarUrl(getEnv().SENTRY_SPOTLIGHT) : null;
}
