// Owns the build's hashed assets (dist/public/assets): read and compressed once at start-up,
// answered from memory with brotli or gzip and `immutable` caching. Their names change with
// their content, so a browser never needs to ask twice. Anything else under /assets/ falls
// through to Waku (a 404).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants as zlib } from 'node:zlib';
import { BASE_HEADERS } from './front-door';
import { type Encoding, preferredEncoding } from './render-cache';

export const IMMUTABLE_CACHE_CONTROL = 'public, max-age=31536000, immutable';

type Asset = { etag: string; blobs: Record<Encoding, Blob>; headers: Record<Encoding, Headers> };

// Below this size compression saves less than its headers and a decoder's start-up cost.
const MIN_COMPRESSIBLE_BYTES = 512;
const COMPRESSIBLE = /\.(js|mjs|css|svg|json|txt|map|html|xml)$/;

function loadAsset(file: string): Asset {
  const bytes = new Uint8Array(readFileSync(file));
  const type = Bun.file(file).type;
  const etag = `"${Bun.hash(bytes).toString(36)}"`;
  const compress = COMPRESSIBLE.test(file) && bytes.length >= MIN_COMPRESSIBLE_BYTES;
  const bodies: Record<Encoding, Uint8Array<ArrayBuffer>> = {
    identity: bytes,
    gzip: compress ? new Uint8Array(Bun.gzipSync(bytes, { level: 9 })) : bytes,
    // Quality 9 compresses every asset of the build in tens of milliseconds; 11 would take
    // most of a second of start-up for a few per cent.
    br: compress
      ? new Uint8Array(brotliCompressSync(bytes, { params: { [zlib.BROTLI_PARAM_QUALITY]: 9 } }))
      : bytes,
  };
  const headersFor = (encoding: Encoding) =>
    new Headers({
      ...BASE_HEADERS,
      'content-type': type,
      'cache-control': IMMUTABLE_CACHE_CONTROL,
      etag,
      ...(compress ? { vary: 'accept-encoding' } : {}),
      ...(compress && encoding !== 'identity' ? { 'content-encoding': encoding } : {}),
    });
  const identity = new Blob([bodies.identity]);
  return {
    etag,
    // Files left uncompressed share one Blob for every encoding.
    blobs: compress
      ? { identity, gzip: new Blob([bodies.gzip]), br: new Blob([bodies.br]) }
      : { identity, gzip: identity, br: identity },
    headers: { identity: headersFor('identity'), gzip: headersFor('gzip'), br: headersFor('br') },
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
      const { pathname } = new URL(request.url);
      const asset = assets.get(pathname);
      if (!asset) return null;
      const encoding = preferredEncoding(request);
      const headers = asset.headers[encoding];
      if (
        request.headers
          .get('if-none-match')
          ?.split(/\s*,\s*/)
          .includes(asset.etag)
      ) {
        return new Response(null, { status: 304, headers });
      }
      return new Response(request.method === 'HEAD' ? null : asset.blobs[encoding], { headers });
    },
  };
}

export type StaticAssets = ReturnType<typeof loadStaticAssets>;
