'use client';
import { useLayoutEffect } from 'react';
import { useRegisterRscEnhancer_UNSTABLE as useRegisterRscEnhancer } from 'waku/minimal/client';
import { useRouter } from 'waku/router/client';
import { unstable_isFollowable as isFollowable } from 'waku/router/client-core';
import {
  PAGE_DATA_FLAG,
  PAGE_DATA_HEADER,
  pageAddressOfPageData,
  pageDataForRouter,
} from '../lib/http/page-data-address';
import {
  claimPrefetch,
  leaveFor,
  navigationStarting,
  setRouterPrefetch,
  targetUrlOf,
  watchForNavigation,
} from '../lib/navigation/client-runtime';
import { ROUTE_LOAD_TIMEOUT_MS } from '../lib/navigation/constants';
import { buildId, isRouteRscPath } from '../lib/waku/internals';

/**
 * Rendered once in the root. Every page-data request of a navigation races ROUTE_LOAD_TIMEOUT_MS;
 * a timeout, a network error, a 5xx or a payload that does not parse becomes a full page load of
 * the target (never a blank page, never a new URL over old content). A prefetch gets the same
 * deadline once a navigation adopts it; until then its failure only drops it from Waku's cache.
 */
export function NavigationRuntime() {
  const register = useRegisterRscEnhancer();
  const router = useRouter();
  setRouterPrefetch(router.prefetch as Parameters<typeof setRouterPrefetch>[0]);
  useLayoutEffect(
    () =>
      register(
        (next) => async (rscPath, rscParams, options) => {
          if (options.type !== 'rsc' || !isRouteRscPath(rscPath))
            return next(rscPath, rscParams, options);
          const target = targetUrlOf(rscPath, rscParams);
          // A prefetch has no deadline of its own; a navigation that adopts it while it is
          // still in flight starts one (navigationStarting). Its failures still become "leave"
          // errors: unadopted, Waku drops them with the cache entry; adopted, they load the page.
          const prefetchDone = claimPrefetch(rscPath);
          const controller = new AbortController();
          options.signal?.addEventListener('abort', () => controller.abort(), { once: true });
          let timer: ReturnType<typeof setTimeout> | undefined;
          let abandon: (error: Error) => void = () => undefined;
          const timedOut = new Promise<never>((_, reject) => {
            abandon = reject;
          });
          const startTimer = () => {
            timer ??= setTimeout(() => {
              controller.abort();
              abandon(leaveFor(target));
            }, ROUTE_LOAD_TIMEOUT_MS);
          };
          const unwatch = prefetchDone ? watchForNavigation(rscPath, startTimer) : undefined;
          if (!prefetchDone) startTimer();
          // Asked for at the page's own address with the flag (page-data-address.ts), not at
          // Waku's /RSC/R/ address; the build's id is the cache-busting parameter.
          const guardedFetch = async (input: RequestInfo | URL, init?: RequestInit) => {
            const wakuAddress = input instanceof Request ? input.url : String(input);
            const headers = new Headers(init?.headers);
            headers.set(PAGE_DATA_HEADER, PAGE_DATA_FLAG);
            const response = await options.fetch(pageAddressOfPageData(wakuAddress, buildId()), {
              ...init,
              headers,
              signal: controller.signal,
            });
            if (response.status >= 500) throw leaveFor(target);
            return pageDataForRouter(response);
          };
          try {
            return await Promise.race([
              next(rscPath, rscParams, {
                ...options,
                fetch: guardedFetch as typeof fetch,
                signal: controller.signal,
              }),
              timedOut,
            ]);
          } catch (error) {
            // The router cancelled it (another navigation), or a redirect / 404 to follow.
            if (options.signal?.aborted || isFollowable(error)) throw error;
            throw leaveFor(target);
          } finally {
            clearTimeout(timer);
            unwatch?.();
            prefetchDone?.();
          }
        },
        // Outside Waku's router enhancer, so the timeout covers the whole route request.
        50,
      ),
    [register],
  );
  useLayoutEffect(
    () =>
      register(
        (next) => (rscPath, rscParams, options) => {
          if (options.type !== 'call') return next(rscPath, rscParams, options);
          // Actions POST to the page's own address; the header names the action for the server.
          const toPageUrl = (input: RequestInfo | URL, init?: RequestInit) => {
            const actionUrl = new URL(
              input instanceof Request ? input.url : String(input),
              window.location.href,
            );
            const headers = new Headers(init?.headers);
            headers.set('x-folio-action', actionUrl.pathname);
            return options.fetch(window.location.pathname + window.location.search, {
              ...init,
              headers,
            });
          };
          return next(rscPath, rscParams, { ...options, fetch: toPageUrl as typeof fetch });
        },
        // Higher orders wrap lower ones: this one is outermost, so its fetch wrapper runs last,
        // just before the request leaves, after every other enhancer has set its headers.
        200,
      ),
    [register],
  );
  // Back/Forward may adopt an in-flight prefetch too; starting its timer in the same task as
  // the router's own popstate handling is early enough, whichever listener runs first.
  useLayoutEffect(() => {
    const onPopState = () => navigationStarting(window.location.href);
    window.addEventListener('popstate', onPopState);
    return () => window.removeEventListener('popstate', onPopState);
  }, []);
  return null;
}
