// What a visitor's requests get — no browser needed — against the server as the README starts
// it: addresses and redirects, generated files, cache behaviour, draft privacy, the action and
// tunnel refusals. (Moved here from the Playwright suite: none of them opens a page.)
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { type ContentStore, createContentStore } from '../../src/lib/content/content';
import { SEED_DRAFT_MARKERS } from '../../src/lib/content/seed';
import { addEditor } from '../../src/lib/editors/accounts';
import { signInWithForm } from '../forms';
import { type RunningFolio, startFolio, withStore as withStoreOf } from '../harness';
import { startEnvelopeReceiver } from '../sentry-receiver';

const DRAFT_MARKERS = Object.values(SEED_DRAFT_MARKERS);
const receiver = startEnvelopeReceiver();
let folio: RunningFolio;

beforeAll(async () => {
  folio = await startFolio({
    env: {
      SENTRY_DSN: receiver.dsn,
      WAKU_PUBLIC_SENTRY_DSN: receiver.dsn,
      SENTRY_TRACES_SAMPLE_RATE: '1',
    },
  });
}, 60_000);
afterAll(async () => {
  await folio?.stop();
  receiver.stop();
});

const get = (path: string, init: RequestInit = {}) =>
  fetch(`${folio.url}${path}`, { redirect: 'manual', ...init });

const withStore = <T>(work: (store: ContentStore) => Promise<T>): Promise<T> =>
  withStoreOf(folio, work);

describe('addresses', () => {
  test('a renamed slug answers 301 with the current slug', async () => {
    const response = await get('/style-guide');
    expect(response.status).toBe(301);
    expect(response.headers.get('location')).toBe('/editorial-guidelines');
  });

  test('trailing slashes and upper case redirect 308 to the canonical path', async () => {
    const slash = await get('/about/');
    expect(slash.status).toBe(308);
    expect(slash.headers.get('location')).toBe('/about');
    const upper = await get('/About?x=1');
    expect(upper.status).toBe(308);
    expect(upper.headers.get('location')).toBe('/about?x=1');
  });

  test('robots, sitemap and health check, GET and HEAD', async () => {
    const robots = await get('/robots.txt');
    expect(robots.status).toBe(200);
    expect(await robots.text()).toContain('Disallow: /preview');
    const sitemap = await get('/sitemap.xml');
    expect(sitemap.headers.get('content-type')).toContain('xml');
    expect(await sitemap.text()).toContain('<urlset');
    expect((await get('/healthz')).status).toBe(200);
    for (const path of ['/robots.txt', '/sitemap.xml', '/healthz'])
      expect((await get(path, { method: 'HEAD' })).status, path).toBe(200);
  });
});

describe('code', () => {
  test('fenced code is highlighted at save time, for light and dark, with no script of its own', async () => {
    await withStore((store) =>
      store.putPage(
        {
          slug: 'code-page',
          title: 'Code page',
          summary: '',
          body: '```sql\nSELECT 1; -- <script>alert(1)</script>\n```',
        },
        { publish: true },
      ),
    );
    const html = await (await get('/code-page')).text();
    const block = html.slice(html.indexOf('<pre class="shiki'), html.indexOf('</pre>') + 6);
    expect(block).toContain('--shiki-light:');
    expect(block).toContain('--shiki-dark:');
    expect(block).toContain('&#x3C;script>alert(1)&#x3C;/script>');
    expect(block).not.toContain('<script');
    // The stylesheet picks a theme by the reader's setting: both are in the page's CSS.
    expect(html).toMatch(/color:\s?var\(--shiki-light\)/);
  });

  test('the demo code, highlighted by the server on its first start, is coloured token by token', async () => {
    // At a 10 ms line limit the grammar's first compilation left the rest of the first line
    // as one uncoloured run: `greet(name: string): string {`.
    const html = await (await get('/writing-in-markdown')).text();
    const article = html.slice(html.indexOf('<article'), html.indexOf('</article>'));
    for (const token of ['greet', 'name', 'string'])
      expect(article).toMatch(new RegExp(`">\\s?${token}</span>`));
    expect(html).toMatch(/prefers-color-scheme:\s?dark[^@]*color:\s?var\(--shiki-dark\)/);
  });
});

describe('feed', () => {
  test('a reader whose copy is current gets a 304; after a publish, the new feed', async () => {
    const first = await get('/feed.xml');
    const etag = first.headers.get('etag') ?? '';
    expect(etag).toMatch(/^".+"$/);
    await first.arrayBuffer();
    const again = await get('/feed.xml', { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
    await withStore((store) =>
      store.putPage(
        { slug: 'feed-news', title: 'Feed news', summary: '', body: 'New in the feed.' },
        { publish: true },
      ),
    );
    const changed = await get('/feed.xml', { headers: { 'if-none-match': etag } });
    expect(changed.status).toBe(200);
    expect(await changed.text()).toContain('Feed news');
  });
});

describe('dates', () => {
  test('a page says when it was first published, and when it was updated on a later day', async () => {
    const db = await folio.database();
    const at = (iso: string) => createContentStore(db, () => new Date(iso));
    const fields = { slug: 'dated-page', title: 'Dated', summary: '' };
    await at('2026-01-05T10:00:00Z').putPage({ ...fields, body: 'One.' }, { publish: true });
    await at('2026-01-05T18:00:00Z').putPage({ ...fields, body: 'Two.' }, { publish: true });
    await withStore(async () => undefined); // the server has heard of both publishes
    const sameDay = await (await get('/dated-page')).text();
    expect(sameDay).toContain('Published <time dateTime="2026-01-05">January 5, 2026</time></p>');
    await at('2026-03-07T09:00:00Z').putPage({ ...fields, body: 'Three.' }, { publish: true });
    await withStore(async () => undefined);
    const later = await (await get('/dated-page')).text();
    expect(later).toContain(
      'January 5, 2026</time> · Updated <time dateTime="2026-03-07">March 7, 2026</time>',
    );
    // The home page is not an article with a date.
    expect(await (await get('/')).text()).not.toContain('class="dates"');
  });
});

describe('drafts stay private', () => {
  test('a draft-only page is a 404 and no draft text appears in any public response', async () => {
    expect((await get('/upcoming-feature')).status).toBe(404);
    const paths = [
      '/upcoming-feature',
      '/RSC/R/upcoming-feature.txt',
      '/release-notes',
      '/RSC/R/release-notes.txt',
      '/',
      '/RSC/R/_root.txt',
      '/sitemap.xml',
      '/robots.txt',
    ];
    for (const path of paths) {
      const text = await (await get(path)).text();
      for (const marker of DRAFT_MARKERS)
        expect(text.includes(marker), `${marker} in ${path}`).toBe(false);
    }
    const sitemap = await (await get('/sitemap.xml')).text();
    expect(sitemap).toContain('/release-notes</loc>');
    expect(sitemap).not.toContain('upcoming-feature');
  });

  test('no draft text reaches a visitor, even with a forged or expired session cookie', async () => {
    const cookies = [
      '',
      'folio_session=forged',
      `folio_session=${'A'.repeat(43)}`,
      'folio_session=',
    ];
    const paths = [
      '/',
      '/release-notes',
      '/upcoming-feature',
      '/RSC/R/_root.txt',
      '/RSC/R/release-notes.txt',
      '/RSC/R/upcoming-feature.txt',
      '/sitemap.xml',
      '/no-such-page',
      '/preview',
      '/preview/upcoming-feature',
      '/RSC/R/preview/upcoming-feature.txt',
    ];
    for (const cookie of cookies) {
      for (const path of paths) {
        const text = await (await get(path, { headers: cookie ? { cookie } : {} })).text();
        for (const marker of DRAFT_MARKERS)
          expect(text.includes(marker), `${marker} in ${path} with "${cookie}"`).toBe(false);
      }
    }
  });
});

describe('render cache', () => {
  test('a publish from another process is visible on the next request, HTML and page data', async () => {
    await withStore((store) =>
      store.putPage(
        { slug: 'cache-page', title: 'Cache page', summary: '', body: 'First published text.' },
        { publish: true },
      ),
    );
    expect(await (await get('/cache-page')).text()).toContain('First published text.');
    const again = await get('/cache-page');
    expect(again.headers.get('x-folio-cache')).toBe('hit');
    // Browsers revalidate each use; CDNs may serve it stale while they refresh it.
    expect(again.headers.get('cache-control')).toBe(
      'public, max-age=0, s-maxage=60, must-revalidate',
    );
    expect(again.headers.get('cdn-cache-control')).toBe(
      'public, max-age=60, stale-while-revalidate=600',
    );
    await get('/RSC/R/cache-page.txt');
    await withStore((store) =>
      store.putPage(
        { slug: 'cache-page', title: 'Cache page', summary: '', body: 'Second published text.' },
        { publish: true },
      ),
    );
    const html = await (await get('/cache-page')).text();
    expect(html).toContain('Second published text.');
    expect(html).not.toContain('First published text.');
    expect(await (await get('/RSC/R/cache-page.txt')).text()).toContain('Second published text.');
  });

  test('a matching ETag gets 304 with no body', async () => {
    const first = await get('/about');
    const etag = first.headers.get('etag') ?? '';
    expect(etag).toMatch(/^".+"$/);
    const second = await get('/about', { headers: { 'if-none-match': etag } });
    expect(second.status).toBe(304);
    expect(await second.text()).toBe('');
  });
});

describe('headers', () => {
  test('public pages go without opener isolation, missed or hit; the sign-in form and a draft keep it', async () => {
    const coop = (response: Response) => response.headers.get('cross-origin-opener-policy');
    for (const path of ['/', '/about']) {
      const first = await get(path);
      const again = await get(path);
      expect(again.headers.get('x-folio-cache'), path).toBe('hit');
      expect([coop(first), coop(again)], path).toEqual([null, null]);
      expect(again.headers.get('content-security-policy'), path).toContain(
        "frame-ancestors 'none'",
      );
    }
    expect(coop(await get('/no-such-page'))).toBeNull();
    expect(coop(await get('/preview'))).toBe('same-origin');
    expect(coop(await get('/preview/about'))).toBe('same-origin');
  });
});

describe('refusals', () => {
  test('a cross-origin action POST is 403, a GET on an action address 405', async () => {
    for (const origin of ['https://evil.example', 'null']) {
      const response = await get('/preview', {
        method: 'POST',
        headers: { origin, 'content-type': 'multipart/form-data; boundary=x' },
        body: '--x\r\nContent-Disposition: form-data; name="$ACTION_ID_abc"\r\n\r\n\r\n--x--\r\n',
      });
      expect(response.status, origin).toBe(403);
    }
    const cross = await get('/RSC/F/abc/def.txt', {
      method: 'POST',
      headers: { origin: 'https://evil.example' },
      body: '[]',
    });
    expect(cross.status).toBe(403);
    expect((await get('/RSC/F/abc/def.txt')).status).toBe(405);
  });

  test('an action header that is not an action address is refused with 400', async () => {
    const response = await get('/about', {
      method: 'POST',
      headers: { origin: folio.url, 'x-folio-action': '/etc/passwd' },
      body: '[]',
    });
    expect(response.status).toBe(400);
  });

  test('a form from an older build, without JavaScript: the out-of-date message (409)', async () => {
    await addEditor(await folio.database(), 'old-form@example.com', 'a passphrase for old forms');
    const { cookie } = await signInWithForm(
      folio.url,
      'old-form@example.com',
      'a passphrase for old forms',
    );
    const form = new FormData();
    form.set('$ACTION_ID_0000deadbeef#publishPage', '');
    form.set('slug', 'about');
    form.set('version', '1');
    const response = await get('/preview/about', {
      method: 'POST',
      headers: { origin: folio.url, accept: 'text/html', cookie },
      body: form,
    });
    expect(response.status).toBe(409);
    expect(await response.text()).toContain('This page is out of date — reload it to continue.');
  });

  test('the Sentry tunnel refuses a foreign DSN (403) and garbage (400), forwarding nothing', async () => {
    const marker = `FOREIGN-ENVELOPE-${Date.now()}`;
    const foreign = `${JSON.stringify({ dsn: 'https://abc@o1.ingest.sentry.io/999', sent_at: new Date().toISOString() })}\n${JSON.stringify({ type: 'event' })}\n${JSON.stringify({ message: marker })}`;
    const post = (body: string) =>
      get('/monitoring', { method: 'POST', headers: { 'content-type': 'text/plain' }, body });
    expect((await post(foreign)).status).toBe(403);
    expect((await post('not an envelope')).status).toBe(400);
    // The tunnel decides before it forwards: by the time it answered, nothing had been sent.
    expect(JSON.stringify(receiver.envelopes)).not.toContain(marker);
  });
});

// The original specification's page-data address (issue 15): a page's data is asked for at the
// page's own address with the flag header; the cache keeps HTML and payload apart.
describe('page data at the page address', () => {
  const flagged = { headers: { rsc: '1' } };
  const kind = (response: Response) =>
    (response.headers.get('content-type') ?? '').startsWith('text/x-component')
      ? 'payload'
      : (response.headers.get('content-type') ?? '').startsWith('text/html')
        ? 'html'
        : 'other';

  test('the same URL with and without the flag, in both orders, through the cache', async () => {
    for (const slug of ['flag-order-a', 'flag-order-b'])
      await withStore((store) =>
        store.putPage(
          { slug, title: slug, summary: '', body: `The text of ${slug}.` },
          { publish: true },
        ),
      );
    // The same URL (the page's address with the parameter) with and without the flag:
    // payload first, then HTML, then each again; and the other way round.
    const order: [string, RequestInit, string][] = [
      ['/flag-order-a?_rsc=b1', flagged, 'payload'],
      ['/flag-order-a?_rsc=b1', {}, 'html'],
      ['/flag-order-a?_rsc=b1', flagged, 'payload'],
      ['/flag-order-a?_rsc=b1', {}, 'html'],
      ['/flag-order-b?_rsc=b1', {}, 'html'],
      ['/flag-order-b?_rsc=b1', flagged, 'payload'],
      ['/flag-order-b?_rsc=b1', {}, 'html'],
      ['/flag-order-b?_rsc=b1', flagged, 'payload'],
    ];
    const seen: string[] = [];
    for (const [address, init, expected] of order) {
      const response = await get(address, init);
      expect(response.status).toBe(200);
      expect(kind(response), `${address} ${init.headers ? 'flagged' : 'plain'}`).toBe(expected);
      expect(response.headers.get('vary')).toMatch(/\bRSC\b/);
      expect(await response.text()).toContain(
        `The text of ${address.slice(1, -'?_rsc=b1'.length)}.`,
      );
      seen.push(response.headers.get('x-folio-cache') ?? '');
    }
    // Each page's data the second time comes from the cache, as data.
    expect([seen[2], seen[7]]).toEqual(['hit', 'hit']);
    // And the page's own HTML address, cached, is still HTML, flagged or not.
    for (const slug of ['flag-order-a', 'flag-order-b']) {
      await get(`/${slug}`);
      for (const init of [{}, flagged]) {
        const html = await get(`/${slug}`, init);
        expect(kind(html)).toBe('html');
        expect(html.headers.get('x-folio-cache')).toBe('hit');
      }
    }
  });

  test('with the cache-busting parameter: cached, 304-able, and the same as Waku’s address', async () => {
    const first = await get('/about?_rsc=build1', flagged);
    expect(kind(first)).toBe('payload');
    const etag = first.headers.get('etag') ?? '';
    expect(etag).toMatch(/^".+"$/);
    const again = await get('/about?_rsc=build2', { headers: { rsc: '1', 'if-none-match': etag } });
    expect(again.status).toBe(304);
    // An open tab from before this change still asks /RSC/R/: the same answer. (Its tag is
    // brotli's, made after the miss that rendered it answered gzip: compared with a hit's.)
    const old = await get('/RSC/R/about.txt');
    expect(old.status).toBe(200);
    const hit = await get('/about?_rsc=build3', flagged);
    expect(hit.headers.get('x-folio-cache')).toBe('hit');
    expect(old.headers.get('etag')).toBe(hit.headers.get('etag'));
    expect(await old.text()).toBe(await hit.text());
    // Without the flag the parameter is only a query string: the page's HTML.
    expect(kind(await get('/about?_rsc=build1'))).toBe('html');
  });

  test('redirects are said at page addresses; a missing page, a renamed one, HEAD', async () => {
    const upper = await get('/About?_rsc=b1', flagged);
    expect(upper.status).toBe(308);
    expect(upper.headers.get('location')).toBe('/about?_rsc=b1');
    const slash = await get('/about/?_rsc=b1', flagged);
    expect(slash.headers.get('location')).toBe('/about?_rsc=b1');
    // The router's own answers, as payloads: not found, and the renamed page's new address.
    const missing = await get('/no-such-page?_rsc=b1', flagged);
    expect(kind(missing)).toBe('payload');
    const renamed = await get('/style-guide?_rsc=b1', flagged);
    expect(kind(renamed)).toBe('payload');
    expect(await renamed.text()).toContain('/editorial-guidelines');
    const head = await get('/about?_rsc=b1', { method: 'HEAD', headers: { rsc: '1' } });
    expect(head.status).toBe(200);
    expect(kind(head)).toBe('payload');
    // Not a page: the flag changes nothing.
    const feed = await get('/feed.xml', flagged);
    expect(feed.headers.get('content-type')).toContain('application/atom+xml');
  });

  // The hostile pass's repros (issue 15).
  test('the flag alone, or at an address that is no page, gets what a plain request gets', async () => {
    // Without the parameter, the plain URL (a cache ignoring Vary files it as the page's HTML).
    expect(kind(await get('/', flagged))).toBe('html');
    expect(kind(await get('/about', flagged))).toBe('html');
    // `/_root` is the home page's name in Waku's addresses, not a page of this site.
    const root = await get('/_root?_rsc=b1', flagged);
    expect(root.status).toBe(404);
    expect(kind(root)).toBe('html');
    expect((await get('/about_?_rsc=b1', flagged)).status).toBe(404);
    // `/index.html/` is the home page's other spelling too.
    const index = await get('/index.html/');
    expect(index.status).toBe(308);
    expect(index.headers.get('location')).toBe('/');
    // The URL limit judges the address the browser sent, not Waku's spelling of it.
    const longQuery = `/preview/about?${'%'.repeat(3000)}&_rsc=b1`;
    expect((await get(longQuery, flagged)).status).not.toBe(414);
  });

  test("a preview's data is private and needs a session", async () => {
    const anonymous = await get('/preview/upcoming-feature?_rsc=b1', flagged);
    expect(anonymous.headers.get('cache-control')).toMatch(/private|no-store/);
    const text = await anonymous.text();
    for (const marker of DRAFT_MARKERS) expect(text.includes(marker)).toBe(false);
    const editor = { email: 'page-data@example.com', password: 'page data passphrase' };
    await addEditor(await folio.database(), editor.email, editor.password);
    const { cookie } = await signInWithForm(folio.url, editor.email, editor.password);
    const signedIn = await get('/preview/upcoming-feature?_rsc=b1', {
      headers: { rsc: '1', cookie },
    });
    expect(kind(signedIn)).toBe('payload');
    expect(signedIn.headers.get('cache-control')).toMatch(/private/);
    expect(signedIn.headers.get('x-folio-cache')).toBeNull();
    const draft = await signedIn.text();
    expect(DRAFT_MARKERS.some((marker) => draft.includes(marker))).toBe(true);
  });
});

test('nothing above was reported as a bug', () => {
  expect(folio.unexpectedErrors()).toEqual([]);
});
