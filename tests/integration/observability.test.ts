// The production build against a real envelope receiver on 127.0.0.1.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { createServer, type Server } from 'node:net';
import { damagedDatabase, type RunningFolio, startFolio, waitFor } from '../harness';
import { errorEvents, spanOp, spans, startEnvelopeReceiver } from '../sentry-receiver';

const DIGEST = /Digest: ([0-9a-f]{32})/;
/** The database's own words for the dropped table: SQLite's, or PostgreSQL's. */
const MISSING_TABLE = /no such table|relation \\?"revisions\\?" does not exist/;

describe('a database failure on an uncached page', () => {
  const receiver = startEnvelopeReceiver();
  let server: RunningFolio;

  beforeAll(async () => {
    server = await startFolio({
      env: { SENTRY_DSN: receiver.dsn, SENTRY_ENVIRONMENT: 'test', SENTRY_TRACES_SAMPLE_RATE: '1' },
      database: await damagedDatabase(),
    });
  }, 60_000);

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
    expect(JSON.stringify(event.exception)).toMatch(MISSING_TABLE);

    const line = await waitFor(() =>
      server
        .output()
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
    expect(record.error.stack).toMatch(MISSING_TABLE);
  });

  test('keeps serving what it can', async () => {
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    expect((await fetch(`${server.url}/robots.txt`)).status).toBe(200);
    expect(
      (await fetch(`${server.url}/contact`, { headers: { accept: 'text/html' } })).status,
    ).toBe(500);
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
  });
});

describe('when Sentry cannot be reached', () => {
  let blackhole: Server;
  let blackholeConnections = 0;
  let down: RunningFolio;
  let hanging: RunningFolio;

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
    down = await startFolio({
      env: { SENTRY_DSN: `http://key@127.0.0.1:${closedPort}/1` },
      database: await damagedDatabase(),
    });
    hanging = await startFolio({
      env: { SENTRY_DSN: `http://key@127.0.0.1:${blackholePort}/1` },
      database: await damagedDatabase(),
    });
  }, 60_000);

  afterAll(async () => {
    await down?.stop();
    await hanging?.stop();
    blackhole?.close();
  });

  for (const which of ['down', 'never answering'] as const) {
    test(`pages and error reports do not wait for a receiver that is ${which}`, async () => {
      const server = which === 'down' ? down : hanging;
      // Not timed: on a busy machine 40 requests can take any time. The never-answering
      // receiver is the measure instead: it answers nothing, ever, so a response that waited
      // for its report to be sent would never come, and the test would time out.
      for (let i = 0; i < 20; i++) {
        // One report (an error event and a span) per error page, one span per good page.
        expect(
          (await fetch(`${server.url}/about`, { headers: { accept: 'text/html' } })).status,
        ).toBe(500);
        expect((await fetch(`${server.url}/robots.txt`)).status).toBe(200);
      }
      expect(server.output()).toContain('"msg":"unexpected error"');
    }, 20_000);
  }

  test('the SDK did try to send to the never-answering receiver', async () => {
    await waitFor(() => (blackholeConnections > 0 ? true : undefined), { timeoutMs: 10_000 });
    expect(blackholeConnections).toBeGreaterThan(0);
  }, 15_000);
});

describe('share tokens never reach Sentry', () => {
  const receiver = startEnvelopeReceiver();
  let server: RunningFolio;
  const TOKEN = 'ShareTokenThatMustNotLeave_0123456789abcdefg';

  beforeAll(async () => {
    // A damaged database again, so a request carrying a token is an error event as well as a
    // trace.
    server = await startFolio({
      env: { SENTRY_DSN: receiver.dsn, SENTRY_TRACES_SAMPLE_RATE: '1' },
      database: await damagedDatabase(),
    });
  }, 60_000);

  afterAll(async () => {
    await server?.stop();
    receiver.stop();
  });

  test('not in URLs, referers or breadcrumbs of error events and traces', async () => {
    const referer = `${server.url}/preview/upcoming-feature?share=${TOKEN}`;
    const failing = await fetch(`${server.url}/about?share=${TOKEN}&x=1`, {
      headers: { accept: 'text/html', referer },
    });
    expect(failing.status).toBe(500);
    const digest = failing.headers.get('x-error-digest') ?? '';
    await fetch(`${server.url}/preview/upcoming-feature?share=${TOKEN}`, { headers: { referer } });
    await fetch(`${server.url}/healthz`, {
      headers: { referer: `http://x.example/?next=%2Fpreview%3Fshare%3D${TOKEN}` },
    });
    // The error event and the request spans (http.server) have arrived…
    await waitFor(() => errorEvents(receiver.envelopes).find((event) => event.event_id === digest));
    await waitFor(() =>
      JSON.stringify(receiver.envelopes).includes('/preview/upcoming-feature') ? true : undefined,
    );
    await waitFor(() =>
      JSON.stringify(receiver.envelopes).includes('/healthz') ? true : undefined,
    );
    // …with the referer header kept, but not the token in it.
    const everything = JSON.stringify(receiver.envelopes);
    expect(everything).toContain('[Filtered]');
    expect(everything.includes(TOKEN)).toBe(false);
  }, 30_000);
});

describe("a traced request carries Folio's own spans", () => {
  const receiver = startEnvelopeReceiver();
  let server: RunningFolio;
  beforeAll(async () => {
    server = await startFolio({
      env: { SENTRY_DSN: receiver.dsn, SENTRY_ENVIRONMENT: 'test', SENTRY_TRACES_SAMPLE_RATE: '1' },
    });
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
    receiver.stop();
  }, 30_000);

  // The server SDK hands its startSpan to spans.ts when it starts (nothing else loads the SDK
  // for spans, so the CLI does not pay for it): an uncached page's query is a span of its own.
  test('an uncached page view: its database query inside the request span', async () => {
    expect((await fetch(`${server.url}/about`, { headers: { accept: 'text/html' } })).status).toBe(
      200,
    );
    const query = await waitFor(() =>
      spans(receiver.envelopes).find(
        (span) => spanOp(span) === 'db.query' && span.name === 'getPage',
      ),
    );
    const request = spans(receiver.envelopes).find(
      (span) => span.is_segment && span.trace_id === query.trace_id,
    );
    expect(spanOp(request ?? {})).toBe('http.server');
  });
});
