'use client';
import { useLayoutEffect, useState } from 'react';
import { useRegisterRscEnhancer_UNSTABLE as useRegisterRscEnhancer } from 'waku/minimal/client';
import { STALE_PAGE_MESSAGE } from '../lib/observability/request-errors';

/**
 * A form from an older build calls an action the server no longer has: the server answers 409
 * with `x-folio-stale`. Instead of the crash page, say so and offer a reload; the action's
 * promise never settles, so the form keeps what was typed. A failed action's digest (from
 * `x-error-digest`) is carried to the fallback page, so support can find the server's record.
 */
export function StaleActionNotice() {
  const [stale, setStale] = useState(false);
  const register = useRegisterRscEnhancer();
  useLayoutEffect(
    () =>
      register(
        (next) => (rscPath, rscParams, options) => {
          if (options.type !== 'call') return next(rscPath, rscParams, options);
          const guardedFetch = async (input: RequestInfo | URL, init?: RequestInit) => {
            const response = await options.fetch(input, init);
            if (response.status === 409 && response.headers.get('x-folio-stale')) {
              setStale(true);
              return new Promise<never>(() => {});
            }
            const digest = response.headers.get('x-error-digest');
            if (response.status >= 500 && digest) {
              // The action failed on the server: carry its digest to the fallback page.
              throw Object.assign(new Error('A server action failed'), { digest });
            }
            return response;
          };
          return next(rscPath, rscParams, { ...options, fetch: guardedFetch as typeof fetch });
        },
        // Outside Waku's router enhancer; the response is checked before Waku decodes it.
        100,
      ),
    [register],
  );
  if (!stale) return null;
  return (
    <div role="alert" className="stale-notice">
      {STALE_PAGE_MESSAGE}{' '}
      <button type="button" onClick={() => window.location.reload()}>
        Reload
      </button>
    </div>
  );
}
