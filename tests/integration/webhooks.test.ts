// Webhooks (issue 29, docs/decisions/0046) against a real receiver on loopback (Bun.serve on
// 127.0.0.1; the servers run with WEBHOOKS_ALLOW_PRIVATE=1, since loopback is otherwise
// refused): a publish delivers one event signed per Standard Webhooks, verified with the
// spec's own library; a receiver answering 500 then 200 gets it twice and no more; on
// PostgreSQL, two instances on one database deliver each event once, and a delivery claimed by
// an instance killed mid-send is sent by another once its lease ends. The delivery log shows it.
// A receiver answering 410 Gone is turned off at once, with the reason on the screen and the
// dashboard.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { Webhook } from 'standardwebhooks';
import { addEditor, createSession } from '../../src/lib/editors/accounts';
import { SESSION_COOKIE } from '../../src/lib/http/routes';
import {
  addEndpoint,
  LEASE_MS,
  listDeliveries,
  type WebhookDelivery,
} from '../../src/lib/webhooks/store';
import { createThrowAwayDatabase, TEST_ENGINE, type ThrowAwayDatabase } from '../databases';
import { type RunningFolio, startFolio, startTwoFolios, waitFor, withStore } from '../harness';
import { publishThroughForms } from '../publishing';

type Received = { path: string; headers: Record<string, string>; body: string; at: number };
const received: Received[] = [];
/** Per path: the statuses answered next, in turn (200 when none is left); 'hang' never answers. */
const script = new Map<string, (number | 'hang')[]>();
let receiver: ReturnType<typeof Bun.serve>;

const ENV = { WEBHOOKS_ALLOW_PRIVATE: '1', SCHEDULE_CHECK_SECONDS: '0.3' };

beforeAll(() => {
  receiver = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    async fetch(request) {
      const path = new URL(request.url).pathname;
      received.push({
        path,
        headers: Object.fromEntries(request.headers),
        body: await request.text(),
        at: Date.now(),
      });
      const next = script.get(path)?.shift() ?? 200;
      if (next === 'hang') return new Promise<Response>(() => undefined);
      return new Response(next === 200 ? 'thanks' : 'not today', { status: next });
    },
  });
});

afterAll(() => receiver?.stop(true));

const at = (path: string) => received.filter((request) => request.path === path);
const url = (path: string) => `http://127.0.0.1:${receiver.port}${path}`;

async function register(folio: RunningFolio, path: string, events: string[]) {
  const db = await folio.database();
  return addEndpoint(db.query, {
    url: url(path),
    events,
    by: 'test',
    at: new Date(),
    allowPrivate: true,
  });
}

async function deliveries(folio: RunningFolio, endpointId: number): Promise<WebhookDelivery[]> {
  return listDeliveries((await folio.database()).query, endpointId);
}

/** Waits for `count` requests at `path` (a generous deadline: a busy machine). */
function received_(path: string, count: number, timeoutMs = 30_000) {
  return waitFor(() => (at(path).length >= count ? at(path) : undefined), {
    timeoutMs,
    what: () => `${count} webhook(s) at ${path}, got ${at(path).length}`,
  });
}

/** Lets the deliverers poll a few more times: what should not come has had its chance. */
const settle = () => Bun.sleep(2_500);

describe(`webhooks on ${TEST_ENGINE}`, () => {
  let database: ThrowAwayDatabase;
  let folio: RunningFolio;

  beforeAll(async () => {
    database = await createThrowAwayDatabase();
    folio = await startFolio({ database, keepDatabase: true, env: ENV });
  }, 90_000);

  afterAll(async () => {
    await folio?.stop();
    await database?.drop();
  });

  test('a publish delivers one event, signed per Standard Webhooks, with published content only', async () => {
    const { endpoint, secret } = await register(folio, '/one', ['page.published', 'page.updated']);
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    await withStore(folio, async (store) => {
      await store.putPage(
        { slug: 'hooked', title: 'Hooked', summary: '', body: 'PUBLISHED-TEXT' },
        { publish: true },
      );
      // A draft after it: its text must never be in a webhook.
      await store.putPage({
        slug: 'hooked',
        title: 'Draft title',
        summary: '',
        body: 'DRAFT-TEXT',
      });
    });
    const [request] = await received_('/one', 1);
    if (!request) throw new Error('no request');
    const verified = new Webhook(secret).verify(request.body, request.headers) as {
      type: string;
      timestamp: string;
      data: { eventId: number; page: { slug: string; title: string; url: string; id: number } };
    };
    expect(verified.type).toBe('page.published');
    expect(verified.data.page).toMatchObject({ slug: 'hooked', title: 'Hooked', url: '/hooked' });
    expect(request.headers['webhook-id']).toBe(`evt_${verified.data.eventId}`);
    expect(request.body).not.toContain('DRAFT');
    // Another secret does not verify it: the signature is real.
    expect(() =>
      new Webhook(`whsec_${Buffer.alloc(32, 7).toString('base64')}`).verify(
        request.body,
        request.headers,
      ),
    ).toThrow();

    // Published again: `page.updated`, a new event with its own id.
    await withStore(folio, (store) => store.publish('hooked'));
    const [, again] = await received_('/one', 2);
    expect(JSON.parse(again?.body ?? '{}')).toMatchObject({
      type: 'page.updated',
      data: { page: { slug: 'hooked', title: 'Draft title' } },
    });
    expect(again?.headers['webhook-id']).not.toBe(request.headers['webhook-id']);
    await settle();
    expect(at('/one')).toHaveLength(2);
    const log = await deliveries(folio, endpoint.id);
    expect(log.map((delivery) => [delivery.type, delivery.state, delivery.attempts])).toEqual([
      ['page.updated', 'delivered', 1],
      ['page.published', 'delivered', 1],
    ]);
    expect(log[0]).toMatchObject({ lastStatus: 200, excerpt: 'thanks', nextAt: null });
    expect(log[0]?.latencyMs).toBeGreaterThanOrEqual(0);
    expect(folio.unexpectedErrors()).toEqual([]);
  }, 60_000);

  test('a receiver answering 500 then 200 gets the event twice, with one id, and no more', async () => {
    script.set('/flaky', [500]);
    const { endpoint } = await register(folio, '/flaky', ['page.published']);
    await withStore(folio, (store) =>
      store.putPage(
        { slug: 'flaky-news', title: 'Flaky', summary: '', body: 'x' },
        { publish: true },
      ),
    );
    const [first] = await received_('/flaky', 1);
    await waitFor(
      async () => {
        const [delivery] = await deliveries(folio, endpoint.id);
        return delivery?.state === 'pending' && delivery.lastStatus === 500 ? delivery : undefined;
      },
      { what: 'the failed attempt in the delivery log' },
    ).then((delivery) => {
      expect(delivery.attempts).toBe(1);
      expect(delivery.lastError).toBe('answered 500');
      expect(delivery.excerpt).toBe('not today');
      // The first wait of the backoff: 5 s.
      expect(Date.parse(delivery.nextAt ?? '')).toBeGreaterThan(Date.now());
    });
    const [, second] = await received_('/flaky', 2);
    expect(second?.headers['webhook-id']).toBe(first?.headers['webhook-id']);
    expect((second?.at ?? 0) - (first?.at ?? 0)).toBeGreaterThanOrEqual(4_500);
    await settle();
    expect(at('/flaky')).toHaveLength(2);
    const [delivery] = await deliveries(folio, endpoint.id);
    expect(delivery).toMatchObject({ state: 'delivered', attempts: 2, lastStatus: 200 });
    expect(folio.unexpectedErrors()).toEqual([]);
  }, 60_000);

  test('a receiver answering 410 Gone is turned off at once, said on the screen and the dashboard', async () => {
    script.set('/gone', [410, 410, 410]);
    const { endpoint } = await register(folio, '/gone', ['page.published']);
    await withStore(folio, (store) =>
      store.putPage(
        { slug: 'gone-news', title: 'Gone', summary: '', body: 'x' },
        { publish: true },
      ),
    );
    await received_('/gone', 1);
    const db = await folio.database();
    const turnedOff = await waitFor(
      async () => {
        const [row] = await db.query<{ enabled: number | string; disabled_reason: string | null }>`
          SELECT enabled, disabled_reason FROM webhook_endpoints WHERE id = ${endpoint.id}`;
        return Number(row?.enabled) === 0 ? row : undefined;
      },
      { what: 'the endpoint turned off after its 410' },
    );
    expect(turnedOff.disabled_reason).toContain('answered 410 Gone');
    // Kept, waiting: it goes if the endpoint is turned on again (not while off: store's test).
    const [waiting] = await deliveries(folio, endpoint.id);
    expect(waiting).toMatchObject({ state: 'pending', attempts: 1, lastStatus: 410 });
    const person = await addEditor(db, 'owner@gone.example', 'the gone passphrase');
    const cookie = `${SESSION_COOKIE}=${(await createSession(db.query, person.id)).id}`;
    const page = async (path: string) =>
      (
        await (
          await fetch(`${folio.url}${path}`, { headers: { cookie, accept: 'text/html' } })
        ).text()
      ).replaceAll('<!-- -->', '');
    expect((await page('/preview?webhooks')).includes('answered 410 Gone')).toBe(true);
    const dashboard = await page('/preview');
    expect(dashboard.includes('A webhook was turned off')).toBe(true);
    expect(dashboard.includes(url('/gone'))).toBe(true);
    expect(folio.unexpectedErrors()).toEqual([]);
  }, 60_000);
});

describe(`a publish on a server's own screen, on ${TEST_ENGINE}`, () => {
  let folio: RunningFolio;
  beforeAll(async () => {
    // The scheduler's default pace (15 s): only the commit's own kick can be quick.
    folio = await startFolio({ env: { WEBHOOKS_ALLOW_PRIVATE: '1' } });
  }, 90_000);
  afterAll(async () => {
    await folio?.stop();
  });

  test('goes out right after its commit, not at the next scheduler round', async () => {
    await register(folio, '/at-once', ['page.published']);
    const db = await folio.database();
    const person = await addEditor(db, 'owner@at-once.example', 'the at-once passphrase');
    const cookie = `${SESSION_COOKIE}=${(await createSession(db.query, person.id)).id}`;
    await withStore(folio, (store) =>
      store.putPage({ slug: 'at-once', title: 'At once', summary: '', body: 'A draft' }),
    );
    let publishedAt = 0;
    await publishThroughForms(folio.url, cookie, 'at-once', 'Out at once', () => {
      publishedAt = Date.now();
    });
    const [request] = await received_('/at-once', 1, 12_000);
    // Well inside the 15 s the scheduler would take (a busy machine still answers in seconds).
    expect((request?.at ?? Number.POSITIVE_INFINITY) - publishedAt).toBeLessThan(10_000);
    expect(request?.body).toContain('"slug":"at-once"');
  });
});

describe.if(TEST_ENGINE === 'postgres')('webhooks from several instances on PostgreSQL', () => {
  test('two instances on one database deliver each event once', async () => {
    const database = await createThrowAwayDatabase();
    const [a, b] = await startTwoFolios(database, { env: ENV });
    try {
      const { endpoint } = await register(a, '/pair', ['page.published']);
      const slugs = ['pair-1', 'pair-2', 'pair-3', 'pair-4', 'pair-5', 'pair-6'];
      for (const [index, slug] of slugs.entries())
        await withStore(index % 2 === 0 ? a : b, (store) =>
          store.putPage({ slug, title: slug, summary: '', body: 'x' }, { publish: true }),
        );
      await received_('/pair', slugs.length);
      await settle();
      const ids = at('/pair').map((request) => request.headers['webhook-id']);
      expect(ids).toHaveLength(slugs.length);
      expect(new Set(ids).size).toBe(slugs.length);
      const log = await deliveries(a, endpoint.id);
      expect(log.map((delivery) => delivery.state)).toEqual(slugs.map(() => 'delivered'));
      expect(log.every((delivery) => delivery.attempts === 1)).toBe(true);
      for (const instance of [a, b]) expect(instance.unexpectedErrors()).toEqual([]);
    } finally {
      await Promise.all([a.stop(), b.stop()]);
      await database.drop();
    }
  }, 120_000);

  test("a killed instance's claimed delivery is sent by another after its lease", async () => {
    const database = await createThrowAwayDatabase();
    script.set('/hang', ['hang']);
    let a: RunningFolio | null = await startFolio({ database, keepDatabase: true, env: ENV });
    let b: RunningFolio | null = null;
    try {
      const { endpoint } = await register(a, '/hang', ['page.published']);
      await withStore(a, (store) =>
        store.putPage(
          { slug: 'orphan', title: 'Orphan', summary: '', body: 'x' },
          { publish: true },
        ),
      );
      const [first] = await received_('/hang', 1);
      // A holds the claim and waits for an answer that never comes; it dies mid-send.
      process.kill(a.pid, 'SIGKILL');
      await a.exited;
      await a.stop();
      a = null;
      b = await startFolio({ database, keepDatabase: true, env: ENV });
      const [, second] = await received_('/hang', 2, LEASE_MS + 30_000);
      expect(second?.headers['webhook-id']).toBe(first?.headers['webhook-id']);
      // Not before A's lease ended.
      expect((second?.at ?? 0) - (first?.at ?? 0)).toBeGreaterThanOrEqual(LEASE_MS - 1_000);
      await settle();
      expect(at('/hang')).toHaveLength(2);
      const [delivery] = await deliveries(b, endpoint.id);
      expect(delivery).toMatchObject({ state: 'delivered', attempts: 2, lastStatus: 200 });
      expect(b.unexpectedErrors()).toEqual([]);
    } finally {
      await a?.stop();
      await b?.stop();
      await database.drop();
    }
  }, 120_000);
});
