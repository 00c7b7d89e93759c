// Owns what the browser is told about monitoring, read at run time from the server's
// environment so one build serves any deployment (docs/decisions/0005).
import 'server-only';
import { getEnv } from '../env';

export function browserMonitoringConfig(): {
  dsn?: string;
  environment?: string;
  tracesSampleRate?: string;
} {
  const env = getEnv();
  const dsn = env.WAKU_PUBLIC_SENTRY_DSN;
  if (!dsn) return {};
  return {
    dsn,
    environment: env.SENTRY_ENVIRONMENT ?? 'production',
    // The same rate as the server's (sentry-options.ts): unset means every page view.
    tracesSampleRate: String(env.SENTRY_TRACES_SAMPLE_RATE ?? 1),
  };
}
