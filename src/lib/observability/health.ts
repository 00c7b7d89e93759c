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
  state: 'ok' | 'catching up' | 'database unavailable' | 'database full';
  /** The version of the content this instance serves, or null while it is still starting. */
  contentVersion: number | null;
};

export async function checkHealth(): Promise<Health> {
  const database = await checkDatabase();
  const reachable = database !== 'unavailable';
  if (!reachable) suspectContentVersion();
  // Reads still work on a full disk, but no save does: the load balancer and the operator
  // hear it (503) until a write succeeds again.
  if (database === 'full') return { state: 'database full', contentVersion: servedVersion() };
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
