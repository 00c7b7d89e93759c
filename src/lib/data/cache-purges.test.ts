// The purge outbox's claims on a real database (docs/decisions/0045): of two instances asking at
// once, one gets each purge; a claim whose instance died is free again when its lease ends; a
// failed purge waits its backoff, and the fourth failure gives it up.
import { afterEach, expect, test } from 'bun:test';
import { openTestDatabase, TEST_ENGINE } from '../../../tests/databases';
import { claimPurges, MAX_ATTEMPTS, purgeDone, purgeFailed, recordPurge } from './cache-purges';
import { pagesChanged } from './content-changes';
import { type Database, openDatabase } from './db';

const opened: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const db of opened.splice(0).reverse()) await db.close();
});

/** Two instances' connections to one throw-away database. */
async function twoInstances(): Promise<[Database, Database]> {
  const first = await openTestDatabase();
  opened.push({ close: () => first.dispose() });
  const second = await openDatabase(first.url, { poolSize: 3 });
  opened.push(second);
  return [first, second];
}

const at = (ms: number) => new Date(Date.UTC(2026, 10, 26, 12, 0, 0) + ms);

test(`two instances asking at once claim each purge once (${TEST_ENGINE})`, async () => {
  const [a, b] = await twoInstances();
  for (let version = 1; version <= 30; version++)
    await recordPurge(a.query, version, pagesChanged(`page-${version}`), at(0));
  const claimed = await Promise.all(
    Array.from({ length: 6 }, (_, i) => claimPurges(i % 2 ? a : b, at(10), 10)),
  );
  const ids = claimed.flat().map((purge) => purge.id);
  // Never one twice; any left (a claim that lost every race) is there for the next round.
  expect(new Set(ids).size).toBe(ids.length);
  const rest = (await claimPurges(a, at(20), 30)).map((purge) => purge.id);
  expect(new Set([...ids, ...rest]).size).toBe(30);
  expect(ids.length + rest.length).toBe(30);
  // Claimed and in their lease: nobody gets them again.
  expect(await claimPurges(a, at(5_000))).toEqual([]);
});

test(`a dead instance's claim is free again when its lease ends (${TEST_ENGINE})`, async () => {
  const [a, b] = await twoInstances();
  await recordPurge(a.query, 7, pagesChanged('about'), at(0));
  const [taken] = await claimPurges(a, at(0));
  expect(taken?.keys).toEqual(['page-about', 'feed', 'sitemap', 'api']);
  // `a` dies holding it.
  expect(await claimPurges(b, at(9_000))).toEqual([]);
  const [again] = await claimPurges(b, at(10_001));
  expect(again?.id).toBe(taken?.id ?? -1);
  expect(again?.attempts).toBe(2);
  await purgeDone(b.query, again?.id ?? -1, at(10_100));
  expect(await claimPurges(a, at(60_000))).toEqual([]);
});

test(`a failed purge waits its backoff, and the last failure gives it up (${TEST_ENGINE})`, async () => {
  const [a] = await twoInstances();
  await recordPurge(a.query, 1, pagesChanged('about'), at(0));
  let now = 0;
  let gaveUp = false;
  for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
    const [purge] = await claimPurges(a, at(now));
    expect(purge?.attempts).toBe(attempt);
    gaveUp = await purgeFailed(a.query, purge as NonNullable<typeof purge>, at(now));
    if (gaveUp) break;
    // Not before its wait is over.
    expect(await claimPurges(a, at(now + 100))).toEqual([]);
    now += 5_000;
  }
  expect(gaveUp).toBe(true);
  expect(await claimPurges(a, at(now + 3_600_000))).toEqual([]);
});

test(`a claim takes no more than its limit (${TEST_ENGINE})`, async () => {
  const [a] = await twoInstances();
  for (let version = 1; version <= 12; version++)
    await recordPurge(a.query, version, pagesChanged(`limit-${version}`), at(0));
  for (const limit of [1, 2, 3]) {
    const claimed = await claimPurges(a, at(10 + limit), limit);
    expect(claimed.length, `limit ${limit}`).toBe(limit);
  }
});
