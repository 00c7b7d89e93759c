// Owns when page data is prefetched: at most PREFETCH_CONCURRENCY at once, first come first
// served (hover or focus jumps the line), dropped when the link leaves the viewport before its
// turn, and never fetched again while fresh. Framework-free, with an injectable clock.
import {
  DYNAMIC_PREFETCH_STALE_TIME_MS,
  PREFETCH_CONCURRENCY,
  STATIC_PREFETCH_STALE_TIME_MS,
} from './constants';

export type RouteKind = 'static' | 'dynamic';
export type PrefetchTarget = { path: string; kind: RouteKind };

export function staleTimeOf(kind: RouteKind): number {
  return kind === 'static' ? STATIC_PREFETCH_STALE_TIME_MS : DYNAMIC_PREFETCH_STALE_TIME_MS;
}

export function createPrefetchQueue({
  fetchRoute,
  now = () => Date.now(),
  concurrency = PREFETCH_CONCURRENCY,
}: {
  fetchRoute: (target: PrefetchTarget) => Promise<unknown>;
  now?: () => number;
  concurrency?: number;
}) {
  const waiting: PrefetchTarget[] = [];
  const inFlight = new Set<string>();
  const fetchedAt = new Map<string, number>();

  function isFresh(target: PrefetchTarget, at = now()): boolean {
    const when = fetchedAt.get(target.path);
    return when !== undefined && at - when < staleTimeOf(target.kind);
  }

  function pump() {
    while (inFlight.size < concurrency && waiting.length > 0) {
      const target = waiting.shift() as PrefetchTarget;
      if (inFlight.has(target.path) || isFresh(target)) continue;
      inFlight.add(target.path);
      // Freshness counts from the request's start, as Waku's prefetch cache counts its ttl.
      const startedAt = now();
      fetchRoute(target)
        .then(
          () => fetchedAt.set(target.path, startedAt),
          () => undefined, // a failed prefetch is simply not fresh; navigation fetches again
        )
        .finally(() => {
          inFlight.delete(target.path);
          pump();
        });
    }
  }

  return {
    /** A link came into view: queue its target unless it is fresh, queued or in flight. */
    enqueue(target: PrefetchTarget) {
      // A dynamic route's prefetch could never be reused: don't make it.
      if (staleTimeOf(target.kind) === 0) return;
      if (isFresh(target) || inFlight.has(target.path)) return;
      if (waiting.some((queued) => queued.path === target.path)) return;
      waiting.push(target);
      pump();
    },
    /** The link left the viewport before its turn. */
    cancel(path: string) {
      const index = waiting.findIndex((queued) => queued.path === path);
      if (index !== -1) waiting.splice(index, 1);
    },
    /** Hover or focus: the visitor is likely to go there next. */
    prioritise(target: PrefetchTarget) {
      if (staleTimeOf(target.kind) === 0 || isFresh(target) || inFlight.has(target.path)) return;
      const index = waiting.findIndex((queued) => queued.path === target.path);
      if (index !== -1) waiting.splice(index, 1);
      waiting.unshift(target);
      pump();
    },
    isFresh,
    get inFlightCount() {
      return inFlight.size;
    },
    get waitingPaths() {
      return waiting.map((target) => target.path);
    },
  };
}

export type PrefetchQueue = ReturnType<typeof createPrefetchQueue>;
