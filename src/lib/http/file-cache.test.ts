import { describe, expect, test } from 'bun:test';
import { type BuiltFile, createFileCache } from './file-cache';

// The feed and the sitemap are built once per content version and key, and a client whose copy
// is current gets its 304 before anything is built (issue 25: the feed's 304 was decided after
// a sort of the whole table).
const HEADERS = { 'cache-control': 'public, max-age=0' };
const xml = (body: string): BuiltFile => ({ body, contentType: 'application/xml' });

function setup(options: { maxEntries?: number; enabled?: boolean } = {}) {
  let version = 7;
  const cache = createFileCache({ contentVersion: () => version, ...options });
  let made = 0;
  const make = async () => {
    made += 1;
    return xml(`<feed n="${made}"/>`);
  };
  const get = (key: string, etag?: string, build = make, alwaysThere = true) =>
    cache.serve(
      new Request('http://x/feed.xml', { headers: etag ? { 'if-none-match': etag } : {} }),
      key,
      build,
      HEADERS,
      { alwaysThere },
    );
  return { cache, get, made: () => made, publish: () => (version += 1) };
}

describe('file cache', () => {
  test('builds once per version; a current copy gets its 304 without a build, even first', async () => {
    const { get, made, publish } = setup();
    const first = await get('feed a');
    const etag = first.headers.get('etag') ?? '';
    expect(first.status).toBe(200);
    expect(await first.text()).toBe('<feed n="1"/>');
    expect(first.headers.get('cache-control')).toBe(HEADERS['cache-control']);
    expect((await get('feed a')).status).toBe(200);
    const notModified = await get('feed a', etag);
    expect(notModified.status).toBe(304);
    expect(notModified.headers.get('etag')).toBe(etag);
    expect(made()).toBe(1);

    // Another process (a restart) with nothing kept: the tag is the version's, so it is known
    // before any work.
    const fresh = setup();
    expect((await fresh.get('feed a', etag)).status).toBe(304);
    expect(fresh.made()).toBe(0);

    publish();
    const changed = await get('feed a', etag);
    expect(changed.status).toBe(200);
    expect(changed.headers.get('etag')).not.toBe(etag);
    expect(await changed.text()).toBe('<feed n="2"/>');
  });

  test('keys (origins, files) are kept apart; concurrent misses build once; old versions go', async () => {
    const { cache, get, made, publish } = setup({ maxEntries: 2 });
    const [a, b] = await Promise.all([get('feed a'), get('feed a')]);
    expect(await a.text()).toBe(await b.text());
    expect(made()).toBe(1);
    const other = await get('feed b');
    expect(other.headers.get('etag')).not.toBe(a.headers.get('etag'));
    expect(made()).toBe(2);
    // Bounded: a third key pushes out the least recently used.
    await get('feed c');
    await get('feed a');
    expect(made()).toBe(4);
    expect(cache.builds).toBe(4);
    publish();
    await get('feed a');
    expect(made()).toBe(5);
  });

  test('a missing file is a 404 without a tag; off, every request builds', async () => {
    const { get } = setup();
    const missing = await get('sitemap 9', undefined, async () => null);
    expect(missing.status).toBe(404);
    expect(missing.headers.get('etag')).toBeNull();

    // A file that may be missing is looked at first: `*` or a tag of this version matches only
    // one that is there (issue 29: a 304 for a slug where nothing was ever published).
    const fresh = setup();
    const nothing = async () => null;
    // The tag this version would give the key, as an earlier 304 printed it.
    for (const asked of ['*', `"v7-${Bun.hash('topic gone').toString(36)}"`]) {
      expect((await fresh.get('topic gone', asked, nothing, false)).status).toBe(404);
    }
    expect((await fresh.get('feed a', '*', undefined, false)).status).toBe(304);
    expect(fresh.made()).toBe(1);

    const off = setup({ enabled: false });
    const first = await off.get('feed a');
    const etag = first.headers.get('etag') ?? '';
    expect((await off.get('feed a', etag)).status).toBe(200);
    expect(off.made()).toBe(2);
  });
});

describe('file cache: gzip', () => {
  const big = `<urlset>${'<url><loc>https://example.com/a-page</loc></url>'.repeat(200)}</urlset>`;
  const ask = (
    cache: ReturnType<typeof createFileCache>,
    headers: Record<string, string>,
    body = big,
  ) =>
    cache.serve(
      new Request('http://x/sitemap.xml', { headers }),
      `sitemap ${body.length}`,
      async () => xml(body),
      HEADERS,
      { alwaysThere: true },
    );

  test('a client that takes gzip gets the body gzipped, under a tag of its own', async () => {
    const cache = createFileCache({ contentVersion: () => 3 });
    const gzipped = await ask(cache, { 'accept-encoding': 'gzip, deflate, br' });
    expect(gzipped.headers.get('content-encoding')).toBe('gzip');
    expect(gzipped.headers.get('vary')).toBe('Accept-Encoding');
    const bytes = new Uint8Array(await gzipped.arrayBuffer());
    expect(bytes.byteLength).toBeLessThan(big.length / 10);
    expect(new TextDecoder().decode(Bun.gunzipSync(bytes))).toBe(big);
    const plain = await ask(cache, {});
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(plain.headers.get('vary')).toBe('Accept-Encoding');
    expect(await plain.text()).toBe(big);
    const gzipTag = gzipped.headers.get('etag') ?? '';
    expect(gzipTag).toMatch(/-gz"$/);
    expect(gzipTag).not.toBe(plain.headers.get('etag'));
    // Each copy's tag is current for its own kind of client.
    expect((await ask(cache, { 'accept-encoding': 'gzip', 'if-none-match': gzipTag })).status).toBe(
      304,
    );
    expect((await ask(cache, { 'if-none-match': gzipTag })).status).toBe(200);
    // Before any build (another process): the gzipped copy's tag is known too.
    const other = createFileCache({ contentVersion: () => 3 });
    const early = await ask(other, { 'accept-encoding': 'gzip', 'if-none-match': gzipTag });
    expect(early.status).toBe(304);
    expect(early.headers.get('etag')).toBe(gzipTag);
  });

  test('a small body and a client that refuses gzip get it as it is', async () => {
    const cache = createFileCache({ contentVersion: () => 3 });
    const small = await ask(cache, { 'accept-encoding': 'gzip' }, '<feed/>');
    expect(small.headers.get('content-encoding')).toBeNull();
    expect(await small.text()).toBe('<feed/>');
    const refused = await ask(cache, { 'accept-encoding': 'gzip;q=0, identity' });
    expect(refused.headers.get('content-encoding')).toBeNull();
    expect(await refused.text()).toBe(big);
  });
});
