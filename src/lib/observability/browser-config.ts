// Owns what the browser is told about monitoring, read at run time from the server's
// environment so one build serves any deployment (docs/decisions/0005).
import 'server-only';
import { DEVELOPMENT } from '../development';
import { getEnv } from '../env';
import { spotlightSidecarUrl } from './sentry-options';

export function browserMonitoringConfig(): {
  dsn?: string;
  environment?: string;
  tracesSampleRate?: string;
  spotlight?: string;
} {
  const env = getEnv();
  const dsn = env.WAKU_PUBLIC_SENTRY_DSN;
  // Spotlight is for `bun run dev` only: a deployed page never names a sidecar.
  const spotlight = DEVELOPMENT ? spotlightSidecarUrl(env.SENTRY_SPOTLIGHT) : null;
  if (!dsn && !spotlight) return {};
  return {
    dsn,
    environment: env.SENTRY_ENVIRONMENT ?? (DEVELOPMENT ? 'development' : 'production'),
    // The same rate as the server's (sentry-options.ts): unset means every page view.
    tracesSampleRate: String(env.SENTRY_TRACES_SAMPLE_RATE ?? 1),
    ...(spotlight ? { spotlight } : {}),
  };
}

/** The sidecar's origin the page may send to (the CSP's connect-src), in development only. */
export function spotlightOrigin(): string | null {
  const spotlight = DEVELOPMENT ? spotlightSidecarUrl(getEnv().SENTRY_SPOTLIGHT) : null;
  return spotlight ? new URL(spotlight).origin : null;
}
