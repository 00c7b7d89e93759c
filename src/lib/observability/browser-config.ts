// Owns what the browser is told about monitoring, read at run time from the server's
// environment so one build serves any deployment (docs/decisions/0005).
import 'server-only';
import { getEnv } from '../env';

export function browserMonitoringConfig(): { dsn?: string; environment?: string } {
  const env = getEnv();
  const dsn = env.WAKU_PUBLIC_SENTRY_DSN;
  return dsn ? { dsn, environment: env.SENTRY_ENVIRONMENT ?? 'production' } : {};
}
