// The production build against a real envelope receiver on 127.0.0.1.

import { Database } from 'bun:sqlite';
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { createServer, type Server } from 'node:net';
import { errorEvents, startEnvelopeReceiver } from '../sentry-receiver';
import {
  HAS_BUILD,
  type RunningServer,
  seededDatabase,
  startBuiltServer,
  waitFor,
} from './server-harness';

const DIGEST = /Digest: ([0-9a-f]{32})/;

describe.skipIf(!HAS_BUILD)(
  'a database failure on an uncached page (needs `bun run build`)',
  () => {
    const receiver = startEnvelopeReceiver();
    let server: RunningServer;

    beforeAll(async () => {
      const dbPath = seededDatabase();
      // A damaged copy: the table that holds published text is gone.
      const db = new Database(dbPath);
      db.exec('PRAGMA foreign_keys = OFF; DROP TABLE revisions;');
      db.close();
      server = await startBuiltServer(
        { SENTRY_DSN: receiver.dsn, SENTRY_ENVIRONMENT: 'test' },
        dbPath,
      );
    }, 20_000);

    afterAll(async () => {
      await server?.stop();
      receiver.stop();
    });

    test('gives the server-side fallback page with a digest, a log line and an event with that id', async () => {
      const response = await fetch(`${server.url}/about`, { headers: { accept: 'text/html' } });
      expect(response.status).toBe(500);
      const html = await response.text();
      expect(html).toContain(
        'Application error: a server-side exception has occurred while loading 127.0.0.1 (see the server logs for more information).',
      );
      expect(html).not.toContain('<script');
      expect(html).not.toMatch(/no such table|revisions|at \S+\.js/);
      const digest = DIGEST.exec(html)?.[1] ?? '';
      expect(digest).toMatch(/^[0-9a-f]{32}$/);
      expect(response.headers.get('x-error-digest')).toBe(digest);

      const event = await waitFor(() =>
        errorEvents(receiver.envelopes).find((e) => e.event_id === digest),
      );
      expect(event.tags?.route).toBe('/about');
      expect(JSON.stringify(event.exception)).toContain('no such table');

      const line = await waitFor(() =>
        server
          .log()
          .split('\n')
          .find((l) => l.includes(digest)),
      );
      const record = JSON.parse(line) as {
        level: string;
        route: string;
        traceId?: string;
        error: { stack: string };
      };
      expect(record.level).toBe('error');
      expect(record.route).toBe('/about');
      expect(record.traceId).toMatch(/^[0-9a-f]{32}$/);
      expect(record.error.stack).toContain('no such table');
    });

    test('keeps serving what it can', async () => {
      expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
      expect((await fetch(`${server.url}/robots.txt`)).status).toBe(200);
      expect(
        (await fetch(`${server.url}/contact`, { headers: { accept: 'text/html' } })).status,
      ).toBe(500);
      expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    });
  },
);

describe.skipIf(!HAS_BUILD)('when Sentry cannot be reached (needs `bun run build`)', () => {
  let blackhole: Server;
  let blackholeConnections = 0;
  let down: RunningServer;
  let hanging: RunningServer;

  function damagedDatabase(): string {
    const dbPath = seededDatabase();
    const db = new Database(dbPath);
    db.exec('PRAGMA foreign_keys = OFF; DROP TABLE revisions;');
    db.close();
    return dbPath;
  }

  beforeAll(async () => {
    // A receiver that accepts connections and never answers.
    blackhole = createServer((socket) => {
      blackholeConnections += 1;
      socket.on('data', () => undefined);
    });
    await new Promise<void>((resolve) => blackhole.listen(0, '127.0.0.1', resolve));
    const address = blackhole.address();
    const blackholePort = typeof address === 'object' && address ? address.port : 0;
    // A port nobody listens on: take one, then free it.
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const closedAddress = closed.address();
    const closedPort = typeof closedAddress === 'object' && closedAddress ? closedAddress.port : 1;
    await new Promise((resolve) => closed.close(resolve));
    // Damaged databases, so every /about is an unexpected error that must be reported.
    down = await startBuiltServer(
      { SENTRY_DSN: `http://key@127.0.0.1:${closedPort}/1` },
      damagedDatabase(),
    );
    hanging = await startBuiltServer(
      { SENTRY_DSN: `http://key@127.0.0.1:${blackholePort}/1` },
      damagedDatabase(),
    );
  }, 30_000);

  afterAll(async () => {
    await down?.stop();
    await hanging?.stop();
    blackhole?.close();
  });

  for (const which of ['down', 'never answering'] as const) {
    test(`pages and error reports do not wait for a receiver that is ${which}`, async () => {
      const server = which === 'down' ? down : hanging;
      const started = performance.now();
      for (let i = 0; i < 20; i++) {
        // One report (an error event and a span) per error page, one span per good page.
        expect(
          (await fetch(`${server.url}/about`, { headers: { accept: 'text/html' } })).status,
        ).toBe(500);
        expect((await fetch(`${server.url}/robots.txt`)).status).toBe(200);
      }
      const elapsed = performance.now() - started;
      // 40 sequential requests take a few hundred milliseconds here; a transport that made
      // responses wait for the receiver would add its connect or read timeout to each.
      expect(elapsed).toBeLessThan(5_000);
      expect(server.log()).toContain('"msg":"unexpected error"');
    }, 20_000);
  }

  test('the SDK did try to send to the never-answering receiver', async () => {
    await waitFor(() => (blackholeConnections > 0 ? true : undefined), 10_000);
    expect(blackholeConnections).toBeGreaterThan(0);
  }, 15_000);
});
