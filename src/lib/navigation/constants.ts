// Owns the delivery runtime's timings, with the names and values of the original spec (§9).

/** A navigation whose page data has not arrived by then becomes a full page load. */
export const ROUTE_LOAD_TIMEOUT_MS = 3800;
/** How long a prefetched static route (published pages, home) is reused. */
export const STATIC_PREFETCH_STALE_TIME_MS = 300_000;
/** A dynamic route's prefetch is stale at once: never reused (and so not worth making). */
export const DYNAMIC_PREFETCH_STALE_TIME_MS = 0;
/** Prefetches in flight at once; the rest wait in a queue. */
export const PREFETCH_CONCURRENCY = 5;
/** Links prefetch when they come this close to the viewport. */
export const LINK_VISIBILITY_MARGIN_PX = 200;
