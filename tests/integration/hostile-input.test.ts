// The hostile-input suite (issue 11): what a hostile visitor sends, against the server as the
// README starts it, with Sentry pointed at a real receiver. Every category must get 0 × 5xx,
// no stack trace, 0 unexpected-error reports, and the site must still serve (and cache) its
// real pages afterwards. The counts are printed for the record.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import { type RunningFolio, startFolio } from '../harness';
import { rawRequest } from '../raw-http';
import { errorEvents, startEnvelopeReceiver } from '../sentry-receiver';
import { seededRandom } from '../support';

const STACK_TRACE = /\bat \S+\.(?:js|ts|tsx|mjs):\d+|node_modules\/|dist\/server\//;
// What the count tests is the render cache's budget, which lives in the process whatever the
// engine. The gate asks 4000 on both engines (twice: a warm round, then the measured one);
// `bun run soak` runs this file with the full 20 000 (HOSTILE_JUNK_KEYS).
const JUNK_PAGE_DATA_KEYS = Number(process.env.HOSTILE_JUNK_KEYS ?? 4_000);
/** The render cache's budget (FOLIO_RENDER_CACHE_MB) and the margin RSS may grow beyond it. */
const CACHE_BUDGET_MB = 64;
const RSS_MARGIN_MB = 48;

const receiver = startEnvelopeReceiver();
let folio: RunningFolio;
const tally = new Map<string, Map<number, number>>();
const failures: string[] = [];

/** Requests Bun's own HTTP parser drops (status 0: the connection closes unanswered). */
const BUN_REFUSES = 'methods Bun refuses';

function record(category: string, label: string, status: number, body: string) {
  const counts = tally.get(category) ?? new Map<number, number>();
  counts.set(status, (counts.get(status) ?? 0) + 1);
  tally.set(category, counts);
  if ((status === 0 && category !== BUN_REFUSES) || status >= 500)
    failures.push(`${category}: ${status} ${label.slice(0, 120)}`);
  if (STACK_TRACE.test(body)) failures.push(`${category}: stack trace for ${label.slice(0, 120)}`);
}

function rssMegabytes(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').match(/^VmRSS:\s+(\d+) kB/m);
  return Number(line?.[1] ?? 0) / 1024;
}

async function inBatches<T>(items: T[], concurrency: number, work: (item: T) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < items.length) {
        const item = items[next++] as T;
        await work(item);
      }
    }),
  );
}

/** A raw request; its status and body go to the tally. */
async function send(category: string, head: string[], body = '') {
  const label = head[0] ?? '';
  try {
    const response = await rawRequest(folio.url, head.join('\r\n'), body);
    record(category, label, response.status, response.body);
    return response;
  } catch (error) {
    record(category, `${label} (${String(error)})`, 0, '');
    return null;
  }
}

const host = () => `Host: 127.0.0.1:${folio.port}`;

beforeAll(async () => {
  folio = await startFolio({
    env: {
      SENTRY_DSN: receiver.dsn,
      WAKU_PUBLIC_SENTRY_DSN: receiver.dsn,
      SENTRY_ENVIRONMENT: 'hostile',
      // Every error is reported whatever this says; traces at the rate the README advises for
      // a busy site. (At 1, the SDK's span buffers alone hold ~95 MB more under this load,
      // bounded: measured flat from 10 000 to 60 000 requests.)
      SENTRY_TRACES_SAMPLE_RATE: '0.1',
    },
  });
  // Warm the real pages: they must still be cached after everything below.
  for (const path of ['/', '/about', '/RSC/R/about.txt']) await fetch(`${folio.url}${path}`);
}, 60_000);

afterAll(async () => {
  await folio?.stop();
  receiver.stop();
});

/** Asks for `JUNK_PAGE_DATA_KEYS` addresses no page has, numbered from `from`, and a real page
 * under 300 foreign host names (SITE_URL unset: pages name the host). */
async function junkRound(from: number) {
  const keys = Array.from({ length: JUNK_PAGE_DATA_KEYS }, (_, n) => {
    const i = from + n;
    switch (i % 5) {
      case 0:
        return `/RSC/R/no-such-page-${i}.txt`;
      case 1:
        return `/RSC/R/about.txt?query=junk-${i}`;
      case 2:
        return `/RSC/R/preview/junk-${i}.txt`;
      case 3:
        return `/RSC/R/no-such-${i}.txt?query=${'y'.repeat(200)}`;
      default:
        return `/no-such-page-${i}`;
    }
  });
  await inBatches(keys, 32, async (path) => {
    const response = await fetch(`${folio.url}${path}`);
    const body = await response.text();
    record('junk keys', path, response.status, body);
  });
  await inBatches(
    Array.from({ length: 300 }, (_, i) => from + i),
    16,
    async (i) => {
      await send('junk hosts', ['GET /about HTTP/1.1', `Host: junk-${i}.example`]);
    },
  );
}

describe('hostile input', () => {
  test('paths: fixed traps and 300 random ones', async () => {
    const fixed = [
      '/..',
      '/../etc/passwd',
      '/%2e%2e/%2e%2e/etc/passwd',
      '/%00',
      '/a%00b',
      '/%',
      '/%zz',
      '/%c0%af',
      '/%ff%fe',
      '//',
      '///about',
      '/about//',
      '//about',
      '/\\..\\windows',
      `/${'a'.repeat(5000)}`,
      `/${'a'.repeat(101)}`,
      `/x/${'b'.repeat(5000)}`,
      '/h%C3%A9llo',
      '/%E2%80%AE',
      '/%F0%9F%98%80',
      '/RSC/R/%2e%2e.txt',
      '/RSC/R/..%2f..%2fetc.txt',
      '/RSC/R/%00.txt',
      '/RSC/garbage',
      '/RSC/F/nope/nope.txt',
      '/RSC/R/.txt',
      '/RSC/R/_.txt',
      '/RSC/R/__.txt',
      '/preview/../../etc',
      '/preview/a/b/c/d',
      '/assets/../../package.json',
      '/assets/',
      '/assets/%2e%2e/x',
      '/sitemap.xml/..',
      '/about?%zz=%',
      '/?q=<script>alert(1)</script>',
      '/-leading',
      '/trailing-',
      '/double--hyphen',
      '/UPPER--CASE',
      '/home',
      '/Home/',
      '/preview/home',
      '/404',
      '/500',
      '/api',
      '/favicon.ico',
      '/.env',
      '/.git/config',
      '/dist/server/serve.js',
      '/src/serve.ts',
      '/node_modules/hono/package.json',
    ];
    const rand = seededRandom(20261122);
    const alphabet = [
      'a',
      'Z',
      '0',
      '-',
      '.',
      '/',
      '%',
      '%2f',
      '%00',
      '%2e',
      '~',
      '!',
      '$',
      '&',
      "'",
      '(',
      ';',
      '=',
      ':',
      '@',
      '%C3%A9',
      '%E2%80%8B',
      '%ff',
      '..',
      '\\',
      '_',
      '%20',
      'RSC',
      'R',
      'preview',
    ];
    const paths = [...fixed];
    while (paths.length < fixed.length + 300) {
      let path = '/';
      const length = 1 + Math.floor(rand() * 40);
      for (let i = 0; i < length; i++) path += alphabet[Math.floor(rand() * alphabet.length)];
      paths.push(path);
    }
    await inBatches(paths, 8, async (path) => {
      await send('paths', [`GET ${path} HTTP/1.1`, host(), 'Accept: text/html']);
    });
  }, 60_000);

  test('every method on every kind of route', async () => {
    const asset = /src="(\/assets\/[^"]+\.js)"|href="(\/assets\/[^"]+\.js)"/.exec(
      await (await fetch(`${folio.url}/about`)).text(),
    );
    const routes = [
      '/',
      '/about',
      '/no-such-page',
      '/preview',
      '/preview/about',
      '/preview/a/b',
      '/RSC/R/about.txt',
      '/RSC/R/_root.txt',
      '/RSC/R/preview/about.txt',
      '/RSC/R/no-such.txt',
      '/RSC/F/abc/def.txt',
      asset?.[1] ?? asset?.[2] ?? '/assets/missing.js',
      '/assets/missing.js',
      '/favicon.svg',
      '/sitemap.xml',
      '/robots.txt',
      '/healthz',
      '/monitoring',
      '/api/v1/posts',
      '/api/v1/posts/about',
      '/a/b/c',
    ];
    const methods = [
      'GET',
      'HEAD',
      'POST',
      'PUT',
      'DELETE',
      'PATCH',
      'OPTIONS',
      'TRACE',
      'PROPFIND',
      'FOO',
    ];
    for (const path of routes) {
      for (const method of methods) {
        const withBody = !['GET', 'HEAD', 'TRACE', 'OPTIONS'].includes(method);
        // Bun's HTTP parser closes the connection on a method it does not know (FOO), before
        // any of Folio's code runs: no answer, no crash, and the server goes on serving.
        const response = await send(
          method === 'FOO' ? BUN_REFUSES : 'methods',
          [
            `${method} ${path} HTTP/1.1`,
            host(),
            `Origin: ${folio.url}`,
            'Content-Type: text/plain',
            ...(withBody ? ['Content-Length: 2'] : []),
          ],
          withBody ? '[]' : '',
        );
        if (response?.status === 405 && !response.header('allow'))
          failures.push(`methods: 405 without Allow for ${method} ${path}`);
        if (method === 'HEAD' && response && response.body !== '')
          failures.push(`methods: HEAD ${path} has a body`);
      }
    }
  }, 60_000);

  test('Host and forwarded headers', async () => {
    const hosts = [
      'evil.example',
      'EVIL.example:80',
      `[::1]:${folio.port}`,
      'x.example:99999',
      'a"b',
      '',
      'a b',
      'localhost:0',
      '127.0.0.1:65535',
      `${'h'.repeat(1000)}.example`,
      'a/b',
      'a@b',
      '%00',
      'ｅｖｉｌ.example',
    ];
    const forwarded = [
      ['X-Forwarded-Host: evil.example'],
      ['X-Forwarded-Proto: https'],
      ['X-Forwarded-Proto: javascript'],
      ['X-Forwarded-For: not an address, 999.1.1.1'],
      [`X-Forwarded-For: ${'1.2.3.4, '.repeat(500)}5.6.7.8`],
      ['Forwarded: for=evil;host=evil.example;proto=https'],
      ['X-Original-URL: /preview'],
      ['X-Rewrite-URL: /preview'],
    ];
    const paths = [
      '/',
      '/about',
      '/RSC/R/about.txt',
      '/sitemap.xml',
      '/robots.txt',
      '/preview',
      '/healthz',
    ];
    for (const path of paths) {
      for (const value of hosts) await send('hosts', [`GET ${path} HTTP/1.1`, `Host: ${value}`]);
      await send('hosts', [`GET ${path} HTTP/1.1`, host(), 'Host: evil.example']);
      for (const headers of forwarded)
        await send('forwarded', [`GET ${path} HTTP/1.1`, host(), ...headers]);
    }
    // Nothing another visitor gets names a host someone else sent.
    for (const path of ['/', '/about', '/RSC/R/about.txt', '/sitemap.xml', '/robots.txt']) {
      const body = await (await fetch(`${folio.url}${path}`)).text();
      if (/evil|ｅｖｉｌ/.test(body)) failures.push(`hosts: ${path} names a foreign host`);
    }
  }, 60_000);

  test('action POSTs: unknown modules and functions, garbage bodies, odd addresses', async () => {
    const html = await (await fetch(`${folio.url}/preview`)).text();
    const known = /&quot;id&quot;:&quot;([0-9a-f]+)#signIn&quot;/.exec(html)?.[1] ?? '000000000000';
    const rand = seededRandom(11);
    const ids = [
      `${known}#nope`,
      `${known}#signIn`,
      `${known}#__proto__`,
      `${known}#constructor`,
      '000000000000#x',
      '#',
      'a#b#c',
      `${known}#${'x'.repeat(300)}`,
    ];
    const bodies = ['[]', '["$K1"]', '{"a":', '', 'x'.repeat(5000), '[{"$$typeof":1}]', '["$@0"]'];
    const cases: { head: string[]; body: string }[] = [];
    for (const id of ids) {
      const [module, name] = id.split('#');
      for (const body of bodies) {
        cases.push({
          head: [
            `POST /RSC/F/${module}/${name}.txt HTTP/1.1`,
            host(),
            `Origin: ${folio.url}`,
            'Content-Type: text/plain',
            `Content-Length: ${Buffer.byteLength(body)}`,
          ],
          body,
        });
        cases.push({
          head: [
            'POST /preview/about HTTP/1.1',
            host(),
            `Origin: ${folio.url}`,
            `X-Folio-Action: /RSC/F/${module}/${name}.txt`,
            'Content-Type: text/plain',
            `Content-Length: ${Buffer.byteLength(body)}`,
          ],
          body,
        });
      }
      for (const form of [
        `--x\r\nContent-Disposition: form-data; name="$ACTION_ID_${id}"\r\n\r\n\r\n--x--\r\n`,
        `--x\r\nContent-Disposition: form-data; name="$ACTION_REF_1"\r\n\r\n\r\n--x\r\nContent-Disposition: form-data; name="$ACTION_1:0"\r\n\r\n${JSON.stringify({ id, bound: '$@1' })}\r\n--x\r\nContent-Disposition: form-data; name="$ACTION_1:1"\r\n\r\n[{}]\r\n--x--\r\n`,
        `--x\r\nContent-Disposition: form-data; name="$ACTION_REF_1"\r\n\r\n\r\n--x\r\nContent-Disposition: form-data; name="$ACTION_1:0"\r\n\r\n{not json\r\n--x--\r\n`,
        '--x\r\nContent-Disposition: form-data; name="$ACTION_ID_"\r\n\r\n\r\n--x', // truncated
      ]) {
        for (const path of ['/preview', '/about', '/', '/no-such-page']) {
          cases.push({
            head: [
              `POST ${path} HTTP/1.1`,
              host(),
              `Origin: ${folio.url}`,
              'Accept: text/html',
              'Content-Type: multipart/form-data; boundary=x',
              `Content-Length: ${Buffer.byteLength(form)}`,
            ],
            body: form,
          });
        }
      }
    }
    for (let i = 0; i < 100; i++) {
      const bytes = Array.from({ length: 1 + Math.floor(rand() * 300) }, () =>
        String.fromCharCode(32 + Math.floor(rand() * 90)),
      ).join('');
      cases.push({
        head: [
          'POST /preview HTTP/1.1',
          host(),
          `Origin: ${folio.url}`,
          'Content-Type: multipart/form-data; boundary=x',
          `Content-Length: ${bytes.length}`,
        ],
        body: bytes,
      });
    }
    await inBatches(cases, 8, async ({ head, body }) => {
      await send('actions', head, body);
    });
  }, 90_000);

  test('negotiation and validator headers', async () => {
    const encodings = [
      'br;q=0, gzip',
      'gzip;q=0, br;q=0',
      '*;q=0',
      'identity;q=0',
      'gzip;q=abc',
      'br, br, br',
      `${'x,'.repeat(2000)}gzip`,
      ';;;',
      'gzip;q=1.5',
      '',
    ];
    const validators = [
      '*',
      'W/"x"',
      '"a", "b", W/"c"',
      'garbage',
      `"${'x'.repeat(5000)}"`,
      '""',
      ',,,',
      'W/',
    ];
    for (const path of ['/', '/about', '/RSC/R/about.txt', '/favicon.svg']) {
      for (const value of encodings) {
        const response = await send('negotiation', [
          `GET ${path} HTTP/1.1`,
          host(),
          `Accept-Encoding: ${value}`,
        ]);
        const coding = response?.header('content-encoding');
        if (coding && /\bq=0(?:\.0*)?(?:,|$)/.test(value) && value.includes(`${coding};q=0`))
          failures.push(`negotiation: ${coding} sent for "${value}"`);
      }
      for (const value of validators)
        await send('negotiation', [`GET ${path} HTTP/1.1`, host(), `If-None-Match: ${value}`]);
      for (const extra of [
        'If-Modified-Since: yesterday',
        'Range: bytes=0-10',
        'Range: bytes=99999999-',
        'If-Range: "x"',
        'Cache-Control: no-cache',
      ])
        await send('negotiation', [`GET ${path} HTTP/1.1`, host(), extra]);
    }
  }, 60_000);

  test(`${JUNK_PAGE_DATA_KEYS} junk page-data keys: RSS within the cache budget, real pages still cached`, async () => {
    // One round first, unmeasured: the heap grows to its working size in the first few thousand
    // renders (a 404 page alone took ~50 MB once, then stayed flat round after round), and when
    // the collector gives it back is its own business. What must hold is that a second round of
    // as many new keys adds no more than the cache may hold: measured from the first, four rounds
    // stayed within ±50 MB; without the warm round a CI run once read 121 MB of one-off growth.
    await junkRound(0);
    const rssBefore = rssMegabytes(folio.pid);
    await junkRound(JUNK_PAGE_DATA_KEYS);
    const rssAfter = rssMegabytes(folio.pid);
    console.log(
      'hostile input RSS (MB):',
      JSON.stringify({ before: rssBefore.toFixed(1), after: rssAfter.toFixed(1) }),
    );
    expect(rssAfter).toBeLessThan(rssBefore + CACHE_BUDGET_MB + RSS_MARGIN_MB);
    for (const path of ['/', '/about', '/RSC/R/about.txt']) {
      const response = await fetch(`${folio.url}${path}`);
      expect(response.headers.get('x-folio-cache'), path).toBe('hit');
    }
  }, 180_000);

  test('in all of it: no 5xx, no stack trace, nothing reported as a bug', async () => {
    console.log(
      'hostile input by category and status:',
      JSON.stringify(Object.fromEntries([...tally].map(([k, v]) => [k, Object.fromEntries(v)]))),
    );
    expect(failures.slice(0, 30)).toEqual([]);
    expect(folio.unexpectedErrors().map((line) => JSON.stringify(line).slice(0, 300))).toEqual([]);
    // The SDK sends right away; give its transport a moment by asking the server something.
    await fetch(`${folio.url}/healthz`);
    expect(errorEvents(receiver.envelopes)).toEqual([]);
    expect((await fetch(`${folio.url}/healthz`)).status).toBe(200);
  });
});
