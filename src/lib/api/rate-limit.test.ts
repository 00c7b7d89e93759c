// The content API's rate limiter on a real database (docs/decisions/0047): one instance is
// exact; two instances on one database share the count, and a client spread over both gets at
// most limit + quota through; a new window starts again; nothing is written per request.
import { afterEach, expect, test } from 'bun:test';
import { expectConsoleErrors } from '../../../tests/console-guard';
import { openTestDatabase, TEST_ENGINE } from '../../../tests/databases';
import { type Database, openDatabase } from '../data/db';
import { addressBucket, createRateLimiter, quotaOf } from './rate-limit';

const opened: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const db of opened.splice(0).reverse()) await db.close();
});

async function twoInstances(): Promise<[Database, Database]> {
  const first = await openTestDatabase();
  opened.push({ close: () => first.dispose() });
  const second = await openDatabase(first.url, { poolSize: 3 });
  opened.push(second);
  return [first, second];
}

/** A clock a test moves: 30 s into a minute window. */
function clock() {
  let ms = Date.UTC(2026, 10, 27, 12, 0, 30);
  return { now: () => ms, move: (by: number) => (ms += by) };
}

async function rowsOf(db: Database, bucket: string): Promise<number> {
  const [row] = await db.query<{ n: number | string | null }>`
    SELECT SUM(count) AS n FROM api_rate_counts WHERE bucket = ${bucket}`;
  return Number(row?.n ?? 0);
}

test(`one instance lets exactly the limit through, then says when to come back (${TEST_ENGINE})`, async () => {
  const [db] = await twoInstances();
  const time = clock();
  const limiter = createRateLimiter({ database: async () => db, windowSeconds: 60, ...time });
  const answers = [];
  for (let i = 0; i < 25; i++) answers.push(await limiter.take('a 192.0.2.1', 20));
  expect(answers.filter((answer) => answer.allowed).length).toBe(20);
  expect(answers.slice(20).every((answer) => !answer.allowed)).toBe(true);
  expect(answers[0]).toMatchObject({ limit: 20, remaining: 19, resetSeconds: 30 });
  expect(answers[24]).toMatchObject({ allowed: false, remaining: 0, resetSeconds: 30 });
  // Another client is counted apart.
  expect((await limiter.take('a 192.0.2.2', 20)).allowed).toBe(true);
  await limiter.flushAll();
  // Refusals are not counted: the database holds the 20 let through.
  expect(await rowsOf(db, 'a 192.0.2.1')).toBe(20);
  // The next window starts again.
  time.move(30_000);
  expect((await limiter.take('a 192.0.2.1', 20)).allowed).toBe(true);
});

test(`requests are not written one by one: only at a flush or past an instance's share (${TEST_ENGINE})`, async () => {
  const [db] = await twoInstances();
  const limiter = createRateLimiter({ database: async () => db, windowSeconds: 60, ...clock() });
  // A limit of 1 200: an instance lets 120 through before it asks the database.
  for (let i = 0; i < quotaOf(1200); i++) await limiter.take('k 1', 1200);
  expect(await rowsOf(db, 'k 1')).toBe(0);
  await limiter.take('k 1', 1200);
  expect(await rowsOf(db, 'k 1')).toBe(quotaOf(1200));
  await limiter.flushAll();
  expect(await rowsOf(db, 'k 1')).toBe(quotaOf(1200) + 1);
});

test(`two instances share one count: at most limit + quota through (${TEST_ENGINE})`, async () => {
  const [a, b] = await twoInstances();
  const time = clock();
  const first = createRateLimiter({ database: async () => a, windowSeconds: 60, ...time });
  const second = createRateLimiter({ database: async () => b, windowSeconds: 60, ...time });
  const limit = 40;
  // The client uses the first instance up to its limit, the flush shares it...
  let through = 0;
  for (let i = 0; i < limit; i++)
    if ((await first.take('a 198.51.100.7', limit)).allowed) through++;
  expect(through).toBe(limit);
  await first.flushAll();
  // ...and the second, which has not heard of it, lets at most its share through before it
  // asks, hears the sum, and refuses.
  let more = 0;
  for (let i = 0; i < limit; i++) if ((await second.take('a 198.51.100.7', limit)).allowed) more++;
  expect(more).toBeLessThanOrEqual(quotaOf(limit));
  expect((await second.take('a 198.51.100.7', limit)).allowed).toBe(false);
  // Alternating between them from the start of a window: never more than limit + quota.
  time.move(60_000);
  let alternating = 0;
  for (let i = 0; i < limit * 3; i++) {
    const limiter = i % 2 ? first : second;
    if ((await limiter.take('a 198.51.100.7', limit)).allowed) alternating++;
    if (i % 7 === 0) await Promise.all([first.flushAll(), second.flushAll()]);
  }
  expect(alternating).toBeGreaterThanOrEqual(limit);
  expect(alternating).toBeLessThanOrEqual(limit + quotaOf(limit));
});

test(`a concurrent burst over two instances: still at most limit + quota through (${TEST_ENGINE})`, async () => {
  // Hostile pass, 2026-11-27: the requests that came while an instance asked for the sum all
  // went in when it answered (114 through a limit of 60 on two instances).
  const [a, b] = await twoInstances();
  const time = clock();
  const first = createRateLimiter({ database: async () => a, windowSeconds: 60, ...time });
  const second = createRateLimiter({ database: async () => b, windowSeconds: 60, ...time });
  const limit = 20;
  const answers = await Promise.all(
    Array.from({ length: 200 }, (_, i) => (i % 2 ? first : second).take('a 198.51.100.9', limit)),
  );
  const through = answers.filter((answer) => answer.allowed).length;
  expect(through).toBeGreaterThanOrEqual(limit);
  expect(through).toBeLessThanOrEqual(limit + quotaOf(limit));
});

test('a database that does not answer: each instance counts alone, and says so once', async () => {
  const failing = async (): Promise<Database> => {
    throw new Error('connection refused');
  };
  const logged = expectConsoleErrors();
  const limiter = createRateLimiter({ database: failing, windowSeconds: 60, ...clock() });
  const answers = [];
  for (let i = 0; i < 12; i++) answers.push((await limiter.take('a 203.0.113.9', 10)).allowed);
  expect(answers.filter(Boolean).length).toBe(10);
  await limiter.flushAll();
  expect((await limiter.take('a 203.0.113.9', 10)).allowed).toBe(false);
  const warnings = logged.lines().filter((line) => line.includes('API rate counts not shared'));
  expect(warnings.length).toBe(1);
});

test('an IPv6 client is its /64; IPv4 as itself, mapped or not', () => {
  expect(addressBucket('2001:db8:1:2:3:4:5:6')).toBe('2001:db8:1:2::/64');
  expect(addressBucket('2001:db8:1:2::ffff')).toBe('2001:db8:1:2::/64');
  expect(addressBucket('2001:0db8::1')).toBe('2001:db8:0:0::/64');
  expect(addressBucket('::1')).toBe('0:0:0:0::/64');
  expect(addressBucket('::ffff:192.0.2.1')).toBe('192.0.2.1');
  expect(addressBucket('192.0.2.1')).toBe('192.0.2.1');
  expect(addressBucket('unknown')).toBe('unknown');
});
