// Owns the in-memory cache of public page responses (HTML and page data): stored once per
// content version with strong ETags and precompressed bodies, served before Waku runs.
import { AsyncLocalStorage } from 'node:async_hooks';
import { brotliCompressSync, constants as zlib } from 'node:zlib';
import { isReservedSlug, isValidSlug } from './slug';

export const PUBLIC_CACHE_CONTROL = 'public, max-age=0, s-maxage=60, stale-while-revalidate=600';
const DEFAULT_MAX_BYTES = 64 * 1024 * 1024;
const SESSION_COOKIE = 'folio_session=';
// Waku's header listing what the browser already holds; a cached payload must be the full one.
const WAKU_ETAGS_HEADER = 'x-waku-etags';

type Encoding = 'br' | 'gzip' | 'identity';
type Entry = {
  key: string;
  version: number;
  headers: [string, string][];
  etag: string;
  bodies: Record<Encoding, Uint8Array<ArrayBuffer>>;
  bytes: number;
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
  if ((request.headers.get('cookie') ?? '').includes(SESSION_COOKIE)) return null;
  const url = new URL(request.url);
  const path = url.pathname;
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

function preferredEncoding(request: Request): Encoding {
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
  contentVersion,
  maxBytes = DEFAULT_MAX_BYTES,
  enabled = true,
}: RenderCacheOptions) {
  const entries = new Map<string, Entry>();
  const inFlight = new Map<string, Promise<Entry | null>>();
  let totalBytes = 0;

  function remember(entry: Entry) {
    const previous = entries.get(entry.key);
    if (previous) totalBytes -= previous.bytes;
    entries.delete(entry.key);
    entries.set(entry.key, entry);
    totalBytes += entry.bytes;
    // Least recently used first: Map iteration follows insertion, and hits re-insert.
    for (const [key, old] of entries) {
      if (totalBytes <= maxBytes) break;
      entries.delete(key);
      totalBytes -= old.bytes;
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
    const storedHeaders = [...response.headers].filter(
      ([name]) =>
        !['content-length', 'content-encoding', 'etag', 'cache-control', 'date'].includes(name),
    );
    const entry: Entry = {
      key,
      version,
      headers: storedHeaders,
      etag: `"${Bun.hash(body).toString(36)}-${body.length.toString(36)}"`,
      bodies: {
        identity: body,
        gzip: new Uint8Array(Bun.gzipSync(body)),
        br: new Uint8Array(
          brotliCompressSync(body, { params: { [zlib.BROTLI_PARAM_QUALITY]: 9 } }),
        ),
      },
      bytes: 0,
    };
    entry.bytes =
      entry.bodies.identity.length + entry.bodies.gzip.length + entry.bodies.br.length + 512;
    return { response: null, entry };
  }

  function respond(entry: Entry, request: Request): Response {
    const headers = new Headers(entry.headers);
    headers.set('etag', entry.etag);
    headers.set('cache-control', PUBLIC_CACHE_CONTROL);
    headers.set('vary', 'Accept-Encoding');
    headers.set('x-folio-cache', 'hit');
    if ((request.headers.get('if-none-match') ?? '').split(/\s*,\s*/).includes(entry.etag)) {
      return new Response(null, { status: 304, headers });
    }
    const encoding = preferredEncoding(request);
    if (encoding !== 'identity') headers.set('content-encoding', encoding);
    const body = entry.bodies[encoding];
    headers.set('content-length', String(body.length));
    return new Response(request.method === 'HEAD' ? null : body, { status: 200, headers });
  }

  return {
    get size() {
      return { entries: entries.size, bytes: totalBytes };
    },
    clear() {
      entries.clear();
      totalBytes = 0;
    },
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
      const cached = entries.get(key);
      if (cached && cached.version === version) {
        remember(cached);
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
