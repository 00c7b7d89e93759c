// Owns the in-memory cache of public page responses (HTML and page data): stored once per
// content version with strong ETags and precompressed bodies, served before Waku runs.
import 'server-only';
import { AsyncLocalStorage } from 'node:async_hooks';
import { brotliCompressSync, constants as zlib } from 'node:zlib';
import { BASE_HEADERS } from './front-door';
import { isReservedSlug, isValidSlug } from './slug';

export const PUBLIC_CACHE_CONTROL = 'public, max-age=0, s-maxage=60, stale-while-revalidate=600';
const DEFAULT_MAX_BYTES = 64 * 1024 * 1024;
const SESSION_COOKIE = 'folio_session=';
// Waku's header listing what the browser already holds; a cached payload must be the full one.
const WAKU_ETAGS_HEADER = 'x-waku-etags';

export type Encoding = 'br' | 'gzip' | 'identity';
type Entry = {
  key: string;
  version: number;
  etag: string;
  /** Bodies as Blobs: a Response made from a Blob shares it instead of copying the bytes. */
  blobs: Record<Encoding, Blob>;
  /** Response headers per encoding, built once at store time: a hit only picks them (a
   * Response copies a Headers object several times faster than it parses tuples). */
  headers: Record<Encoding | 'notModified', Headers>;
  bytes: number;
  /** Recency for LRU eviction; a hit only bumps this number. */
  lastUsed: number;
};

export type RenderCacheOptions = {
  /** The content version; an entry made under another version is never served. */
  contentVersion: () => number;
  maxBytes?: number;
  enabled?: boolean;
};

// Set for the duration of one uncached render; the error reporter marks it, so a response
// whose render failed part-way (inside Suspense, after a 200 went out) is never stored.
const SCOPE = Symbol.for('folio.render-cache-scope');
const holder = globalThis as unknown as { [SCOPE]?: AsyncLocalStorage<{ failed: boolean }> };
holder[SCOPE] ??= new AsyncLocalStorage<{ failed: boolean }>();
const renderScope = holder[SCOPE];

/** Called by the error reporter: this request's response must not be cached. */
export function markRenderFailed(): void {
  const scope = renderScope.getStore();
  if (scope) scope.failed = true;
}

/** The cache key of a request that may be served from cache, or null. */
export function cacheKeyOf(request: Request): string | null {
  if (request.method !== 'GET' && request.method !== 'HEAD') return null;
  const cookie = request.headers.get('cookie');
  if (cookie?.includes(SESSION_COOKIE)) return null;
  // Split the URL by hand: this runs on every request, and new URL() is the costliest step.
  const raw = request.url;
  const pathStart = raw.indexOf('/', raw.indexOf('//') + 2);
  const queryStart = raw.indexOf('?', pathStart);
  const path = queryStart === -1 ? raw.slice(pathStart) : raw.slice(pathStart, queryStart);
  const url = { search: queryStart === -1 ? '' : raw.slice(queryStart) };
  const slug = path.slice(1);
  if (path === '/' || (isValidSlug(slug) && !isReservedSlug(slug))) {
    // Query strings on documents (tracking parameters and the like) would split the cache.
    return url.search === '' ? `doc ${path}` : null;
  }
  const data = /^\/RSC\/R\/([a-z0-9_-]+)\.txt$/.exec(path);
  if (data && !data[1]?.startsWith('preview') && !url.search.includes('share')) {
    return `rsc ${path}${url.search}`;
  }
  return null;
}

/** The body encoding to send: brotli, then gzip, then none (also used for static assets). */
export function preferredEncoding(request: Request): Encoding {
  const accepted = request.headers.get('accept-encoding') ?? '';
  if (/\bbr\b/.test(accepted)) return 'br';
  if (/\bgzip\b/.test(accepted)) return 'gzip';
  return 'identity';
}

function isStorable(response: Response): boolean {
  if (response.status !== 200 || response.headers.has('set-cookie')) return false;
  const cacheControl = response.headers.get('cache-control') ?? '';
  if (/private|no-store/.test(cacheControl)) return false;
  const type = response.headers.get('content-type') ?? '';
  return type.startsWith('text/html') || type.startsWith('text/x-component') || type === '';
}

export function createRenderCache({
  contentVersion: readVersion,
  maxBytes = DEFAULT_MAX_BYTES,
  enabled = true,
}: RenderCacheOptions) {
  /** The content version, or null when it cannot be read: then the cache steps aside and the
   * request is rendered (and fails, if it must) like any uncached one. */
  function contentVersion(): number | null {
    try {
      return readVersion();
    } catch {
      return null;
    }
  }

  const entries = new Map<string, Entry>();
  const inFlight = new Map<string, Promise<Entry | null>>();
  let totalBytes = 0;

  let clock = 0;

  function touch(entry: Entry) {
    clock += 1;
    entry.lastUsed = clock;
  }

  function remember(entry: Entry) {
    const previous = entries.get(entry.key);
    if (previous) totalBytes -= previous.bytes;
    entries.set(entry.key, entry);
    totalBytes += entry.bytes;
    touch(entry);
    // Evict the least recently used; a scan is fine, since it only runs when a page is stored.
    while (totalBytes > maxBytes && entries.size > 0) {
      let oldest: Entry | undefined;
      for (const candidate of entries.values())
        if (!oldest || candidate.lastUsed < oldest.lastUsed) oldest = candidate;
      if (!oldest) break;
      entries.delete(oldest.key);
      totalBytes -= oldest.bytes;
    }
  }

  async function render(
    key: string,
    version: number,
    request: Request,
    handler: (r: Request) => Promise<Response>,
  ) {
    const headers = new Headers(request.headers);
    headers.delete(WAKU_ETAGS_HEADER);
    const scope = { failed: false };
    const bare = new Request(request.url, {
      method: request.method,
      headers,
      signal: request.signal,
    });
    const response = await renderScope.run(scope, () => handler(bare));
    if (!isStorable(response)) return { response, entry: null };
    const body = new Uint8Array(await response.arrayBuffer());
    if (scope.failed || version !== contentVersion()) {
      return { response: new Response(body, response), entry: null };
    }
    const storedHeaders: [string, string][] = [...response.headers].filter(
      ([name]) =>
        !['content-length', 'content-encoding', 'etag', 'cache-control', 'date'].includes(name),
    );
    const etag = `"${Bun.hash(body).toString(36)}-${body.length.toString(36)}"`;
    const bodies: Record<Encoding, Uint8Array<ArrayBuffer>> = {
      identity: body,
      gzip: new Uint8Array(Bun.gzipSync(body)),
      br: new Uint8Array(brotliCompressSync(body, { params: { [zlib.BROTLI_PARAM_QUALITY]: 9 } })),
    };
    // The front door's headers are stored too, so a hit is complete without another pass.
    const common: [string, string][] = [
      ...storedHeaders.filter(([name]) => !(name in BASE_HEADERS)),
      ...Object.entries(BASE_HEADERS),
      ['etag', etag],
      ['cache-control', PUBLIC_CACHE_CONTROL],
      ['vary', 'Accept-Encoding'],
      ['x-folio-cache', 'hit'],
    ];
    const withBody = (encoding: Encoding): [string, string][] => [
      ...common,
      ...(encoding === 'identity' ? [] : ([['content-encoding', encoding]] as [string, string][])),
      ['content-length', String(bodies[encoding].length)],
    ];
    const entry: Entry = {
      key,
      version,
      etag,
      blobs: {
        identity: new Blob([bodies.identity]),
        gzip: new Blob([bodies.gzip]),
        br: new Blob([bodies.br]),
      },
      headers: {
        identity: new Headers(withBody('identity')),
        gzip: new Headers(withBody('gzip')),
        br: new Headers(withBody('br')),
        notModified: new Headers(common),
      },
      bytes: bodies.identity.length + bodies.gzip.length + bodies.br.length + 1024,
      lastUsed: 0,
    };
    return { response: null, entry };
  }

  function respond(entry: Entry, request: Request): Response {
    const ifNoneMatch = request.headers.get('if-none-match');
    if (ifNoneMatch?.split(/\s*,\s*/).includes(entry.etag)) {
      return new Response(null, { status: 304, headers: entry.headers.notModified });
    }
    const encoding = preferredEncoding(request);
    const body = request.method === 'HEAD' ? null : entry.blobs[encoding];
    return new Response(body, { status: 200, headers: entry.headers[encoding] });
  }

  /** A cached response for this request if there is a current one; never renders. */
  function lookup(request: Request): Response | null {
    if (!enabled) return null;
    const key = cacheKeyOf(request);
    if (key === null) return null;
    const entry = entries.get(key);
    if (!entry || entry.version !== contentVersion()) return null;
    touch(entry);
    return respond(entry, request);
  }

  return {
    get size() {
      return { entries: entries.size, bytes: totalBytes };
    },
    clear() {
      entries.clear();
      totalBytes = 0;
    },
    lookup,
    async handle(request: Request, handler: (r: Request) => Promise<Response>): Promise<Response> {
      const key = enabled ? cacheKeyOf(request) : null;
      if (key === null) {
        const response = await handler(request);
        if (!enabled && cacheKeyOf(request) !== null && isStorable(response)) {
          response.headers.set('cache-control', PUBLIC_CACHE_CONTROL);
        }
        return response;
      }
      const version = contentVersion();
      if (version === null) return handler(request);
      const cached = entries.get(key);
      if (cached && cached.version === version) {
        touch(cached);
        return respond(cached, request);
      }
      // One render per key at a time: concurrent misses wait for the first.
      const pending = inFlight.get(key);
      if (pending) {
        const entry = await pending;
        if (entry && entry.version === contentVersion()) return respond(entry, request);
        return handler(request);
      }
      let settle: (entry: Entry | null) => void = () => undefined;
      inFlight.set(key, new Promise((resolve) => (settle = resolve)));
      try {
        const { response, entry } = await render(key, version, request, handler);
        settle(entry);
        if (!entry) {
          if (response && isStorable(response))
            response.headers.set('cache-control', PUBLIC_CACHE_CONTROL);
          return response ?? handler(request);
        }
        remember(entry);
        const fresh = respond(entry, request);
        fresh.headers.set('x-folio-cache', 'miss');
        return fresh;
      } catch (error) {
        settle(null);
        throw error;
      } finally {
        inFlight.delete(key);
      }
    },
  };
}

export type RenderCache = ReturnType<typeof createRenderCache>;

// The production server (server.ts) answers hits before Waku runs at all; it finds the cache
// the bundle made here.
const REGISTRY = Symbol.for('folio.render-cache');
const registry = globalThis as unknown as { [REGISTRY]?: RenderCache };

export function registerRenderCache(cache: RenderCache): RenderCache {
  registry[REGISTRY] = cache;
  return cache;
}

export function registeredRenderCache(): RenderCache | undefined {
  return registry[REGISTRY];
}
