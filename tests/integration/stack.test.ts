// The deployment recipe started the way `bun run stack` starts it (scripts/stack/stack.ts, issue
// 29, docs/decisions/0048): a PostgreSQL database, two Folio instances, HAProxy balancing them
// with health checks (docs/deploy/haproxy.cfg) and Varnish in front (docs/deploy/varnish.vcl).
// A publish on instance 1 shows through Varnish at once and stays shown; a page it did not
// touch stays the same cached object, older; instance 1 killed, the site keeps answering
// through the stack without a single error while HAProxy takes it out.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { findHaproxy } from '../../scripts/stack/haproxy';
import { pickFreePort } from '../../scripts/stack/processes';
import { type RunningStack, startStack } from '../../scripts/stack/stack';
import { findVarnishd } from '../../scripts/stack/varnish';
import { createContentStore } from '../../src/lib/content/content';
import { openDatabase } from '../../src/lib/data/db';
import { ECHO_MS } from '../../src/lib/http/purge';
import { CoeditClient } from '../coedit-client';
import { createThrowAwayDatabase, TEST_ENGINE, type ThrowAwayDatabase } from '../databases';
import { signInWithForm } from '../forms';
import { runFolioCli, waitFor } from '../harness';
import { publishThroughForms } from '../publishing';

const missing = [findHaproxy() ? null : 'haproxy', findVarnishd() ? null : 'varnish'].filter(
  (name) => name !== null,
);
const SKIP =
  TEST_ENGINE !== 'postgres'
    ? 'the stack runs on PostgreSQL only (FOLIO_TEST_ENGINE=postgres runs it)'
    : missing.length > 0
      ? `${missing.join(' and ')} not installed (apt-get install -y haproxy varnish; .ci/run does)`
      : null;
if (SKIP) console.warn(`stack.test.ts skipped: ${SKIP}`);

const EDITOR = { email: 'stack@example.com', password: 'the stack passphrase' };
let database: ThrowAwayDatabase | null = null;
let stack: RunningStack | null = null;
const lines: string[] = [];
let cookie = '';

beforeAll(async () => {
  if (SKIP) return;
  database = await createThrowAwayDatabase('postgres');
  stack = await startStack({
    databaseUrl: database.url,
    port: pickFreePort(),
    balancerPort: pickFreePort(),
    instancePorts: [pickFreePort(), pickFreePort()],
    onLine: (name, line) => lines.push(`[${name}] ${line}`),
  });
  // The editor as an operator makes one; two pages of the test's own (a seeded page may be
  // linked from the menu, and a publish of it would purge every page).
  const added = await runFolioCli(['editor', 'add', EDITOR.email], {
    databaseUrl: database.url,
    stdin: `${EDITOR.password}\n`,
  });
  expect(added.code).toBe(0);
  const db = await openDatabase(database.url, { migrate: false, poolSize: 1 });
  try {
    const store = createContentStore(db);
    for (const slug of ['stack-a', 'stack-b'])
      await store.putPage(
        { slug, title: slug, summary: '', body: `${slug} FIRST-TEXT` },
        { publish: true },
      );
  } finally {
    await db.close();
  }
  // Their purges (sent by an instance's poll) land before anything is cached, and so do their
  // echoes (ECHO_MS later): a busy CI run saw an echo naming stack-b ban it after the test had
  // cached it.
  await stack.purgesSent();
  await Bun.sleep(ECHO_MS + 1_000);
  cookie = (await signInWithForm(stack.instances[0]?.url as string, EDITOR.email, EDITOR.password))
    .cookie;
}, 120_000);

afterAll(async () => {
  await stack?.stop();
  await database?.drop();
});

async function throughStack(pathname: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${stack?.url}${pathname}`, { headers });
  return {
    status: response.status,
    text: await response.text(),
    cache: response.headers.get('x-cache'),
    age: Number(response.headers.get('age') ?? 0),
    // Two transaction ids on a hit: this request's, and the one that stored the object.
    stored: (response.headers.get('x-varnish') ?? '').split(' ')[1],
  };
}

describe.skipIf(SKIP !== null)('the stack: Varnish, HAProxy, two instances, PostgreSQL', () => {
  test('a publish on one instance shows through Varnish, another page stays a hit, and the site outlives an instance', async () => {
    const running = stack as RunningStack;
    const [first, second] = running.instances;
    if (!first || !second) throw new Error('two instances were asked for');

    // Both pages cached: a miss, then (a second later) the same object, older.
    for (const slug of ['stack-a', 'stack-b']) {
      const miss = await throughStack(`/${slug}`);
      expect([miss.status, miss.cache]).toEqual([200, 'MISS']);
    }
    await Bun.sleep(1_100);
    const untouched = await throughStack('/stack-b');
    expect(untouched.cache).toBe('HIT');
    expect(untouched.age).toBeGreaterThan(0);
    expect((await throughStack('/stack-a')).cache).toBe('HIT');

    // Published on instance 1; visitors' requests go through Varnish to either instance.
    await publishThroughForms(first.url, cookie, 'stack-a', 'stack-a SECOND-TEXT');
    let attempts = 0;
    const requestsUntilShown = await waitFor(
      async () => {
        const seen = await throughStack('/stack-a');
        attempts += 1;
        return seen.text.includes('SECOND-TEXT') ? attempts : undefined;
      },
      { timeoutMs: 10_000, what: 'the published text through Varnish' },
    );
    console.info(`stack: the publish showed through Varnish at request ${requestsUntilShown}`);
    // Once shown, never the old text again, whichever instance a miss reaches.
    for (let i = 0; i < 10; i++) {
      const seen = await throughStack('/stack-a');
      expect(seen.text).toContain('SECOND-TEXT');
      expect(seen.text).not.toContain('FIRST-TEXT');
    }
    const after = await throughStack('/stack-b');
    expect(after.cache).toBe('HIT');
    expect(after.stored).toBe(untouched.stored);
    expect(after.age).toBeGreaterThanOrEqual(untouched.age);

    // Live co-editing's WebSocket (0050) through Varnish (piped) and HAProxy: two editors on
    // one page, each reaching an instance HAProxy picks, see each other's typing.
    const live = `${running.url.replace(/^http/, 'ws')}/preview/stack-b?live`;
    const [typing, watching] = [new CoeditClient('typing'), new CoeditClient('watching')];
    try {
      for (const client of [typing, watching])
        await client.connect(live, { cookie, origin: running.url });
      typing.text.insert(0, 'TYPED-THROUGH-THE-STACK ');
      await waitFor(
        () => (watching.text.toString().includes('TYPED-THROUGH-THE-STACK') ? true : undefined),
        { timeoutMs: 15_000, what: 'the other editor to see the typing through the stack' },
      );
    } finally {
      typing.disconnect();
      watching.disconnect();
    }

    // Instance 1 dies as a crash ends it. Requests that reach an instance (health, an editor's
    // preview: neither is cached) keep being answered, before and after HAProxy marks it down.
    await first.crash();
    const statuses: number[] = [];
    const askEverything = async () => {
      statuses.push((await throughStack('/healthz')).status);
      statuses.push((await throughStack('/preview/stack-b', { cookie })).status);
      statuses.push((await throughStack('/stack-b')).status);
    };
    for (let i = 0; i < 10; i++) await askEverything();
    await waitFor(
      () => (lines.some((line) => /Server folio\/folio1 is DOWN/.test(line)) ? true : undefined),
      {
        timeoutMs: 15_000,
        what: () => `HAProxy to mark folio1 down:\n${running.haproxy.output().slice(-1_000)}`,
      },
    );
    for (let i = 0; i < 10; i++) await askEverything();
    expect(statuses.filter((status) => status !== 200)).toEqual([]);
    expect(second.hasExited()).toBe(false);
    expect(lines.filter((line) => line.includes('"msg":"unexpected error"'))).toEqual([]);
  }, 60_000);
});
