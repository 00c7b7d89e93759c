import { expect, test } from '@playwright/test';

// A seeded generator, so a failure can be replayed with the same paths.
function mulberry32(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const FIXED = [
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
  '/\\..\\windows',
  `/${'a'.repeat(5000)}`,
  `/${'a'.repeat(101)}`,
  `/x/${'b'.repeat(5000)}`,
  '/héllo',
  '/%E2%80%AE',
  '/日本語',
  '/😀',
  '/RSC/R/%2e%2e.txt',
  '/RSC/R/..%2f..%2fetc.txt',
  '/RSC/R/%00.txt',
  '/RSC/garbage',
  '/RSC/F/nope/nope.txt',
  '/preview/../../etc',
  '/preview/a/b/c/d',
  '/assets/../../package.json',
  '/sitemap.xml/..',
  '/about?%zz=%',
  '/?q=<script>alert(1)</script>',
  '/-leading',
  '/trailing-',
  '/double--hyphen',
  '/UPPER--CASE',
];

const ALPHABET = [
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
  'é',
  '\u200b',
  '%ff',
  '..',
  '\\',
  '_',
  ' ',
];

function randomPath(rand: () => number): string {
  const length = 1 + Math.floor(rand() * 40);
  let out = '/';
  for (let i = 0; i < length; i++) out += ALPHABET[Math.floor(rand() * ALPHABET.length)];
  return out;
}

test('200 random and hostile paths get a 404 or a redirect, never a 5xx', async ({ request }) => {
  test.setTimeout(120_000);
  const rand = mulberry32(20261122);
  const paths = [...FIXED];
  while (paths.length < 200) paths.push(randomPath(rand));
  const failures: string[] = [];
  for (const path of paths) {
    const response = await request.get(path, { maxRedirects: 0, failOnStatusCode: false });
    const status = response.status();
    const body = await response.text();
    if (status >= 500) failures.push(`${status} ${path}`);
    if (/\bat \S+\.(?:js|ts|tsx):\d+/.test(body)) failures.push(`stack trace in ${path}`);
  }
  expect(failures).toEqual([]);
  const health = await request.get('/healthz');
  expect(health.status()).toBe(200);
  const home = await request.get('/');
  expect(home.status()).toBe(200);
});
