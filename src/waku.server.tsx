// The server entry: Waku's file router on the Bun adapter, with Folio's middleware in front.
import { fsRouter } from 'waku';
import adapter from 'waku/adapters/bun';
import { withFrontDoor } from './lib/front-door';
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
  middlewareFns: [errorPages, sameOrigin, requestScope, canonicalUrls],
});

// Wrapping fetch (not a Hono middleware): the adapter serves static files before any
// middleware runs, and both the URL checks and the headers must cover those too.
export default { ...entry, fetch: withFrontDoor(entry.fetch) };
