// Owns what "healthy" means for a load balancer: the database answers a query and this
// instance hears the other instances' publishes (on PostgreSQL, its LISTEN connection is back
// after an outage). The healthz route only turns this into a response.
import 'server-only';
import {
  contentVersionInStep,
  currentContentVersion,
  suspectContentVersion,
} from '../data/content-version';
import { checkDatabase } from '../data/db';

export type Health = {
  state: 'ok' | 'catching up' | 'database unavailable';
  /** The version of the content this instance serves, or null while it is still starting. */
  contentVersion: number | null;
};

export async function checkHealth(): Promise<Health> {
  const reachable = await checkDatabase();
  if (!reachable) suspectContentVersion();
  const inStep = reachable && (await contentVersionInStep());
  return {
    state: inStep ? 'ok' : reachable ? 'catching up' : 'database unavailable',
    contentVersion: servedVersion(),
  };
}

function servedVersion(): number | null {
  try {
    return currentContentVersion();
  } catch {
    // Not followed yet (still starting): nothing to report.
    return null;
  }
}
