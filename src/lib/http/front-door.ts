// Owns what happens to a request before Waku sees it, and the last word on every response:
// hashed assets and cache hits answered from memory; the request's facts established once (a
// Host no valid origin can be made of is a 400); addresses no route could serve refused and
// non-canonical ones redirected; methods checked against the route, HEAD answered as a GET;
// the request context opened for everything that runs; and the security
// headers on whatever goes out.
import 'server-only';
import { apiRefusal } from '../api/answers';
import { escapeHtml, type SiteLook, staticPage } from '../observability/fallback-page';
import { hydrateAfterPaint } from '../waku/hydrate-after-paint';
import { NOT_FOUND_ROUTE_PATH, pagePathOfPageData } from '../waku/internals';
import { withDefaultCacheControl, withHeader } from './cache-headers';
import { LIVE_PARAM, type Upgrader } from './live-editing';
import { PAGE_DATA_HEADER, pageAddressOfPageData, wakuPageDataAddress } from './page-data-address';
import {
  pageDataQueryOf,
  pageNumberProblem,
  publicQueryOf,
  publicQueryOfPageData,
} from './public-params';
import type { RenderCache } from './render-cache';
import { requestContext, runInRequestContext } from './request-context';
import {
  ALLOWED_METHODS,
  canonicalLocation,
  clientAddressOf,
  isHttps,
  mayBePageAddress,
  type Route,
  routeOf,
} from './routes';
import { HSTS_HEADER, withSecurityHeaders } from './security-headers';
import type { StaticAssets } from './static-assets';
import { withSurrogateKeys } from './surrogate-keys';

export const MAX_URL_LENGTH = 8 * 1024;
const MAX_SEGMENT_LENGTH = 255;
/** Host values already found valid: a cache hit for one of them skips the checks. */
const MAX_KNOWN_HOSTS = 64;

/**
 * The 404 the front door writes itself (an address no route could serve, a page number that
 * names no page), in the site's title, language and icon; `problem` says why, in words.
 */
function notFoundHtml(look: SiteLook | undefined, problem = 'There is no page at this address.') {
  return staticPage({
    title: 'Page not found',
    heading: 'Page not found',
    body: `<p>${escapeHtml(problem)}</p><p><a href="/">Go to the home page</a></p>`,
    look,
  });
}

type Handler = (request: Request) => Promise<Response>;
/** What Bun.serve passes beside the request: where the socket came from. */
type Peer = { requestIP?: (request: Request) => { address: string } | null } & Upgrader;
/** Answers a WebSocket request for a page's live document (live-editing.ts): undefined once
 * upgraded, or the refusal. */
type LiveHandler = (
  request: Request,
  slug: string,
  https: boolean,
  server: Upgrader | undefined,
  clientAddress: string,
) => Promise<Response | undefined>;

export type FrontDoorOptions = {
  /** Waku's app: everything not answered here. */
  app: Handler;
  renderCache: RenderCache | null;
  /** SITE_URL: the origin for absolute links; unset, each request's own. */
  siteUrl: string | undefined;
  /** TRUST_PROXY: how many proxies' X-Forwarded-* headers to believe. */
  trustedProxyHops: number;
  /** Answers /media/… (uploaded images), outside Waku: bytes from the store, never rendered. */
  media?: (request: Request, pathname: string) => Promise<Response>;
  /**
   * Answers /api/… (the content API), outside Waku: `origin` is SITE_URL or the request's, and
   * `clientAddress` the client's as for pages (its rate limit counts by it).
   */
  api?: (
    request: Request,
    url: URL,
    origin: string,
    clientAddress: string,
    refused?: 404 | 414,
  ) => Promise<Response>;
  /** The site's title, language and favicon for the 404s written here (site-look.ts). */
  siteLook?: () => Promise<SiteLook>;
};

/** Why a URL is refused outright, or null to let it through. */
export function refuseUrl(rawUrl: string): { status: 404 | 414 } | null {
  if (rawUrl.length > MAX_URL_LENGTH) return { status: 414 };
  const pathStart = rawUrl.indexOf('/', rawUrl.indexOf('//') + 2);
  const queryStart = rawUrl.indexOf('?', pathStart);
  const path = rawUrl.slice(pathStart, queryStart === -1 ? undefined : queryStart);
  // NUL bytes (raw or encoded) and encoded slashes/backslashes/dots in the path never name a
  // page; they are the stuff of traversal attempts.
  if (/%00|\0|%2f|%5c|%2e%2e/i.test(path)) return { status: 404 };
  // No page, asset or file name is this long, and the static file server fails (ENAMETOOLONG)
  // rather than answering 404 when asked for one.
  if (path.split('/').some((segment) => segment.length > MAX_SEGMENT_LENGTH))
    return { status: 404 };
  return null;
}

/** Whether a URL (refused or not) is under /api: its refusals are the API's, in JSON. */
function isApiAddress(rawUrl: string): boolean {
  try {
    return routeOf(new URL(rawUrl).pathname).kind === 'api';
  } catch {
    return false;
  }
}

/** Why the Host header names no origin, or null when it does. */
function hostProblem(request: Request): string | null {
  const host = request.headers.get('host');
  if (!host) return 'a Host header is required';
  // Bun joins repeated headers with ", "; a host name never contains a comma.
  if (host.includes(',')) return 'more than one Host header';
  // Bun leaves the URL relative when it cannot make an origin of the Host header; other
  // servers (the dev server) may not, so the header is judged on its own too.
  if (!request.url.startsWith('http')) return 'the Host header is not a valid host';
  try {
    new URL(request.url);
    const { hostname } = new URL(`http://${host}/`);
    // WHATWG URLs accept empty labels (`a..b`); no host name has one.
    if (
      !hostname.startsWith('[') &&
      hostname.split('.').some((label, i, all) => label === '' && i < all.length - 1)
    )
      return 'the Host header is not a valid host';
    return null;
  } catch {
    return 'the Host header is not a valid host';
  }
}

function plain(status: number, text: string, headers: Record<string, string> = {}): Response {
  return new Response(`${text}\n`, {
    status,
    headers: { 'content-type': 'text/plain; charset=utf-8', ...headers },
  });
}

/**
 * A page's HTML and its data share an address (page-data-address.ts): every response of a
 * page, a preview or page data says it varies on the flag, so no cache mixes the two.
 */
function withPageVary(response: Response, route: Route): Response {
  if (route.kind !== 'page' && route.kind !== 'preview' && route.kind !== 'page-data')
    return response;
  const vary = response.headers.get('vary');
  if (vary && /\brsc\b/i.test(vary)) return response;
  return withHeader(response, 'vary', vary ? `${vary}, RSC` : 'RSC');
}

/** Page data and action results are component payloads, whatever Waku said (or did not). */
function withPayloadType(response: Response, route: Route): Response {
  if (route.kind !== 'page-data' && route.kind !== 'action') return response;
  if (response.status >= 300 || response.headers.get('content-type')) return response;
  return withHeader(response, 'content-type', 'text/x-component; charset=utf-8');
}

/**
 * Page data carries its page's status, as the page's HTML does: a render that said "no such
 * page" (Waku's notFound()) is a 404, and the status a page asked for (setDocumentStatus: a
 * search that cannot be run is a 400, a screen not for the editor's role a 403, the sign-in
 * form a 401) is that status — not a 200 with the payload (issue 27's leftovers; hostile pass
 * 27, finding 10). That is known only once the render is done, so page data is read whole
 * before it is answered: the render cache reads public page data whole already, and no page of
 * Folio streams in parts (no Suspense). The browser hands the payload to the router as before
 * (page-data-address.ts pageDataForRouter).
 */
async function withPageDataStatus(response: Response, route: Route): Promise<Response> {
  if (route.kind !== 'page-data' || response.status !== 200 || !response.body) return response;
  const body = await response.arrayBuffer();
  const context = requestContext();
  // The not-found route's own data is "no such page" too, as its HTML is.
  const notFound =
    context.renderedNotFound || pagePathOfPageData(context.url.pathname) === NOT_FOUND_ROUTE_PATH;
  const status = notFound ? 404 : (context.status ?? 200);
  return new Response(body, { status, headers: response.headers });
}

export function createFrontDoor({
  app,
  renderCache,
  siteUrl,
  trustedProxyHops,
  media,
  api,
  siteLook,
}: FrontDoorOptions) {
  const knownHosts = new Set<string>();
  let assets: StaticAssets | null = null;
  let live: LiveHandler | null = null;

  /**
   * A WebSocket request (co-editing, docs/decisions/0050): only a page's preview address with
   * `?live` takes one, and only on the production server (which hands over its handler). The
   * request's facts are checked as for any request; nothing of it reaches Waku.
   */
  async function answerLive(request: Request, peer?: Peer): Promise<Response | undefined> {
    const method = request.method;
    const https = isHttps(request, trustedProxyHops);
    const problem = hostProblem(request);
    const refused = problem ? null : refuseUrl(request.url);
    const url = problem || refused ? null : new URL(request.url);
    const route = url ? routeOf(url.pathname) : null;
    const response =
      problem !== null
        ? plain(400, `Bad request: ${problem}.`)
        : refused !== null || !url || !route || !live
          ? plain(refused?.status ?? 404, 'Not found.')
          : route.kind !== 'preview' ||
              route.slug === undefined ||
              !url.searchParams.has(LIVE_PARAM) ||
              method !== 'GET'
            ? plain(404, 'Not found: no live document at this address.')
            : await live(
                request,
                route.slug,
                https,
                peer,
                clientAddressOf(
                  request,
                  peer?.requestIP?.(request)?.address ?? 'unknown',
                  trustedProxyHops,
                ),
              );
    if (response === undefined) return undefined;
    return withSecurityHeaders(withDefaultCacheControl(response), { https, route, method });
  }

  /**
   * Page data asked for at a page's own address (with the flag) is answered as Waku's
   * page-data request for it, and its redirects are said at page addresses again.
   */
  async function frontDoor(request: Request, peer?: Peer): Promise<Response> {
    const flag = request.headers.get(PAGE_DATA_HEADER);
    if (flag === null || (request.method !== 'GET' && request.method !== 'HEAD'))
      return answer(request, peer);
    // The address as the browser sent it is what the URL limits judge, not Waku's spelling
    // of it (which encodes the query once more).
    if (refuseUrl(request.url)) return answer(request, peer);
    const url = new URL(request.url);
    const pageData = wakuPageDataAddress(url, flag, mayBePageAddress);
    if (!pageData) return answer(request, peer);
    const response = await answer(
      new Request(`${url.origin}${pageData.address}`, {
        method: request.method,
        headers: request.headers,
        signal: request.signal,
      }),
      peer,
      { urlChecked: true },
    );
    const location = response.headers.get('location');
    return location
      ? withHeader(response, 'location', pageAddressOfPageData(location, pageData.stamp))
      : response;
  }

  async function answer(
    request: Request,
    peer?: Peer,
    { urlChecked = false }: { urlChecked?: boolean } = {},
  ): Promise<Response> {
    const method = request.method;
    const https = isHttps(request, trustedProxyHops);

    // Hot path: hashed assets and cache hits, for a Host already found valid. Both were built
    // with the security headers; only HSTS depends on the request.
    if (
      (method === 'GET' || method === 'HEAD') &&
      knownHosts.has(request.headers.get('host') ?? '')
    ) {
      const asset = assets?.lookup(request);
      const page = asset ? null : renderCache?.lookup(request);
      const hit = asset ?? page;
      if (hit) {
        if (https) hit.headers.set(HSTS_HEADER[0] as string, HSTS_HEADER[1] as string);
        return hit;
      }
    }

    const problem = hostProblem(request);
    if (problem)
      return withSecurityHeaders(plain(400, `Bad request: ${problem}.`), {
        https,
        route: null,
        method,
      });
    if (knownHosts.size < MAX_KNOWN_HOSTS) knownHosts.add(request.headers.get('host') ?? '');

    const refused = urlChecked ? null : refuseUrl(request.url);
    if (refused) {
      const forApi = isApiAddress(request.url);
      // A request to the API the address refuses is counted as any other is, and told its
      // limit (hostile pass, 2026-11-27: encoded slashes were free); a preflight never is.
      if (forApi && api && method !== 'OPTIONS') {
        const url = new URL(request.url);
        const clientAddress = clientAddressOf(
          request,
          peer?.requestIP?.(request)?.address ?? 'unknown',
          trustedProxyHops,
        );
        const answered = await api(
          request,
          url,
          siteUrl ?? url.origin,
          clientAddress,
          refused.status,
        );
        return withSecurityHeaders(withDefaultCacheControl(answered), {
          https,
          route: null,
          method,
        });
      }
      // A script asking the API gets JSON it can read, never the site's HTML.
      const response = forApi
        ? apiRefusal(refused.status)
        : refused.status === 404
          ? new Response(notFoundHtml(await siteLook?.()), {
              status: 404,
              headers: { 'content-type': 'text/html; charset=utf-8' },
            })
          : plain(414, 'URI Too Long');
      // Like every other refusal: no cache keeps it (a CDN would otherwise hold the 404).
      return withSecurityHeaders(withDefaultCacheControl(response), { https, route: null, method });
    }

    const url = new URL(request.url);
    // The origin absolute links name (invitations, the sitemap, the API): SITE_URL, or this
    // request's own — https when a trusted proxy says the visitor asked so (third hostile
    // pass: behind TRUST_PROXY the emailed invitation said http:// and travelled in clear).
    const origin = siteUrl ?? (https ? `https://${url.host}` : url.origin);
    // The method is checked against the route the address stands for, canonical or not: a
    // PUT to `/about/` is as wrong as one to `/about`.
    const location = canonicalLocation(url.pathname);
    const route = routeOf(url.pathname);
    const allowed = ALLOWED_METHODS[(location ? routeOf(location) : route).kind];
    if (allowed && !allowed.includes(method)) {
      const refusal =
        route.kind === 'api'
          ? apiRefusal(405)
          : plain(405, 'Method not allowed.', { allow: allowed.join(', ') });
      return withSecurityHeaders(refusal, { https, route, method });
    }
    if (location && (method === 'GET' || method === 'HEAD')) {
      const redirect = new Response(null, {
        status: 308,
        headers: { location: `${location}${url.search}` },
      });
      // Headers as for the address it leads to: `/About` and `/home` alike.
      return withSecurityHeaders(withPageVary(redirect, route), {
        https,
        route: routeOf(location),
        method,
      });
    }

    if (route.kind === 'media' && media)
      return withSecurityHeaders(
        withSurrogateKeys(await media(request, url.pathname), route, url.pathname),
        { https, route, method },
      );
    if (route.kind === 'api' && api) {
      const clientAddress = clientAddressOf(
        request,
        peer?.requestIP?.(request)?.address ?? 'unknown',
        trustedProxyHops,
      );
      return withSecurityHeaders(
        withSurrogateKeys(await api(request, url, origin, clientAddress), route, url.pathname),
        { https, route, method },
      );
    }

    // HEAD is rendered as a GET. Public pages and their data keep only the parameters they
    // take (public-params.ts: a search on `/`, a listing's page number), in one canonical
    // spelling; anything else in their query string is dropped before anything can reflect
    // it, and the render cache answers every spelling from one entry (render-cache.ts
    // cacheKeyOf). A page number that is not one is a 404 here, before any render.
    const kept =
      method !== 'GET' && method !== 'HEAD'
        ? null
        : route.kind === 'page'
          ? publicQueryOf(url.pathname, url.search.slice(1))
          : route.kind === 'page-data' && !route.preview
            ? publicQueryOfPageData(url.pathname, url.search.slice(1))
            : null;
    if (kept && !kept.ok) {
      const response =
        route.kind === 'page'
          ? new Response(notFoundHtml(await siteLook?.(), pageNumberProblem(kept.asked)), {
              status: 404,
              headers: { 'content-type': 'text/html; charset=utf-8' },
            })
          : plain(404, 'Not found.');
      return withSecurityHeaders(withPageVary(withDefaultCacheControl(response), route), {
        https,
        route,
        method,
      });
    }
    const keptSearch = kept
      ? route.kind === 'page'
        ? kept.canonical
        : pageDataQueryOf(kept.canonical)
      : null;
    const rewrite = keptSearch !== null && `?${keptSearch}` !== (url.search || '?');
    const inner =
      method === 'HEAD' || rewrite
        ? new Request(
            rewrite
              ? `${url.origin}${url.pathname}${keptSearch ? `?${keptSearch}` : ''}`
              : request.url,
            {
              method: method === 'HEAD' ? 'GET' : method,
              headers: request.headers,
              signal: request.signal,
            },
          )
        : request;

    const socketAddress = peer?.requestIP?.(request)?.address ?? 'unknown';
    const facts = {
      request,
      url,
      route,
      https,
      clientAddress: clientAddressOf(request, socketAddress, trustedProxyHops),
      origin,
    };
    const handle = async (forwarded: Request) =>
      hydrateAfterPaint(
        await withPageDataStatus(withPayloadType(await app(forwarded), route), route),
        route,
      );
    const response = await runInRequestContext(facts, () =>
      renderCache ? renderCache.handle(inner, handle) : handle(inner),
    );
    // A HEAD gets the GET's response: Bun sends its headers with the body's true length and
    // leaves the body out (a bodiless Response would say Content-Length: 0). Bun cancels the
    // body it leaves out, and a streamed page-data render that a cancel aborts is reported as
    // an error (by Waku and by us), so that stream is read to its end through a second branch
    // instead; the branch Bun cancels is only a copy.
    let answer = response;
    if (method === 'HEAD' && route.kind === 'page-data' && response.body) {
      const [sent, drained] = response.body.tee();
      void drained.pipeTo(new WritableStream()).catch(() => undefined);
      answer = new Response(sent, response);
    }
    // Last, once Cache-Control is final: only what shared caches may keep names keys.
    return withSecurityHeaders(
      withSurrogateKeys(withPageVary(withDefaultCacheControl(answer), route), route, url.pathname),
      { https, route, method },
    );
  }

  return {
    fetch: frontDoor,
    /**
     * The production server's entry (src/serve.ts): as `fetch`, and a WebSocket request is the
     * live document's (undefined once upgraded: Bun answers it).
     */
    fetchOrUpgrade(request: Request, peer?: Peer): Promise<Response | undefined> {
      if (live && request.headers.get('upgrade')?.toLowerCase() === 'websocket')
        return answerLive(request, peer);
      return frontDoor(request, peer);
    },
    /** The production server hands over the build's hashed assets (none in development). */
    serveAssets(loaded: StaticAssets) {
      assets = loaded;
    },
    /** The production server hands over its co-editing WebSocket (live-editing.ts). */
    serveLive(handler: LiveHandler) {
      live = handler;
    },
  };
}

export type FrontDoor = ReturnType<typeof createFrontDoor>;
