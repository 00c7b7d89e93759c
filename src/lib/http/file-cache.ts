// Owns the server's cache of the files it generates for visitors' software (the feed, the
// sitemap and its parts): each body is built once per content version and key and kept in
// memory, and its ETag is made from the content version and the key, not from the body — so a
// client whose copy is current gets its 304 before anything is read or built, on any instance
// (they share the version) and after a restart. The key names the origin the file was built
// for (SITE_URL, or the request's own), so a foreign Host can never change what others get.
// A client that takes gzip gets the body gzipped, made once per build and kept beside it, under its own ETag (`…-gz"`): a sitemap file of 50 000 addresses is 4 MB as
// text and a tenth of it gzipped; the API's JSON and the feed shrink as much.
import 'server-only';
import { currentContentVersion } from '../data/content-version';
import { getEnv } from '../runtime/env';
import { processSingleton } from '../runtime/process-singleton';
import { chooseEncoding, clientCopyIsCurrent } from './negotiation';

/** A built file, or null: nothing there (a 404, kept like a file so junk costs one build). */
export type BuiltFile = { body: string; contentType: string } | null;

type Entry = {
  version: number;
  file: BuiltFile;
  bytes: number;
  etag: string;
  /** The body gzipped, made with it (nearly every client takes gzip), or null when small. */
  gzip: Uint8Array<ArrayBuffer> | null;
};

/** Smaller bodies go as they are: gzip's header and a round of work save nothing there. */
const MIN_GZIP_BYTES = 1_024;

/** The tag of a body's gzipped copy: another representation, another strong tag. */
const gzipTag = (etag: string) => `${etag.slice(0, -1)}-gz"`;

export type FileCacheOptions = {
  /** The content version; throws when none is followed (then nothing is cached). */
  contentVersion?: () => number;
  /** How many files are kept (a site's feed and sitemap files, per origin asked for). */
  maxEntries?: number;
  /** Their bodies' total size. */
  maxBytes?: number;
  enabled?: boolean;
};

const NOT_FOUND = 'Not found.\n';

export function createFileCache({
  contentVersion = currentContentVersion,
  maxEntries = 64,
  maxBytes = 64 * 1024 * 1024,
  enabled = true,
}: FileCacheOptions = {}) {
  // A Map in insertion order: a hit moves its entry to the end, so the first is the oldest.
  const entries = new Map<string, Entry>();
  const inFlight = new Map<string, Promise<Entry>>();
  let totalBytes = 0;
  let builds = 0;

  function versionNow(): number | null {
    if (!enabled) return null;
    try {
      return contentVersion();
    } catch {
      return null;
    }
  }

  function forget(key: string) {
    const entry = entries.get(key);
    if (!entry) return;
    entries.delete(key);
    totalBytes -= entry.bytes;
  }

  function remember(key: string, entry: Entry) {
    forget(key);
    // Files of an older version are never served again: drop them all at once.
    for (const [other, kept] of entries) if (kept.version !== entry.version) forget(other);
    entries.set(key, entry);
    totalBytes += entry.bytes;
    for (const oldest of entries.keys()) {
      if (entries.size <= maxEntries && totalBytes <= maxBytes) break;
      forget(oldest);
    }
  }

  function respond(request: Request, entry: Entry, headers: Record<string, string>): Response {
    if (!entry.file)
      return new Response(NOT_FOUND, {
        status: 404,
        headers: { 'content-type': 'text/plain; charset=utf-8' },
      });
    const { body } = entry.file;
    const gzip = entry.gzip;
    const gzipped =
      gzip !== null &&
      chooseEncoding(request.headers.get('accept-encoding'), true, false) === 'gzip';
    const etag = gzipped ? gzipTag(entry.etag) : entry.etag;
    const common = { etag, vary: 'Accept-Encoding', ...headers };
    if (clientCopyIsCurrent(request, etag))
      return new Response(null, { status: 304, headers: common });
    if (!gzipped)
      return new Response(body, { headers: { 'content-type': entry.file.contentType, ...common } });
    return new Response(gzip, {
      headers: {
        'content-type': entry.file.contentType,
        'content-encoding': 'gzip',
        ...common,
      },
    });
  }

  async function build(key: string, version: number | null, make: () => Promise<BuiltFile>) {
    builds += 1;
    const file = await make();
    const gzip =
      file && file.body.length >= MIN_GZIP_BYTES
        ? (Bun.gzipSync(file.body) as Uint8Array<ArrayBuffer>)
        : null;
    const bytes = key.length * 2 + (file ? file.body.length * 2 : 0) + (gzip?.byteLength ?? 0);
    // Without a version (development, a cache turned off) the tag is the body's own hash.
    const tag =
      version === null
        ? `b${Bun.hash(file?.body ?? '').toString(36)}`
        : `v${version}-${Bun.hash(key).toString(36)}`;
    return { version: version ?? -1, file, bytes, etag: `"${tag}"`, gzip };
  }

  return {
    /** How many files were built (tests: a 304 or a hit builds nothing). */
    get builds() {
      return builds;
    },
    clear() {
      entries.clear();
      totalBytes = 0;
    },

    /**
     * The file `key` names, from memory when this content version's copy is kept, else built
     * by `make` (once, however many ask at the same time) and kept. `headers` go on a 200 and a
     * 304 (caching headers). A 304 is decided before `make` runs only when the caller knows
     * the key names a file whatever the content (`alwaysThere`): for one that may be missing
     * (a slug, a filter) `If-None-Match: *` or a tag matches only a file that is there
     * (RFC 9110 13.1.2), and a 404 is never a 304.
     */
    async serve(
      request: Request,
      key: string,
      make: () => Promise<BuiltFile>,
      headers: Record<string, string>,
      { alwaysThere = false }: { alwaysThere?: boolean } = {},
    ): Promise<Response> {
      const version = versionNow();
      if (version === null) return respond(request, await build(key, null, make), headers);
      const etag = `"v${version}-${Bun.hash(key).toString(36)}"`;
      const kept = entries.get(key);
      if (kept && kept.version === version) {
        // Most recently used goes last.
        entries.delete(key);
        entries.set(key, kept);
        return respond(request, kept, headers);
      }
      // A copy of this version of a file that is always there is current: no need to build it
      // to say so.
      if (alwaysThere)
        for (const tag of [etag, gzipTag(etag)])
          if (clientCopyIsCurrent(request, tag))
            return new Response(null, {
              status: 304,
              headers: { etag: tag, vary: 'Accept-Encoding', ...headers },
            });
      let pending = inFlight.get(key);
      if (!pending) {
        pending = build(key, version, make).finally(() => inFlight.delete(key));
        inFlight.set(key, pending);
      }
      const entry = await pending;
      // Kept only while still current: a publish during the build makes it stale at once.
      if (entry.version === versionNow() && entry.bytes <= maxBytes) remember(key, entry);
      return respond(request, entry, headers);
    },
  };
}

export type FileCache = ReturnType<typeof createFileCache>;

/** The process's cache of generated files; off with the render cache (FOLIO_RENDER_CACHE). */
export function fileCache(): FileCache {
  return processSingleton('file-cache', () =>
    createFileCache({ enabled: getEnv().FOLIO_RENDER_CACHE !== 'off' }),
  );
}
