// The server entry: Waku's file router on the Bun adapter, with Folio's middleware in front.
import { fsRouter } from 'waku';
import adapter from 'waku/adapters/bun';
import { contentStore } from './lib/content';
import { getEnv } from './lib/env';
import { withFrontDoor } from './lib/front-door';
import { createRenderCache, registerRenderCache } from './lib/render-cache';
import { actionOnPageUrl } from './middleware/action-on-page-url';
import { canonicalUrls } from './middleware/canonical';
import { errorPages } from './middleware/errors';
import { requestScope } from './middleware/request-scope';
import { sameOrigin } from './middleware/same-origin';

const pageModules = Object.fromEntries(
  Object.entries(
    import.meta.glob(['/src/pages/**/*.{ts,tsx}', '!/src/pages/**/*.test.{ts,tsx}']),
  ).map(([key, load]) => [key.slice('/src/'.length), load]),
);

const entry = adapter(fsRouter(pageModules), {
  // Actions carry form posts with Markdown bodies; nothing legitimate is near this size.
  bodyLimit: { maxSize: 1024 * 1024 },
  // errorPages first: it must see every response, including other middleware's failures.
  middlewareFns: [errorPages, sameOrigin, actionOnPageUrl, requestScope, canonicalUrls],
});

const renderCache = registerRenderCache(
  createRenderCache({
    contentVersion: () => contentStore().contentVersion(),
    enabled: getEnv().FOLIO_RENDER_CACHE === 'on',
    maxBytes: getEnv().FOLIO_RENDER_CACHE_MB * 1024 * 1024,
  }),
);

type WakuFetch = (request: Request, ...rest: never[]) => Promise<Response>;
const wakuFetch = entry.fetch as WakuFetch;

// Wrapping fetch (not a Hono middleware): the adapter serves static files before any
// middleware runs, and both the URL checks and the headers must cover those too. The render
// cache sits inside the front door and in front of everything else.
export default {
  ...entry,
  fetch: withFrontDoor((request: Request, ...rest: never[]) =>
    renderCache.handle(request, (inner) => wakuFetch(inner, ...rest)),
  ),
};
