// Owns re-rendering the route an action came from. Waku's rerenderRoute() with no path reads
// the route from the call's X-Waku-Action-Location header and throws when that header is
// missing or unreadable ("The route this action came from is unknown") — after the action's
// change is committed, so the caller would get a 500 for a save that happened. A call without
// a readable location (a script, a forged header) simply gets no re-render. The rules below are
// Waku 1.0.0-rc.1's own (parseActionOrigin in its request handler): review them on an upgrade.
import 'server-only';
import { unstable_rerenderRoute as rerenderRoute } from 'waku/router/server';
import { currentRequestContext } from '../http/request-context';

/** The header Waku's router sends with a JavaScript action call: the page it was made on. */
export const ACTION_LOCATION_HEADER = 'x-waku-action-location';

/** Whether Waku can read `location` as a route of this site (an address, never another's). */
export function isReadableActionLocation(location: string | null, requestUrl: string): boolean {
  if (!location?.startsWith('/') || location.includes('#')) return false;
  try {
    return new URL(location, requestUrl).origin === new URL(requestUrl).origin;
  } catch {
    return false;
  }
}

/**
 * Re-renders the page the action was called from, when the call says which one it was; a call
 * that does not (or says it unreadably) gets its answer without one.
 */
export function rerenderActionRoute(): void {
  const request = currentRequestContext()?.request;
  if (!request) return;
  if (!isReadableActionLocation(request.headers.get(ACTION_LOCATION_HEADER), request.url)) return;
  rerenderRoute();
}
