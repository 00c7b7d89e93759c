// Server actions are POSTs to the current page's address (original spec §7): the browser
// sends them there with `x-folio-action` naming Waku's action path, and this puts the
// request back on that path before Waku sees it. Waku's own /RSC/F/ path keeps working.
import type { MiddlewareHandler } from 'hono';

export const ACTION_HEADER = 'x-folio-action';
const ACTION_PATH = /^\/RSC\/F\/[^?#]+\.txt$/;

export function actionOnPageUrl(): MiddlewareHandler {
  return async function actionOnPageUrlMiddleware(c, next) {
    const action = c.req.header(ACTION_HEADER);
    if (c.req.method !== 'POST' || action === undefined) return next();
    if (!ACTION_PATH.test(action)) return c.text('Bad request: unknown action address.\n', 400);
    const original = c.req.raw;
    c.req.raw = new Request(new URL(action, original.url), {
      method: 'POST',
      headers: original.headers,
      body: original.body,
      signal: original.signal,
      // Required for a streamed body; given explicitly (copying the old Request crashes in dev).
      duplex: 'half',
    } as RequestInit);
    return next();
  };
}
