import { describe, expect, test } from 'bun:test';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import { IMMUTABLE_CACHE_CONTROL } from './cache-headers';
import { loadStaticAssets } from './static-assets';

const SCRIPT = `export const greeting = ${JSON.stringify('hello '.repeat(400))};\n`;

function assetsDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'folio-assets-'));
  writeFileSync(path.join(dir, 'entry-AbCd1234.js'), SCRIPT);
  writeFileSync(path.join(dir, 'tiny-AbCd1234.js'), 'export{};');
  writeFileSync(path.join(dir, 'logo-AbCd1234.png'), new Uint8Array(2048).fill(7));
  mkdirSync(path.join(dir, 'nested'));
  return dir;
}

const get = (url: string, headers: Record<string, string> = {}, method = 'GET') =>
  new Request(`http://localhost${url}`, { method, headers });

describe('static assets', () => {
  const assets = loadStaticAssets(assetsDir());

  test('loads the files of the folder, not its sub-folders', () => {
    expect(assets.size).toBe(3);
  });

  test('answers brotli, gzip or identity as the browser accepts, always immutable', async () => {
    const br = assets.lookup(get('/assets/entry-AbCd1234.js', { 'accept-encoding': 'gzip, br' }));
    expect(br?.status).toBe(200);
    expect(br?.headers.get('content-encoding')).toBe('br');
    expect(br?.headers.get('cache-control')).toBe(IMMUTABLE_CACHE_CONTROL);
    expect(br?.headers.get('vary')).toBe('Accept-Encoding');
    expect(br?.headers.get('content-type')).toContain('javascript');
    expect(br?.headers.get('content-security-policy')).toContain("default-src 'self'");
    const brBytes = new Uint8Array(await (br as Response).arrayBuffer());
    expect(brBytes.length).toBeLessThan(SCRIPT.length / 4);
    expect(brotliDecompressSync(brBytes).toString()).toBe(SCRIPT);

    const gzip = assets.lookup(get('/assets/entry-AbCd1234.js', { 'accept-encoding': 'gzip' }));
    expect(gzip?.headers.get('content-encoding')).toBe('gzip');
    expect(
      new TextDecoder().decode(
        Bun.gunzipSync(new Uint8Array(await (gzip as Response).arrayBuffer())),
      ),
    ).toBe(SCRIPT);

    const plain = assets.lookup(get('/assets/entry-AbCd1234.js'));
    expect(plain?.headers.get('content-encoding')).toBeNull();
    expect(await plain?.text()).toBe(SCRIPT);

    // q=0 means "never this one"; each coding has its own validator.
    const refusedBr = assets.lookup(
      get('/assets/entry-AbCd1234.js', { 'accept-encoding': 'br;q=0, gzip' }),
    );
    expect(refusedBr?.headers.get('content-encoding')).toBe('gzip');
    expect(new Set([br, gzip, plain].map((r) => r?.headers.get('etag'))).size).toBe(3);
  });

  test('leaves small and already-compressed files as they are', async () => {
    for (const name of ['tiny-AbCd1234.js', 'logo-AbCd1234.png']) {
      const response = assets.lookup(get(`/assets/${name}`, { 'accept-encoding': 'br, gzip' }));
      expect(response?.status).toBe(200);
      expect(response?.headers.get('content-encoding')).toBeNull();
      expect(response?.headers.get('cache-control')).toBe(IMMUTABLE_CACHE_CONTROL);
    }
  });

  test('answers 304 to a matching ETag and no body to HEAD', async () => {
    const first = assets.lookup(get('/assets/entry-AbCd1234.js')) as Response;
    const etag = first.headers.get('etag') as string;
    expect(etag).toMatch(/^"[0-9a-z]+"$/);
    for (const ifNoneMatch of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
      const again = assets.lookup(
        get('/assets/entry-AbCd1234.js', { 'if-none-match': ifNoneMatch }),
      );
      expect(again?.status, ifNoneMatch).toBe(304);
      expect(await again?.text()).toBe('');
    }
    const head = assets.lookup(get('/assets/entry-AbCd1234.js', {}, 'HEAD'));
    expect(head?.status).toBe(200);
    expect(await head?.text()).toBe('');
  });

  test('is not the answer for anything else', () => {
    for (const url of [
      '/assets/missing.js',
      '/assets/nested',
      '/assets/../assets/entry-AbCd1234.js.map',
      '/entry-AbCd1234.js',
      '/assets/entry-AbCd1234.js/',
    ])
      expect(assets.lookup(get(url))).toBeNull();
    expect(assets.lookup(get('/assets/entry-AbCd1234.js', {}, 'POST'))).toBeNull();
  });

  test('a missing folder means no assets, not a crash', () => {
    expect(loadStaticAssets('/nonexistent/folio-assets').size).toBe(0);
  });
});
