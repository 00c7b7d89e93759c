// A bounded fuzz run against the production build on 127.0.0.1: thousands of generated
// hostile requests; none may get a 5xx, a stack trace or a draft's text back.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { REQUEST_BODY_MAX_BYTES } from '../../src/lib/content/field-limits';
import { SEED_DRAFT_MARKERS } from '../../src/lib/content/seed';
import { type RunningFolio, startFolio } from '../harness';
import { seededRandom } from '../support';

// The gate's run; `bun run soak` runs the same file with FUZZ_REQUESTS=5000 (14 s of a run).
const TOTAL = Number(process.env.FUZZ_REQUESTS ?? 1500);
const CONCURRENCY = 16;
const STACK_TRACE = /\bat \S+\.(?:js|ts|tsx|mjs):\d+|node_modules\/|dist\/server\//;

const rand = seededRandom(Number(process.env.FUZZ_SEED ?? 7));
const pick = <T>(items: readonly T[]): T => items[Math.floor(rand() * items.length)] as T;
const PIECES = [
  'a',
  'Z',
  '0',
  '-',
  '.',
  '%2e',
  '%',
  '%zz',
  '%ff',
  '%C3%A9',
  '..',
  '~',
  '!',
  '$',
  ';',
  '=',
  '@',
  ':',
  '_',
  '%20',
  '%E2%80%AE',
  'preview',
  'about',
  'RSC',
  'R',
  'F',
  'home',
  '404',
];
const randomText = (max: number) =>
  Array.from({ length: 1 + Math.floor(rand() * max) }, () => pick(PIECES)).join('');
const randomPath = () =>
  `/${Array.from({ length: 1 + Math.floor(rand() * 3) }, () => randomText(8)).join('/')}`;

function randomBytes(length: number): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(length);
  for (let i = 0; i < length; i++) bytes[i] = Math.floor(rand() * 256);
  return bytes;
}

const INVALID_UTF8: Uint8Array<ArrayBuffer> = new Uint8Array([
  0xc3, 0x28, 0xa0, 0xa1, 0xe2, 0x28, 0xa1, 0xf0, 0x28, 0x8c, 0xbc, 0xff, 0xfe,
]);
const CONTENT_TYPES = [
  'multipart/form-data; boundary=x',
  'multipart/form-data',
  'text/plain',
  'application/json',
  'application/x-www-form-urlencoded',
  'text/x-component',
  'application/octet-stream',
  '',
];
const COOKIES = [
  'folio_session=forged',
  `folio_session=${'A'.repeat(43)}`,
  'folio_session=',
  'folio_session=%00%ff',
  `folio_session=${'x'.repeat(4000)}`,
  'folio_session="quoted";',
  'folio_session=abc; folio_session=def',
  '',
];

type Case = { kind: string; url: string; init: RequestInit };

function makeCase(base: string): Case {
  const roll = rand();
  const headers: Record<string, string> = {};
  if (rand() < 0.5) headers.cookie = pick(COOKIES);
  if (roll < 0.25) {
    headers.accept = pick(['text/html', '*/*', 'text/x-component', '']);
    return {
      kind: 'page',
      url: `${base}${randomPath()}${rand() < 0.3 ? `?${randomText(6)}` : ''}`,
      init: { headers },
    };
  }
  if (roll < 0.45) {
    const query = rand() < 0.5 ? `?query=${encodeURIComponent(randomText(6))}` : '';
    return {
      kind: 'page-data',
      url: `${base}/RSC/R/${pick(['', 'preview/', '_'])}${randomText(6)}.txt${query}`,
      init: { headers },
    };
  }
  if (roll < 0.75) {
    headers['content-type'] = pick(CONTENT_TYPES);
    if (rand() < 0.5) headers.origin = base;
    const form = `--x\r\nContent-Disposition: form-data; name="$ACTION_ID_${randomText(6)}#${randomText(4)}"\r\n\r\n\r\n--x\r\nContent-Disposition: form-data; name="slug"\r\n\r\n${randomText(5)}\r\n--x--\r\n`;
    const body: BodyInit = pick<BodyInit>([
      form,
      '[]',
      '["$K1"]',
      '{"a":',
      randomText(30),
      INVALID_UTF8,
      randomBytes(200),
      '',
    ]);
    const target = pick([
      `/RSC/F/${randomText(6)}/${randomText(4)}.txt`,
      '/preview',
      '/preview/about',
      '/about',
      '/',
      '/monitoring',
      randomPath(),
    ]);
    return { kind: 'action', url: `${base}${target}`, init: { method: 'POST', headers, body } };
  }
  if (roll < 0.8) {
    headers['content-type'] = 'multipart/form-data; boundary=x';
    headers.origin = base;
    return {
      kind: 'oversized',
      url: `${base}${pick(['/preview', '/RSC/F/abc/def.txt', '/monitoring'])}`,
      init: { method: 'POST', headers, body: randomBytes(REQUEST_BODY_MAX_BYTES + 100_000) },
    };
  }
  if (roll < 0.9) {
    headers.cookie = pick(COOKIES) || 'folio_session=forged';
    return {
      kind: 'cookie',
      url: `${base}${pick(['/preview', '/preview/upcoming-feature', '/RSC/R/preview.txt', '/RSC/R/preview/release-notes.txt', '/release-notes', '/upcoming-feature'])}`,
      init: { headers },
    };
  }
  return {
    kind: 'query',
    url: `${base}${pick(['/', '/about', '/preview', '/sitemap.xml', '/healthz'])}?${randomText(10)}=${randomText(10)}&share=${randomText(12)}`,
    init: { headers },
  };
}

describe(`fuzz: ${TOTAL} generated hostile requests`, () => {
  let server: RunningFolio;
  beforeAll(async () => {
    server = await startFolio();
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
  }, 20_000);

  test('no 5xx, no stack trace, no draft text, and the server keeps serving', async () => {
    const failures: string[] = [];
    const byKind = new Map<string, Map<number, number>>();
    let tried = 0;
    const markers = Object.values(SEED_DRAFT_MARKERS);
    async function worker() {
      while (tried < TOTAL) {
        tried += 1;
        const sample = makeCase(server.url);
        let status = 0;
        let text = '';
        try {
          const response = await fetch(sample.url, { ...sample.init, redirect: 'manual' });
          status = response.status;
          text = await response.text();
        } catch (error) {
          failures.push(`${sample.kind} ${sample.url.slice(0, 120)}: ${String(error)}`);
          continue;
        }
        const counts = byKind.get(sample.kind) ?? new Map<number, number>();
        counts.set(status, (counts.get(status) ?? 0) + 1);
        byKind.set(sample.kind, counts);
        if (status >= 500)
          failures.push(
            `${status} ${sample.kind} ${sample.init.method ?? 'GET'} ${sample.url.slice(0, 120)}`,
          );
        if (STACK_TRACE.test(text))
          failures.push(`stack trace: ${sample.kind} ${sample.url.slice(0, 120)}`);
        for (const marker of markers)
          if (text.includes(marker))
            failures.push(`draft text: ${sample.kind} ${sample.url.slice(0, 120)}`);
      }
    }
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    const summary = Object.fromEntries(
      [...byKind].map(([kind, counts]) => [kind, Object.fromEntries(counts)]),
    );
    console.log(`fuzz: ${tried} requests tried`, JSON.stringify(summary));
    const reported = server
      .unexpectedErrors()
      .map((line) => (line.error as { message?: string } | undefined)?.message ?? line.msg);
    expect(failures.slice(0, 20)).toEqual([]);
    expect([...new Set(reported)].slice(0, 20)).toEqual([]);
    expect(tried).toBeGreaterThanOrEqual(TOTAL);
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    expect((await fetch(`${server.url}/about`)).status).toBe(200);
  }, 180_000);
});
