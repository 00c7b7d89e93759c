// Owns the in-memory cache of public page responses (HTML and page data): stored with the
// content version they were made at, kept while no later version changed their page
// (docs/decisions/0028), with a strong ETag per content coding and bodies compressed once,
// served before Waku runs. Only responses a published page proved real are stored, so junk addresses
// and query strings cannot fill it.
import 'server-only';
import { brotliCompressSync, constants as zlib } from 'node:zlib';
import { ETAGS_HEADER, pagePathOfPageData } from '../waku/internals';
import { NO_STORE, PUBLIC_CACHE_HEADERS, setPublicCacheHeaders } from './cache-headers';
import { chooseEncoding, clientCopyIsCurrent, type Encoding } from './negotiation';
import { PAGE_VARY } from './page-data-address';
import { type PublicQuery, publicQueryOf, publicQueryOfPageData } from './public-params';
import { currentRequestContext } from './request-context';
import { HOME_SLUG, isReservedSlug, isValidSlug, SESSION_COOKIE } from './routes';
import { OPENER_ISOLATION, SECURITY_HEADERS } from './security-headers';
import { CACHE_TAG_HEADER, pageKeyHeaders, SURROGATE_KEY_HEADER } from './surrogate-keys';

const DEFAULT_MAX_BYTES = 64 * 1024 * 1024;
/**
 * Pages are compressed once per render, and a publish re-renders: quality 5 makes a 25 KB page
 * 0.9 % larger than quality 9 (5 419 bytes against 5 373) in a seventh of the time (2 ms against
 * 15 ms; it was two-thirds of the server's CPU per publish → visible at 10 000 pages).
 */
const BROTLI_QUALITY = 5;
const ETAG_SUFFIX: Record<Encoding, string> = { identity: '', gzip: '-gz', br: '-br' };
const SESSION_COOKIE_PAIR = `${SESSION_COOKIE}=`;

type Variant = {
  etag: string;
  /** A Response made from a Blob shares it instead of copying the bytes. */
  blob: Blob;
  /** Built once at store time: a hit only picks them. */
  headers: Headers;
  notModified: Headers;
};
type Entry = {
  key: string;
  /** The page it shows: what a content change names. */
  slug: string;
  /** The content version when its render began: it shows every change up to that one. */
  version: number;
  /** Brotli is added after the first response (see `withBrotli`). */
  variants: Record<Exclude<Encoding, 'br'>, Variant> & { br?: Variant };
  /** What the brotli copy is made from, until it is made. */
  pending: { body: Uint8Array<ArrayBuffer>; kept: [string, string][]; base: string } | null;
  /** Bodies, key and headers: what the entry really costs in memory. */
  bytes: number;
  /** Recency for LRU eviction; a hit only bumps this number. */
  lastUsed: number;
};

export type RenderCacheOptions = {
  /** The content version now. */
  contentVersion: () => number;
  /**
   * Whether an entry made at `version` for the page `slug` may still be served. Without it,
   * only an entry made at the current version is.
   */
  stillCurrent?: (version: number, slug: string) => boolean;
  maxBytes?: number;
  enabled?: boolean;
};

/**
 * The cache key of a request that may be served from cache, or null: GET/HEAD without an
 * editor's session, for `/`, a public page or a public page's data, with the one parameter
 * that names another answer kept (a listing's page number); a search is never cached.
 */
export function cacheKeyOf(request: Request): string | null {
  if (request.method !== 'GET' && request.method !== 'HEAD') return null;
  if (request.headers.get('cookie')?.includes(SESSION_COOKIE_PAIR)) return null;
  // Split the URL by hand: this runs on every request, and new URL() is the costliest step.
  const raw = request.url;
  if (!raw.startsWith('http')) return null;
  const pathStart = raw.indexOf('/', raw.indexOf('//') + 2);
  if (pathStart === -1) return null;
  const queryStart = raw.indexOf('?', pathStart);
  const path = queryStart === -1 ? raw.slice(pathStart) : raw.slice(pathStart, queryStart);
  const query = queryStart === -1 ? '' : raw.slice(queryStart + 1);
  // Public pages keep only the parameters they take (public-params.ts), so every spelling is
  // the same page and one entry serves them all: tracking parameters and junk are dropped
  // (keyed by the whole query, junk parameters made a full render each — fourth hostile
  // review: 300 clients that never read held 500 MB and a visitor's page for 11 s). A
  // listing's page number is part of the key; a search is never stored (its words are
  // anyone's, and each is its own answer).
  if (isPublicPagePath(path)) {
    if (query === '') return `doc ${path}`;
    return keyWithQuery(`doc ${path}`, publicQueryOf(path, query));
  }
  const pagePath = pagePathOfPageData(path);
  if (pagePath === null || !isPublicPagePath(pagePath)) return null;
  if (query === '') return `rsc ${path}`;
  return keyWithQuery(`rsc ${path}`, publicQueryOfPageData(path, query));
}

function keyWithQuery(key: string, kept: PublicQuery | null): string | null {
  if (!kept?.ok || kept.params.q !== null) return null;
  return kept.canonical === '' ? key : `${key}?${kept.canonical}`;
}

/** The page a cache key shows (`/` shows the home page). */
function slugOfKey(key: string): string {
  const query = key.indexOf('?');
  const address = query === -1 ? key : key.slice(0, query);
  const path = address.startsWith('rsc ')
    ? (pagePathOfPageData(address.slice(4)) ?? '/')
    : address.slice(4);
  return path === '/' ? HOME_SLUG : path.slice(1);
}

function isPublicPagePath(path: string): boolean {
  if (path === '/') return true;
  const slug = path.slice(1);
  return isValidSlug(slug) && !isReservedSlug(slug);
}

/** The render of this request showed a published page and did not fail part-way. */
function renderProvedReal(): boolean {
  const context = currentRequestContext();
  return context?.renderedPublicPage !== undefined && !context.renderFailed;
}

/**
 * What shared caches may do with a public response that is not stored here: keep a real page
 * like a stored one; never keep a failed render, or a "no such page" payload that would
 * outlive the page's publication.
 */
function markForSharedCaches(response: Response): void {
  if (renderProvedReal()) setPublicCacheHeaders(response.headers);
  else response.headers.set('cache-control', NO_STORE);
}

function isStorable(response: Response): boolean {
  if (response.status !== 200 || response.headers.has('set-cookie')) return false;
  if (/private|no-store/.test(response.headers.get('cache-control') ?? '')) return false;
  const type = response.headers.get('content-type') ?? '';
  return type.startsWith('text/html') || type.startsWith('text/x-component');
}

const UNCACHED_HEADERS = new Set([
  'content-length',
  'content-encoding',
  'etag',
  ...Object.keys(PUBLIC_CACHE_HEADERS),
  'date',
  'vary',
  // Set from the entry's key when it is built (pageKeyHeaders), whatever the render said.
  SURROGATE_KEY_HEADER,
  CACHE_TAG_HEADER,
  ...Object.keys(SECURITY_HEADERS),
  // Public pages only are stored, and they go without it (isolatedFromOpeners).
  OPENER_ISOLATION[0],
]);

export function createRenderCache({
  contentVersion: readVersion,
  stillCurrent,
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

  /** Whether what was made at `version` for `slug` may be served; false when the version
   * cannot be read. */
  function current(version: number, slug: string): boolean {
    const now = contentVersion();
    if (now === null) return false;
    if (version === now) return true;
    try {
      return stillCurrent?.(version, slug) ?? false;
    } catch {
      return false;
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

  function forget(entry: Entry) {
    entries.delete(entry.key);
    totalBytes -= entry.bytes;
  }

  function remember(entry: Entry) {
    const previous = entries.get(entry.key);
    if (previous) forget(previous);
    entries.set(entry.key, entry);
    totalBytes += entry.bytes;
    touch(entry);
    evict();
  }

  function evict() {
    // The least recently used first; a scan is fine, since it only runs when a page is stored.
    while (totalBytes > maxBytes && entries.size > 0) {
      let oldest: Entry | undefined;
      for (const candidate of entries.values())
        if (!oldest || candidate.lastUsed < oldest.lastUsed) oldest = candidate;
      if (!oldest) break;
      forget(oldest);
    }
  }

  /** One coding's copy of a body, with its headers built once; and what it costs in memory. */
  function variantOf(
    kept: [string, string][],
    base: string,
    encoding: Encoding,
    body: Uint8Array<ArrayBuffer>,
  ): { variant: Variant; bytes: number } {
    const etag = `"${base}${ETAG_SUFFIX[encoding]}"`;
    const common: [string, string][] = [
      ...kept,
      ...Object.entries(SECURITY_HEADERS),
      ['etag', etag],
      ...Object.entries(PUBLIC_CACHE_HEADERS),
      ['vary', PAGE_VARY],
      ['x-folio-cache', 'hit'],
    ];
    const withBody: [string, string][] = [
      ...common,
      ...(encoding === 'identity' ? [] : ([['content-encoding', encoding]] as [string, string][])),
      ['content-length', String(body.length)],
    ];
    let bytes = body.length;
    for (const [name, value] of [...common, ...withBody]) bytes += name.length + value.length;
    return {
      variant: {
        etag,
        blob: new Blob([body]),
        headers: new Headers(withBody),
        notModified: new Headers(common),
      },
      bytes,
    };
  }

  /**
   * The entry of a render, without its brotli copy: brotli is made after the response that
   * rendered it has gone, so the first visitor after a publish does not wait for it (issue 25:
   * publish → visible); that visitor gets gzip (0.3 ms for a 25 KB page).
   */
  function buildEntry(
    key: string,
    version: number,
    response: Response,
    body: Uint8Array<ArrayBuffer>,
  ): Entry {
    const slug = slugOfKey(key);
    const kept: [string, string][] = [
      ...[...response.headers].filter(([name]) => !UNCACHED_HEADERS.has(name)),
      // The shared cache's keys, stored with the entry (decision 0045): a hit computes none.
      ...pageKeyHeaders(slug),
    ];
    const base = `${Bun.hash(body).toString(36)}-${body.length.toString(36)}`;
    const identity = variantOf(kept, base, 'identity', new Uint8Array(body));
    const gzip = variantOf(kept, base, 'gzip', new Uint8Array(Bun.gzipSync(body)));
    return {
      key,
      slug,
      version,
      variants: { identity: identity.variant, gzip: gzip.variant },
      pending: { body, kept, base },
      bytes: key.length * 2 + 256 + identity.bytes + gzip.bytes,
      lastUsed: 0,
    };
  }

  /** Makes the entry's brotli copy if it has none yet; once per entry. */
  function withBrotli(entry: Entry): Variant {
    if (entry.variants.br) return entry.variants.br;
    // Never without its source (it goes when the copy is made); gzip if it ever were.
    if (!entry.pending) return entry.variants.gzip;
    const { body, kept, base } = entry.pending;
    const br = variantOf(
      kept,
      base,
      'br',
      new Uint8Array(
        brotliCompressSync(body, {
          params: {
            [zlib.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY,
            [zlib.BROTLI_PARAM_SIZE_HINT]: body.length,
          },
        }),
      ),
    );
    entry.variants.br = br.variant;
    entry.pending = null;
    // Counted only while it is stored (an entry replaced or evicted meanwhile is gone).
    if (entries.get(entry.key) === entry) {
      entry.bytes += br.bytes;
      totalBytes += br.bytes;
      evict();
    }
    return br.variant;
  }

  /** After the response that made it has gone: the brotli copy, off that visitor's path. */
  function brotliLater(entry: Entry) {
    setTimeout(() => {
      if (entries.get(entry.key) === entry) withBrotli(entry);
    }, 0);
  }

  async function render(key: string, version: number, request: Request, handler: Handler) {
    // The browser lists the elements it already holds; a stored payload must be the full one.
    const headers = new Headers(request.headers);
    headers.delete(ETAGS_HEADER);
    const bare = new Request(request.url, {
      method: request.method,
      headers,
      signal: request.signal,
    });
    const response = await handler(bare);
    if (!isStorable(response)) return { response, entry: null };
    const body = new Uint8Array(await response.arrayBuffer());
    // A change to this page while it rendered: what was read may be either side of it.
    if (!renderProvedReal() || !current(version, slugOfKey(key))) {
      const uncached = new Response(body, response);
      markForSharedCaches(uncached);
      return { response: uncached, entry: null };
    }
    return { response: null, entry: buildEntry(key, version, response, body) };
  }

  /** The stored response for this request; `fresh`: the one that rendered it (no brotli yet). */
  function respond(entry: Entry, request: Request, fresh = false): Response {
    const accepted = request.headers.get('accept-encoding');
    let encoding = chooseEncoding(accepted);
    // The rendering request takes gzip rather than wait for brotli, if gzip is acceptable.
    if (
      fresh &&
      encoding === 'br' &&
      !entry.variants.br &&
      chooseEncoding(accepted, true, false) === 'gzip'
    )
      encoding = 'gzip';
    const variant = encoding === 'br' ? withBrotli(entry) : entry.variants[encoding];
    if (clientCopyIsCurrent(request, variant.etag))
      return new Response(null, { status: 304, headers: variant.notModified });
    // The miss that rendered this entry answered gzip (brotli came after): a client holding
    // that copy, which it may still take, has a current one. 304, naming its copy's tag.
    if (
      encoding === 'br' &&
      chooseEncoding(accepted, true, false) === 'gzip' &&
      clientCopyIsCurrent(request, entry.variants.gzip.etag)
    )
      return new Response(null, { status: 304, headers: entry.variants.gzip.notModified });
    return new Response(request.method === 'HEAD' ? null : variant.blob, {
      status: 200,
      headers: variant.headers,
    });
  }

  type Handler = (request: Request) => Promise<Response>;

  return {
    get size() {
      return { entries: entries.size, bytes: totalBytes };
    },
    clear() {
      entries.clear();
      totalBytes = 0;
    },

    /** A cached response for this request if there is a current one; never renders. */
    lookup(request: Request): Response | null {
      if (!enabled) return null;
      const key = cacheKeyOf(request);
      if (key === null) return null;
      const entry = entries.get(key);
      if (!entry || !current(entry.version, entry.slug)) return null;
      touch(entry);
      return respond(entry, request);
    },

    /** Answers from the cache, or renders through `handler` and stores what may be stored. */
    async handle(request: Request, handler: Handler): Promise<Response> {
      const key = enabled ? cacheKeyOf(request) : null;
      if (key === null) {
        const response = await handler(request);
        if (cacheKeyOf(request) !== null && isStorable(response)) markForSharedCaches(response);
        return response;
      }
      const version = contentVersion();
      if (version === null) return handler(request);
      const cached = entries.get(key);
      if (cached && current(cached.version, cached.slug)) {
        touch(cached);
        return respond(cached, request);
      }
      // One render per key at a time: concurrent misses wait for the first.
      const pending = inFlight.get(key);
      if (pending) {
        const entry = await pending;
        if (entry && current(entry.version, entry.slug)) return respond(entry, request);
        return handler(request);
      }
      let settle: (entry: Entry | null) => void = () => undefined;
      inFlight.set(key, new Promise((resolve) => (settle = resolve)));
      try {
        const { response, entry } = await render(key, version, request, handler);
        settle(entry);
        if (!entry) return response ?? handler(request);
        remember(entry);
        const fresh = respond(entry, request, true);
        fresh.headers.set('x-folio-cache', 'miss');
        brotliLater(entry);
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
