'use client';
import { useLayoutEffect } from 'react';
import { useRegisterRscEnhancer_UNSTABLE as useRegisterRscEnhancer } from 'waku/minimal/client';
import { useRouter } from 'waku/router/client';
import { unstable_isFollowable as isFollowable } from 'waku/router/client-core';
import {
  claimPrefetch,
  leaveFor,
  setRouterPrefetch,
  targetUrlOf,
} from '../lib/navigation/client-runtime';
import { ROUTE_LOAD_TIMEOUT_MS } from '../lib/navigation/constants';

/**
 * Rendered once in the root. Every page-data request of a navigation races ROUTE_LOAD_TIMEOUT_MS;
 * a timeout, a network error, a 5xx or a payload that does not parse becomes a full page load of
 * the target (never a blank page, never a new URL over old content). Prefetches just fail.
 */
export function NavigationRuntime() {
  const register = useRegisterRscEnhancer();
  const router = useRouter();
  setRouterPrefetch(router.prefetch as Parameters<typeof setRouterPrefetch>[0]);
  useLayoutEffect(
    () =>
      register(
        (next) => async (rscPath, rscParams, options) => {
          if (options.type !== 'rsc' || !rscPath.startsWith('R'))
            return next(rscPath, rscParams, options);
          const prefetchDone = claimPrefetch(rscPath);
          if (prefetchDone) {
            try {
              return await next(rscPath, rscParams, options);
            } finally {
              prefetchDone();
            }
          }
          const target = targetUrlOf(rscPath, rscParams);
          const controller = new AbortController();
          options.signal?.addEventListener('abort', () => controller.abort());
          let timer: ReturnType<typeof setTimeout> | undefined;
          const timedOut = new Promise<never>((_, reject) => {
            timer = setTimeout(() => {
              controller.abort();
              reject(leaveFor(target));
            }, ROUTE_LOAD_TIMEOUT_MS);
          });
          const guardedFetch = async (input: RequestInfo | URL, init?: RequestInit) => {
            const response = await options.fetch(input, { ...init, signal: controller.signal });
            if (response.status >= 500) throw leaveFor(target);
            return response;
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
  return null;
}
