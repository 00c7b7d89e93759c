// The server entry: Waku's file router on the Bun adapter, Folio's middleware inside it, and
// Folio's front door around it. The same entry serves `bun run dev` and the production build
// (src/serve.ts runs it behind Bun.serve).
import { fsRouter } from 'waku';
import adapter from 'waku/adapters/bun';
import { createContentApi } from './lib/api/content-api';
import { contentStore } from './lib/content/content';
import { REQUEST_BODY_MAX_BYTES } from './lib/content/field-limits';
import { contentStillCurrent, currentContentVersion } from './lib/data/content-version';
import { createFrontDoor } from './lib/http/front-door';
import { createMediaResponder } from './lib/http/media-serving';
import { actions } from './lib/http/middleware/actions';
import { errorPages } from './lib/http/middleware/errors';
import { renamedPages } from './lib/http/middleware/renamed-pages';
import { responseContext } from './lib/http/middleware/response-context';
import { sameOrigin } from './lib/http/middleware/same-origin';
import { siteRedirects } from './lib/http/middleware/site-redirects';
import { createRenderCache } from './lib/http/render-cache';
import { createSiteLook } from './lib/http/site-look';
import { mediaStore } from './lib/media/media';
import { startServerMonitoring } from './lib/observability/sentry-server';
import { getEnv } from './lib/runtime/env';
import { processSingleton } from './lib/runtime/process-singleton';
import { socialCards } from './lib/social-card/card-store';
import { DEVELOPMENT } from './lib/waku/development';

const pageModules = Object.fromEntries(
  Object.entries(
    import.meta.glob(['/src/pages/**/*.{ts,tsx}', '!/src/pages/**/*.test.{ts,tsx}']),
  ).map(([key, load]) => [key.slice('/src/'.length), load]),
);

const env = getEnv();

// Under `bun run dev` the app runs in Vite's module graph, whose copy of the Sentry SDK is not
// the one a --preload would start: it is started here, in the graph that reports (Spotlight
// included). The production server starts it in src/serve.ts, before Bun.serve.
if (DEVELOPMENT) startServerMonitoring({ SENTRY_ENVIRONMENT: 'development', ...process.env });

const entry = adapter(fsRouter(pageModules), {
  // Actions carry form posts with Markdown bodies: an over-long body is read and refused with
  // its text kept; only something far larger is refused unread (docs in field-limits.ts).
  // This is the largest any address takes (an image upload's); the errors middleware refuses
  // a body declared larger than its own address takes (http/body-limit.ts requestBodyLimit).
  bodyLimit: {
    maxSize: Math.max(REQUEST_BODY_MAX_BYTES, (env.MEDIA_MAX_MB + 1) * 1024 * 1024),
  },
  // errorPages first: it must see every response, including other middleware's failures.
  middlewareFns: [
    errorPages,
    sameOrigin,
    () => actions(),
    responseContext,
    renamedPages,
    siteRedirects,
  ],
});

// Off in development: an edited component must show on the next request.
const renderCache =
  DEVELOPMENT || env.FOLIO_RENDER_CACHE === 'off'
    ? null
    : processSingleton('render-cache', () =>
        createRenderCache({
          contentVersion: currentContentVersion,
          stillCurrent: contentStillCurrent,
          maxBytes: env.FOLIO_RENDER_CACHE_MB * 1024 * 1024,
        }),
      );

type WakuFetch = (request: Request) => Promise<Response>;

export const frontDoor = createFrontDoor({
  app: entry.fetch as WakuFetch,
  renderCache,
  siteUrl: env.SITE_URL,
  trustedProxyHops: env.TRUST_PROXY,
  media: createMediaResponder(mediaStore, socialCards),
  api: createContentApi(),
  siteLook: createSiteLook(() => contentStore().getSiteSettings(), currentContentVersion),
});

export default { ...entry, fetch: frontDoor.fetch };
