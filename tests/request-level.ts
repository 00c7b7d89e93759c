// Request-level tests of Folio's HTTP layer without a server: the real front door (request
// context, URL and method rules, security headers) around a Hono app holding the middleware
// under test, with a final handler standing in for Waku.
import { type Context, Hono, type MiddlewareHandler } from 'hono';
import { createFrontDoor } from '../src/lib/http/front-door';
import type { RenderCache } from '../src/lib/http/render-cache';

type Middleware = (options: { app: Hono }) => MiddlewareHandler;

export function requestLevelApp(
  middleware: readonly Middleware[],
  handler: (c: Context) => Response | Promise<Response>,
  {
    siteUrl,
    trustedProxyHops = 0,
    renderCache = null,
    clientAddress = '203.0.113.9',
  }: {
    siteUrl?: string;
    trustedProxyHops?: number;
    renderCache?: RenderCache | null;
    clientAddress?: string;
  } = {},
) {
  const app = new Hono();
  for (const use of middleware) app.use(use({ app }));
  app.all('*', handler);
  const door = createFrontDoor({
    app: async (request) => app.fetch(request),
    renderCache,
    siteUrl,
    trustedProxyHops,
  });
  const peer = { requestIP: () => ({ address: clientAddress }) };
  return (input: string | Request, init?: RequestInit) => {
    const request =
      typeof input === 'string' ? new Request(new URL(input, 'http://folio.test'), init) : input;
    // A server always has the Host header a Request made in a test lacks.
    if (!request.headers.has('host')) request.headers.set('host', new URL(request.url).host);
    return door.fetch(request, peer);
  };
}
