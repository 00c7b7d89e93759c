// The delivery outbox's rules on a real database (docs/decisions/0046): an event dispatched
// twice is one delivery; a delivery waits while an earlier one for its endpoint and page is
// pending; two instances claiming at once get different rows; a failure waits its backoff and
// the last gives the delivery up and turns its endpoint off, with a notice; so do 20 failures
// in a row; a given-up delivery can be sent again by hand; a 410 Gone turns an endpoint off at
// once; endpoints that have been failing are claimed after healthy ones; a site has at most
// MAX_ENDPOINTS webhooks.
import { afterEach, expect, test } from 'bun:test';
import { openTestDatabase } from '../../../tests/databases';
import { type Database, openDatabase } from '../data/db';
import {
  addEndpoint,
  type ClaimedDelivery,
  claimDeliveries,
  DISABLE_AFTER_FAILURES,
  endpointsTurnedOff,
  enqueueDeliveries,
  getEndpoint,
  listDeliveries,
  listEndpoints,
  MAX_ATTEMPTS,
  MAX_ENDPOINTS,
  pruneDeliveries,
  recordAttempt,
  redeliver,
} from './store';

const opened: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const db of opened.splice(0).reverse()) await db.close();
});

async function database(): Promise<Database & { url: string }> {
  const db = await openTestDatabase();
  opened.push({ close: () => db.dispose() });
  return db;
}

const T0 = new Date('2026-11-27T00:00:00Z');
const later = (ms: number) => new Date(T0.getTime() + ms);

/** Each endpoint a URL of its own: one URL takes one webhook. */
let endpoints = 0;
async function endpoint(db: Database, events = ['page.published', 'page.updated']) {
  endpoints += 1;
  const { endpoint } = await addEndpoint(db.query, {
    url: `https://hooks.example.com/folio-${endpoints}`,
    events,
    by: null,
    at: T0,
    allowPrivate: false,
  });
  return endpoint;
}

const message = (eventId: number, pageKey: number, type = 'page.published' as const) => ({
  eventId,
  type,
  pageKey,
  body: JSON.stringify({ type, data: { eventId } }),
});

const failure = (at: Date) => ({
  at,
  status: 500,
  latencyMs: 3,
  excerpt: 'no',
  error: 'answered 500',
});

test('an event dispatched twice is one delivery, for subscribed enabled endpoints only', async () => {
  const db = await database();
  const subscribed = await endpoint(db);
  await endpoint(db, ['settings.changed']);
  expect(await enqueueDeliveries(db.query, message(1, 7), T0)).toBe(1);
  expect(await enqueueDeliveries(db.query, message(1, 7), T0)).toBe(0);
  expect(await listDeliveries(db.query, subscribed.id)).toHaveLength(1);
});

test('deliveries go in order per endpoint and page; other pages do not wait', async () => {
  const db = await database();
  await endpoint(db);
  for (const [eventId, page] of [
    [1, 7],
    [2, 7],
    [3, 8],
  ] as const)
    await enqueueDeliveries(db.query, message(eventId, page), T0);
  const first = await claimDeliveries(db, T0, 'a');
  expect(first.map((delivery) => delivery.eventId)).toEqual([1, 3]);
  // Event 1 failed: event 2, for the same page, waits for its retry, not only its claim.
  const [one] = first as [ClaimedDelivery];
  expect((await recordAttempt(db, one, failure(T0))).retryInMs).toBe(5_000);
  expect(await claimDeliveries(db, later(1_000), 'a')).toEqual([]);
  const retried = await claimDeliveries(db, later(5_000), 'a');
  expect(retried.map((delivery) => [delivery.eventId, delivery.attempts])).toEqual([[1, 2]]);
  await recordAttempt(db, retried[0] as ClaimedDelivery, {
    ...failure(later(5_000)),
    status: 204,
    error: null,
  });
  expect((await claimDeliveries(db, later(5_001), 'a')).map((d) => d.eventId)).toEqual([2]);
});

test('two instances claiming at once get different deliveries; a dead one’s claim frees after its lease', async () => {
  const db = await database();
  const other = await openDatabase(db.url, { poolSize: 3 });
  opened.push(other);
  await endpoint(db);
  for (let eventId = 1; eventId <= 8; eventId += 1)
    await enqueueDeliveries(db.query, message(eventId, eventId), T0);
  const [a, b] = await Promise.all([
    claimDeliveries(db, T0, 'a', 5),
    claimDeliveries(other, T0, 'b', 5),
  ]);
  const ids = [...a, ...b].map((delivery) => delivery.id);
  expect(ids).toHaveLength(8);
  expect(new Set(ids).size).toBe(8);
  expect(await claimDeliveries(db, later(1_000), 'c')).toEqual([]);
  expect(await claimDeliveries(db, later(15_000), 'c')).toHaveLength(8);
});

test('the last failed attempt gives a delivery up and turns its endpoint off; redeliver sends it again', async () => {
  const db = await database();
  const hook = await endpoint(db);
  await enqueueDeliveries(db.query, message(1, 7), T0);
  let now = T0;
  let outcome: Awaited<ReturnType<typeof recordAttempt>> | null = null;
  for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt += 1) {
    const [claimed] = await claimDeliveries(db, now, 'a');
    if (!claimed) throw new Error(`attempt ${attempt} was not claimed at ${now.toISOString()}`);
    expect(claimed.attempts).toBe(attempt);
    outcome = await recordAttempt(db, claimed, failure(now));
    now = new Date(now.getTime() + (outcome.retryInMs ?? 0));
  }
  expect(outcome).toMatchObject({ state: 'failed', retryInMs: null });
  expect(outcome?.endpointTurnedOff).toMatch(/every attempt of delivery/);
  const [turnedOff] = await endpointsTurnedOff(db.query);
  expect(turnedOff).toMatchObject({ id: hook.id, enabled: false });
  const [given] = await listDeliveries(db.query, hook.id);
  expect(given).toMatchObject({ state: 'failed', attempts: MAX_ATTEMPTS, nextAt: null });
  // Off: new events are not queued for it; one redelivered waits until it is on again.
  expect(await enqueueDeliveries(db.query, message(2, 7), now)).toBe(0);
  await redeliver(db.query, given?.id ?? 0, now);
  await expect(redeliver(db.query, given?.id ?? 0, now)).rejects.toThrow(/still being tried/);
  expect(await claimDeliveries(db, now, 'a')).toEqual([]);
  await db.query`UPDATE webhook_endpoints SET enabled = 1, disabled_reason = NULL`;
  expect((await claimDeliveries(db, now, 'a')).map((d) => d.attempts)).toEqual([1]);
});

test(`${DISABLE_AFTER_FAILURES} failed attempts in a row turn an endpoint off`, async () => {
  const db = await database();
  const hook = await endpoint(db);
  for (let eventId = 1; eventId <= DISABLE_AFTER_FAILURES; eventId += 1)
    await enqueueDeliveries(db.query, message(eventId, eventId), T0);
  const claimed = await claimDeliveries(db, T0, 'a', DISABLE_AFTER_FAILURES);
  expect(claimed).toHaveLength(DISABLE_AFTER_FAILURES);
  const outcomes = [];
  for (const delivery of claimed) outcomes.push(await recordAttempt(db, delivery, failure(T0)));
  expect(outcomes.filter((o) => o.endpointTurnedOff !== null)).toHaveLength(1);
  expect(outcomes.at(-1)?.endpointTurnedOff).toMatch(/20 attempts in a row failed/);
  expect((await getEndpoint(db.query, hook.id)).enabled).toBe(false);
});

test('finished deliveries are deleted after 30 days; pending ones are kept', async () => {
  const db = await database();
  const hook = await endpoint(db);
  await enqueueDeliveries(db.query, message(1, 1), T0);
  await enqueueDeliveries(db.query, message(2, 2), T0);
  const [first] = await claimDeliveries(db, T0, 'a', 1);
  await recordAttempt(db, first as ClaimedDelivery, { ...failure(T0), status: 200, error: null });
  await pruneDeliveries(db.query, later(29 * 24 * 3_600_000));
  expect(await listDeliveries(db.query, hook.id)).toHaveLength(2);
  await pruneDeliveries(db.query, later(31 * 24 * 3_600_000));
  expect((await listDeliveries(db.query, hook.id)).map((d) => d.eventId)).toEqual([2]);
});

test('a receiver answering 410 Gone is turned off at once, with the reason; the delivery waits', async () => {
  const db = await database();
  const hook = await endpoint(db);
  await enqueueDeliveries(db.query, message(1, 7), T0);
  const [claimed] = await claimDeliveries(db, T0, 'a');
  const outcome = await recordAttempt(db, claimed as ClaimedDelivery, {
    ...failure(T0),
    status: 410,
    error: 'answered 410',
  });
  expect(outcome.endpointTurnedOff).toMatch(/410 Gone/);
  const [turnedOff] = await endpointsTurnedOff(db.query);
  expect(turnedOff).toMatchObject({ id: hook.id, enabled: false });
  expect(turnedOff?.disabledReason).toMatch(/answered 410 Gone/);
  // Not tried again while off (its retry is due in 5 s), nor sent anything new.
  expect(await claimDeliveries(db, later(60_000), 'a')).toEqual([]);
  expect(await enqueueDeliveries(db.query, message(2, 8), T0)).toBe(0);
  const [waiting] = await listDeliveries(db.query, hook.id);
  expect(waiting).toMatchObject({ state: 'pending', lastStatus: 410 });
});

test('endpoints whose last attempt failed are claimed after the healthy ones', async () => {
  const db = await database();
  const failing = await endpoint(db);
  const healthy = await endpoint(db);
  await db.query`UPDATE webhook_endpoints SET consecutive_failures = 3 WHERE id = ${failing.id}`;
  await enqueueDeliveries(db.query, message(1, 7), T0);
  await enqueueDeliveries(db.query, message(2, 8), T0);
  const first = await claimDeliveries(db, T0, 'a', 1);
  expect(first.map((delivery) => [delivery.endpointId, delivery.eventId])).toEqual([
    [healthy.id, 1],
  ]);
  // The healthy endpoint's later event before the failing one's earlier event.
  const next = await claimDeliveries(db, T0, 'a', 1);
  expect(next.map((delivery) => [delivery.endpointId, delivery.eventId])).toEqual([
    [healthy.id, 2],
  ]);
  const last = await claimDeliveries(db, T0, 'a', 5);
  expect(last.map((delivery) => delivery.endpointId)).toEqual([failing.id, failing.id]);
});

test('a claim takes no more than its limit (the deliverer’s free places)', async () => {
  const db = await database();
  for (let n = 0; n < 3; n += 1) await endpoint(db);
  for (let eventId = 1; eventId <= 4; eventId += 1)
    await enqueueDeliveries(db.query, message(eventId, eventId), T0);
  const sizes: number[] = [];
  for (let round = 0; round < 14; round += 1)
    sizes.push((await claimDeliveries(db, T0, 'a', 1)).length);
  // 12 deliveries (3 endpoints × 4 pages), one a claim, then none.
  expect(sizes).toEqual([...Array(12).fill(1), 0, 0]);
});

test(`a site has at most ${MAX_ENDPOINTS} webhooks: one more is refused in words`, async () => {
  const db = await database();
  // Straight into the table but one, as registering each would be slow for nothing.
  await db.query`
    INSERT INTO webhook_endpoints (url, events, secret, created_at)
    SELECT 'https://hooks.example.com/many-' || CAST(n.i AS TEXT), 'page.published', 'whsec_x',
           ${T0.toISOString()}
    FROM (WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${MAX_ENDPOINTS - 1})
          SELECT i FROM n) n`;
  await endpoint(db);
  await expect(endpoint(db)).rejects.toThrow(
    `There are already ${MAX_ENDPOINTS} webhooks, the most a site may have: remove one first.`,
  );
  expect(await listEndpoints(db.query)).toHaveLength(MAX_ENDPOINTS);
});
