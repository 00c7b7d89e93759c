// One delivery against real receivers on loopback (allowed here, as WEBHOOKS_ALLOW_PRIVATE does):
// signed so the spec's own library verifies it; a redirect is a failure and is not followed; a
// long answer is read no further than 4 KB; a receiver that never answers is given up on at the
// timeout; loopback is refused without the setting, before anything is sent; over https the
// certificate is checked against the URL's host.
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Webhook } from 'standardwebhooks';
import { sendWebhook } from './send';
import { newSecret } from './store';

const hits: string[] = [];
let receiver: ReturnType<typeof Bun.serve>;

beforeAll(() => {
  receiver = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    async fetch(request) {
      const path = new URL(request.url).pathname;
      hits.push(path);
      if (path === '/verify') {
        try {
          new Webhook(SECRET).verify(await request.text(), Object.fromEntries(request.headers));
          return new Response('verified');
        } catch (error) {
          return new Response(String(error), { status: 400 });
        }
      }
      if (path === '/redirect')
        return new Response(null, { status: 302, headers: { location: '/target' } });
      if (path === '/long') return new Response('x'.repeat(1_000_000));
      if (path === '/silent') return new Promise<Response>(() => undefined);
      return new Response('ok');
    },
  });
});

afterAll(() => receiver?.stop(true));

const SECRET = newSecret();
const send = (path: string, extra: { allowPrivate?: boolean; timeoutMs?: number } = {}) =>
  sendWebhook({
    url: `http://127.0.0.1:${receiver.port}${path}`,
    secret: SECRET,
    messageId: 'evt_1',
    body: JSON.stringify({ type: 'page.published', timestamp: '2026-11-27T00:00:00Z', data: {} }),
    at: new Date(),
    allowPrivate: extra.allowPrivate ?? true,
    ...(extra.timeoutMs === undefined ? {} : { timeoutMs: extra.timeoutMs }),
  });

test('a delivery is signed so that Webhook.verify accepts it', async () => {
  const answer = await send('/verify');
  expect(answer).toMatchObject({ status: 200, excerpt: 'verified', error: null });
});

test('a redirect is a failure, and its target is not asked', async () => {
  const answer = await send('/redirect');
  expect(answer.status).toBe(302);
  expect(answer.error).toContain('redirects are not followed');
  expect(hits).not.toContain('/target');
});

test('a long answer is read no further than 4 KB; the excerpt is 500 characters', async () => {
  const answer = await send('/long');
  expect(answer.status).toBe(200);
  expect(answer.excerpt).toBe('x'.repeat(500));
});

test('no answer within the timeout is a failure with no status', async () => {
  const answer = await send('/silent', { timeoutMs: 300 });
  expect(answer).toMatchObject({ status: null, error: 'no answer within 300 ms' });
});

test('without the setting, loopback is refused before anything is sent', async () => {
  const before = hits.length;
  const answer = await send('/verify', { allowPrivate: false });
  expect(answer.status).toBeNull();
  expect(answer.error).toContain('not on the public internet');
  expect(hits).toHaveLength(before);
});

test("https: the certificate is checked against the URL's host, though the socket goes to an address", async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'folio-webhook-tls-'));
  try {
    const made = Bun.spawnSync(
      [
        'openssl',
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-days',
        '1',
        '-subj',
        '/CN=localhost',
        '-addext',
        'subjectAltName=DNS:localhost',
        '-keyout',
        `${dir}/key.pem`,
        '-out',
        `${dir}/cert.pem`,
      ],
      { stderr: 'pipe' },
    );
    if (made.exitCode !== 0) throw new Error(`openssl: ${made.stderr.toString()}`);
    const cert = readFileSync(`${dir}/cert.pem`, 'utf8');
    const secure = Bun.serve({
      hostname: '127.0.0.1',
      port: 0,
      tls: { cert, key: readFileSync(`${dir}/key.pem`, 'utf8') },
      fetch: () => new Response('over tls'),
    });
    try {
      const over = (ca?: string) =>
        sendWebhook({
          url: `https://localhost:${secure.port}/hook`,
          secret: SECRET,
          messageId: 'evt_2',
          body: '{}',
          at: new Date(),
          allowPrivate: true,
          timeoutMs: 5_000,
          ...(ca === undefined ? {} : { ca }),
        });
      expect(await over(cert)).toMatchObject({ status: 200, excerpt: 'over tls', error: null });
      // Not from an authority it trusts: refused, in words.
      expect((await over()).error).toContain('is its certificate valid for localhost?');
    } finally {
      secure.stop(true);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
