// A purge is sent twice (docs/decisions/0045, amendment "The echo"): once at once, and once more
// a moment later, so a fetch a cache had in flight when the change committed, stored after the
// first ban, is banned by the second. Purges sent close together share one echo. A real
// receiver on loopback and a real database; the echo's delay is shortened for the test.
import { afterEach, expect, test } from 'bun:test';
import { openTestDatabase, TEST_ENGINE } from '../../../tests/databases';
import { purgeRecorded, recordPurge } from '../data/cache-purges';
import { pagesChanged } from '../data/content-changes';
import { startPurger } from './purge';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

type Received = { at: number; method: string; keys: string };

/** A cache's purge endpoint, as a bare socket: Bun.serve's parser refuses the BAN method. */
function receiver() {
  const received: Received[] = [];
  const server = Bun.listen<{ head: string }>({
    hostname: '127.0.0.1',
    port: 0,
    socket: {
      open(socket) {
        socket.data = { head: '' };
      },
      data(socket, chunk) {
        socket.data.head += chunk.toString();
        if (!socket.data.head.includes('\r\n\r\n')) return;
        const [requestLine = '', ...lines] = socket.data.head.split('\r\n');
        const keys = lines.find((line) => line.toLowerCase().startsWith('x-purge-keys:'));
        received.push({
          at: performance.now(),
          method: requestLine.split(' ')[0] ?? '',
          keys: keys ? keys.slice(keys.indexOf(':') + 1).trim() : '',
        });
        socket.end('HTTP/1.1 200 OK\r\nContent-Length: 6\r\nConnection: close\r\n\r\nBanned');
      },
    },
  });
  cleanups.push(() => server.stop(true));
  return { url: `http://127.0.0.1:${server.port}/`, received };
}

async function until(what: string, ok: () => boolean, ms = 15_000) {
  const deadline = performance.now() + ms;
  while (!ok()) {
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await Bun.sleep(20);
  }
}

test(`a purge is sent again after the echo's delay, and close purges share one echo (${TEST_ENGINE})`, async () => {
  const db = await openTestDatabase();
  cleanups.push(() => db.dispose());
  const cache = receiver();
  const echoMs = 400;
  const purger = startPurger(
    db,
    { url: cache.url, method: 'BAN', header: 'X-Purge-Keys' },
    () => new Date(),
    echoMs,
  );
  cleanups.push(() => purger.stop());

  await recordPurge(db.query, 1, pagesChanged('first'), new Date());
  purgeRecorded();
  await until('the first ban', () => cache.received.length >= 1);
  await recordPurge(db.query, 2, pagesChanged('second'), new Date());
  purgeRecorded();
  await until('the second ban', () => cache.received.length >= 2);
  await until('the echo', () => cache.received.length >= 3);
  // Nothing more comes: one echo for both.
  await Bun.sleep(echoMs * 2);

  const [first, second, echo] = cache.received;
  expect(cache.received).toHaveLength(3);
  expect(cache.received.every((ban) => ban.method === 'BAN')).toBe(true);
  expect(first?.keys.split(' ')).toContain('page-first');
  expect(second?.keys.split(' ')).toContain('page-second');
  expect(echo?.keys.split(' ')).toEqual(
    expect.arrayContaining(['page-first', 'page-second', 'feed']),
  );
  // Not sooner than its delay after the first ban it repeats.
  expect((echo?.at ?? 0) - (first?.at ?? 0)).toBeGreaterThanOrEqual(echoMs - 20);
});

test(`a stopped purger sends no echo (${TEST_ENGINE})`, async () => {
  const db = await openTestDatabase();
  cleanups.push(() => db.dispose());
  const cache = receiver();
  const purger = startPurger(
    db,
    { url: cache.url, method: 'BAN', header: 'X-Purge-Keys' },
    () => new Date(),
    300,
  );
  await recordPurge(db.query, 1, pagesChanged('only'), new Date());
  purgeRecorded();
  await until('the ban', () => cache.received.length >= 1);
  await purger.stop();
  await Bun.sleep(700);
  expect(cache.received).toHaveLength(1);
});
