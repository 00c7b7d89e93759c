// Owns the build's hashed assets (dist/public/assets): read and compressed once at start-up,
// answered from memory with brotli or gzip and `immutable` caching. Their names change with
// their content, so a browser never needs to ask twice. Anything else under /assets/ falls
// through to Waku (a 404).
import 'server-only';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants as zlib } from 'node:zlib';
import { IMMUTABLE_CACHE_CONTROL } from './cache-headers';
import { chooseEncoding, clientCopyIsCurrent, type Encoding } from './negotiation';
import { SECURITY_HEADERS } from './security-headers';

type Variant = { etag: string; blob: Blob; headers: Headers; notModified: Headers };
type Asset = { compressible: boolean; variants: Record<Encoding, Variant> };

// Below this size compression saves less than its headers and a decoder's start-up cost.
const MIN_COMPRESSIBLE_BYTES = 512;
const COMPRESSIBLE = /\.(js|mjs|css|svg|json|txt|map|html|xml)$/;

function loadAsset(file: string): Asset {
  const bytes = new Uint8Array(readFileSync(file));
  const type = Bun.file(file).type;
  const base = Bun.hash(bytes).toString(36);
  const compressible = COMPRESSIBLE.test(file) && bytes.length >= MIN_COMPRESSIBLE_BYTES;
  const bodies: Record<Encoding, Uint8Array<ArrayBuffer>> = {
    identity: bytes,
    gzip: compressible ? new Uint8Array(Bun.gzipSync(bytes, { level: 9 })) : bytes,
    // Quality 9 compresses every asset of the build in tens of milliseconds; 11 would take
    // most of a second of start-up for a few per cent.
    br: compressible
      ? new Uint8Array(brotliCompressSync(bytes, { params: { [zlib.BROTLI_PARAM_QUALITY]: 9 } }))
      : bytes,
  };
  const identity = new Blob([bodies.identity]);
  const variant = (encoding: Encoding): Variant => {
    const coded = compressible && encoding !== 'identity';
    const etag = `"${base}${coded ? `-${encoding}` : ''}"`;
    const common = {
      ...SECURITY_HEADERS,
      'content-type': type,
      'cache-control': IMMUTABLE_CACHE_CONTROL,
      etag,
      ...(compressible ? { vary: 'Accept-Encoding' } : {}),
    };
    return {
      etag,
      // Files left uncompressed share one Blob for every encoding.
      blob: coded ? new Blob([bodies[encoding]]) : identity,
      headers: new Headers({ ...common, ...(coded ? { 'content-encoding': encoding } : {}) }),
      notModified: new Headers(common),
    };
  };
  return {
    compressible,
    variants: { identity: variant('identity'), gzip: variant('gzip'), br: variant('br') },
  };
}

/** Loads every file of `dir` (not recursive: the build's assets are one flat folder). */
export function loadStaticAssets(dir: string, urlPrefix = '/assets/') {
  const assets = new Map<string, Asset>();
  let entries: string[] = [];
  try {
    entries = readdirSync(dir);
  } catch {
    // No build output (tests, `waku dev`): nothing to serve from memory.
  }
  for (const name of entries) {
    const file = path.join(dir, name);
    if (statSync(file).isFile()) assets.set(`${urlPrefix}${name}`, loadAsset(file));
  }

  return {
    size: assets.size,
    /** The asset's response, or null when this request is not for one of them. */
    lookup(request: Request): Response | null {
      if (request.method !== 'GET' && request.method !== 'HEAD') return null;
      const raw = request.url;
      const pathStart = raw.indexOf('/', raw.indexOf('//') + 2);
      const queryStart = raw.indexOf('?', pathStart);
      const asset = assets.get(raw.slice(pathStart, queryStart === -1 ? undefined : queryStart));
      if (!asset) return null;
      const variant =
        asset.variants[chooseEncoding(request.headers.get('accept-encoding'), asset.compressible)];
      if (clientCopyIsCurrent(request, variant.etag))
        return new Response(null, { status: 304, headers: variant.notModified });
      return new Response(request.method === 'HEAD' ? null : variant.blob, {
        headers: variant.headers,
      });
    },
  };
}

export type StaticAssets = ReturnType<typeof loadStaticAssets>;
