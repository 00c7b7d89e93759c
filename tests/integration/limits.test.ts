// The request limits, end to end against the production build: what a client can send before
// it gets a 4xx, and that the server keeps serving afterwards. Header limits are Bun's own
// (16 KiB of request headers in all); URL length and body size are Folio's
// (src/lib/http/front-door.ts, src/waku.server.tsx).

import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { connect } from 'node:net';
import { REQUEST_BODY_MAX_BYTES } from '../../src/lib/content/field-limits';
import { type RunningFolio, startFolio } from '../harness';

/** One raw HTTP/1.1 request (so the client adds nothing and refuses nothing); the status. */
function rawStatus(url: string, head: string, body = ''): Promise<number> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    let answer = '';
    socket.setTimeout(10_000, () => socket.destroy(new Error('no answer')));
    socket.on('data', (chunk) => {
      answer += chunk.toString('latin1');
      const status = /^HTTP\/1\.1 (\d{3})/.exec(answer);
      if (status) {
        resolve(Number(status[1]));
        socket.destroy();
      }
    });
    socket.on('error', reject);
    socket.on('close', () => reject(new Error(`closed without a status: ${answer.slice(0, 80)}`)));
    socket.write(`${head}\r\n${body}`);
  });
}

describe('request limits', () => {
  let server: RunningFolio;
  beforeAll(async () => {
    server = await startFolio();
  }, 60_000);
  afterAll(() => server?.stop(), 30_000);

  const get = (path: string, headers: string[] = []) =>
    rawStatus(
      server.url,
      [`GET ${path} HTTP/1.1`, 'Host: 127.0.0.1', ...headers, 'Connection: close', ''].join('\r\n'),
    );

  test('headers up to the limit are served', async () => {
    expect(await get('/about', [`X-Padding: ${'a'.repeat(12 * 1024)}`])).toBe(200);
    expect(
      await get(
        '/about',
        Array.from({ length: 60 }, (_, i) => `X-H${i}: v`),
      ),
    ).toBe(200);
  });

  test('oversized headers get 431, however they are made up', async () => {
    expect(await get('/about', [`X-Padding: ${'a'.repeat(17 * 1024)}`])).toBe(431);
    expect(await get('/about', [`Cookie: folio_session=${'b'.repeat(20 * 1024)}`])).toBe(431);
    expect(
      await get(
        '/about',
        Array.from({ length: 300 }, (_, i) => `X-H${i}: v`),
      ),
    ).toBe(431);
    expect(
      await get(
        '/about',
        Array.from({ length: 40 }, (_, i) => `X-H${i}: ${'c'.repeat(500)}`),
      ),
    ).toBe(431);
  });

  test('a URL over 8 KiB gets 414', async () => {
    expect(await get(`/${'a'.repeat(9 * 1024)}`)).toBe(414);
  });

  test('a body over the request limit gets 413 without being read to the end', async () => {
    const size = REQUEST_BODY_MAX_BYTES + 1024 * 1024;
    const status = await rawStatus(
      server.url,
      [
        'POST /about HTTP/1.1',
        'Host: 127.0.0.1',
        `Origin: ${server.url}`,
        'Content-Type: application/x-www-form-urlencoded',
        `Content-Length: ${size}`,
        'Connection: close',
        '',
      ].join('\r\n'),
      'x'.repeat(64 * 1024),
    );
    expect(status).toBe(413);
  });

  test('the server keeps serving and never answered 5xx', async () => {
    expect((await fetch(`${server.url}/about`)).status).toBe(200);
    expect(server.output()).not.toContain('"level":"error"');
  });
});
