// Owns the browser side of navigation: the prefetch queue wired to Waku's router, and the
// rules that turn a failed or slow page-data request into a full page load of the target.
import {
  unstable_decodeRoutePath as decodeRoutePath,
  unstable_encodeRoutePath as encodeRoutePath,
} from 'waku/router/client-core';
import { isPreviewPath } from '../http/routes';
import { leavePageError } from '../waku/internals';
import { ROUTE_LOAD_TIMEOUT_MS } from './constants';
import {
  createPrefetchQueue,
  type PrefetchQueue,
  type RouteKind,
  staleTimeOf,
} from './prefetch-queue';

type RouterPrefetch = (to: `/${string}`, options?: { ttl?: number }) => void;

let routerPrefetch: RouterPrefetch | null = null;
let queue: PrefetchQueue | null = null;
/** Prefetches waiting for their own task, by route: cancelling one also settles it, as failed. */
const scheduledPrefetches = new Map<string, () => void>();
/** Route requests started by our prefetches: their failure must not navigate anywhere. */
const pendingPrefetches = new Map<string, () => void>();

export function setRouterPrefetch(prefetch: RouterPrefetch): void {
  routerPrefetch = prefetch;
}

export function routeKindOf(path: string): RouteKind {
  return isPreviewPath(path) ? 'dynamic' : 'static';
}

export function prefetchQueue(): PrefetchQueue {
  queue ??= createPrefetchQueue({
    fetchRoute: (target) =>
      new Promise<void>((resolve, reject) => {
        const rscPath = encodeRoutePath(target.path);
        // Each prefetch starts in a task of its own: starting one costs a few milliseconds of
        // script, and the links that come into view together (every link on the page, right
        // after hydration) made one long task of them on a slow phone. A navigation to the
        // route before then makes the request itself, and the prefetch is dropped
        // (navigationStarting): started after it, it was a second request for the same page.
        const start = setTimeout(() => {
          scheduledPrefetches.delete(rscPath);
          // A link that came into view as it was clicked (during hydration, say) is queued
          // after its navigation started: that navigation's request is the one to wait for.
          if (navigationInProgress(rscPath)) {
            reject(new Error('a navigation made the request'));
            return;
          }
          pendingPrefetches.set(rscPath, resolve);
          routerPrefetch?.(target.path as `/${string}`, { ttl: staleTimeOf(target.kind) });
          // Waku makes no request when it already holds the route: don't wait for one.
          setTimeout(() => {
            if (pendingPrefetches.get(rscPath) === resolve && !startedPrefetches.has(rscPath)) {
              pendingPrefetches.delete(rscPath);
              resolve();
            }
          }, 50);
        }, 0);
        // Not fetched by us, so not fresh: the queue may prefetch it again later.
        scheduledPrefetches.set(rscPath, () => {
          clearTimeout(start);
          reject(new Error('a navigation made the request'));
        });
      }),
  });
  return queue;
}

const startedPrefetches = new Set<string>();

/** Claims a route request as one of our prefetches; returns its completion callback. */
export function claimPrefetch(rscPath: string): (() => void) | null {
  const done = pendingPrefetches.get(rscPath);
  if (!done) return null;
  pendingPrefetches.delete(rscPath);
  startedPrefetches.add(rscPath);
  return () => {
    startedPrefetches.delete(rscPath);
    done();
  };
}

/**
 * A navigation to a route whose prefetch is still in flight adopts that request instead of
 * making its own (Waku's router cache), so the request's own timer was never started. The
 * prefetch registers here; a navigation starting to its route starts the timer.
 */
const navigationWatchers = new Map<string, Set<() => void>>();

export function watchForNavigation(rscPath: string, onNavigation: () => void): () => void {
  let watchers = navigationWatchers.get(rscPath);
  if (!watchers) {
    watchers = new Set();
    navigationWatchers.set(rscPath, watchers);
  }
  watchers.add(onNavigation);
  return () => {
    watchers.delete(onNavigation);
    if (watchers.size === 0 && navigationWatchers.get(rscPath) === watchers)
      navigationWatchers.delete(rscPath);
  };
}

/** When the latest client navigation to each route started. */
const navigationsStarted = new Map<string, number>();

/** A navigation to the route started and has not yet arrived or given up (the deadline). */
function navigationInProgress(rscPath: string): boolean {
  const startedAt = navigationsStarted.get(rscPath);
  if (startedAt === undefined) return false;
  if (Date.now() - startedAt < ROUTE_LOAD_TIMEOUT_MS) return true;
  navigationsStarted.delete(rscPath);
  return false;
}

/** A client navigation to `href` is starting (a link click, Back/Forward). */
export function navigationStarting(href: string): void {
  const rscPath = encodeRoutePath(new URL(href, window.location.href).pathname);
  navigationsStarted.set(rscPath, Date.now());
  const scheduled = scheduledPrefetches.get(rscPath);
  if (scheduled) {
    scheduledPrefetches.delete(rscPath);
    scheduled();
  }
  for (const onNavigation of navigationWatchers.get(rscPath) ?? []) onNavigation();
}

/** The address a route request is for, as the browser would show it. */
export function targetUrlOf(rscPath: string, rscParams: unknown): string {
  const query = rscParams instanceof URLSearchParams ? (rscParams.get('query') ?? '') : '';
  // A full page load must stay on this site: `//evil.example` (a path Waku's router was
  // given) would be another site to the browser (hostile pass).
  const path = decodeRoutePath(rscPath).replace(/^[/\\]+/, '/');
  return `${path}${query ? `?${query}` : ''}`;
}

/** Waku's "leave" error: the router pushes the URL and loads it as a full page. */
export const leaveFor = leavePageError;
