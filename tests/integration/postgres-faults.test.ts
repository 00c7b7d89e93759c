// PostgreSQL going away under a pair of instances, on a throw-away cluster of the test's own
// (tests/postgres-cluster.ts): what visitors and editors get while it is down, and that both
// instances come back by themselves when it returns. PostgreSQL runs only.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { SQL } from 'bun';
import { addEditor } from '../../src/lib/editors/accounts';
import { TEST_ENGINE, type ThrowAwayDatabase } from '../databases';
import { formWithButton, signInWithForm, submitForm } from '../forms';
import { type RunningFolio, startFolio, startTwoFolios, waitFor, withStore } from '../harness';
import { type Cluster, canMakeCluster, startCluster } from '../postgres-cluster';

const RUN = TEST_ENGINE === 'postgres';
if (RUN && !canMakeCluster() && process.env.CI === 'true')
  throw new Error(
    'PostgreSQL fault tests need root and /usr/lib/postgresql/*/bin: CI must run them',
  );

const EDITOR = { email: 'outage@example.com', password: 'the outage passphrase' };

const OUTAGE_MS = 10_000;

/**
 * Lines an instance printed about the database that are not the log's structured lines: a raw
 * "Error during rendering: …" stack from Waku, a bare "bun:sql LISTEN … failed" from Bun.
 */
function rawDatabaseLines(instance: RunningFolio): string[] {
  return instance
    .output()
    .split('\n')
    .filter((line) => !line.startsWith('{'))
    .filter((line) => /Error during rendering|bun:sql|PostgresError/.test(line));
}

describe.if(RUN && canMakeCluster())('PostgreSQL stops and comes back', () => {
  let cluster: Cluster;
  let a: RunningFolio;
  let b: RunningFolio;
  let cookie = '';

  beforeAll(async () => {
    cluster = await startCluster();
    const admin = new SQL(cluster.adminUrl, { max: 1 });
    await admin.unsafe('CREATE DATABASE folio');
    await admin.close();
    const database: ThrowAwayDatabase = {
      url: cluster.urlOf('folio'),
      engine: 'postgres',
      file: null,
      drop: async () => undefined,
    };
    // The scheduler checks often, so the outage meets it too (a check that cannot reach the
    // database waits for the next, and is no bug).
    [a, b] = await startTwoFolios(database, { env: { SCHEDULE_CHECK_SECONDS: '0.5' } });
    await addEditor(await a.database(), EDITOR.email, EDITOR.password);
    cookie = (await signInWithForm(a.url, EDITOR.email, EDITOR.password)).cookie;
  }, 90_000);

  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    cluster?.destroy();
  });

  test('while it is down: cached pages served, the rest 503, saves refused with the text kept; back by themselves', async () => {
    for (const path of ['/about', '/RSC/R/about.txt']) {
      await fetch(`${a.url}${path}`).then((r) => r.text());
      expect((await fetch(`${a.url}${path}`)).headers.get('x-folio-cache')).toBe('hit');
    }
    const editorPage = await (
      await fetch(`${b.url}/preview/about?edit`, { headers: { cookie } })
    ).text();
    const saveForm = await formWithButton(editorPage, 'Save draft');
    const signInForm = await formWithButton(
      await (await fetch(`${a.url}/preview`)).text(),
      'Sign in',
    );

    cluster.stop();

    const cached = await fetch(`${a.url}/about`);
    expect(cached.status).toBe(200);
    expect(cached.headers.get('x-folio-cache')).toBe('hit');
    expect((await fetch(`${a.url}/RSC/R/about.txt`)).status).toBe(200);

    const uncached = await fetch(`${a.url}/contact`, { headers: { accept: 'text/html' } });
    expect(uncached.status).toBe(503);
    expect(uncached.headers.get('retry-after')).toBe('2');
    expect(await uncached.text()).toContain('Folio cannot reach its database right now');
    for (const instance of [a, b])
      expect((await fetch(`${instance.url}/healthz`)).status, instance.url).toBe(503);

    // An editor presses Save without JavaScript: nothing is written, and the text comes back.
    const saved = await submitForm(`${b.url}/preview/about?edit`, saveForm, {
      cookie,
      set: { body: 'TYPED-DURING-THE-OUTAGE' },
    });
    expect(saved.status).toBe(503);
    const savedPage = await saved.text();
    expect(savedPage).toContain('Nothing was saved.');
    expect(savedPage).toContain('TYPED-DURING-THE-OUTAGE');

    // Signing in without JavaScript: nothing can be checked, and that is a 503 too, not the
    // 401 of a wrong password (hostile pass).
    const signIn = await submitForm(`${a.url}/preview`, signInForm, {
      set: { email: EDITOR.email, password: EDITOR.password },
    });
    expect(signIn.status).toBe(503);
    expect(signIn.headers.get('retry-after')).toBe('2');
    expect(await signIn.text()).toContain('Folio cannot reach its database right now');

    cluster.start();

    for (const instance of [a, b])
      await waitFor(
        async () => ((await fetch(`${instance.url}/healthz`)).status === 200 ? true : undefined),
        { timeoutMs: 20_000, what: `${instance.url} healthy again` },
      );
    expect((await fetch(`${a.url}/contact`)).status).toBe(200);
    // Nothing half-written: the save refused during the outage is not there.
    expect(
      await withStore(
        a,
        async (store) => (await store.getPage('about', { draft: true }))?.bodyMarkdown,
      ),
    ).not.toContain('TYPED-DURING-THE-OUTAGE');
    // Both listen again: a publish on one is on the other within a moment.
    await fetch(`${a.url}/about`).then((r) => r.text());
    const again = await submitForm(`${b.url}/preview/about?edit`, saveForm, {
      cookie,
      set: { body: 'SAVED-AFTER-THE-OUTAGE' },
    });
    expect(again.status).toBe(303);
    const preview = await (await fetch(`${b.url}/preview/about`, { headers: { cookie } })).text();
    await submitForm(
      `${b.url}/preview/about`,
      await formWithButton(preview, 'Publish this draft'),
      {
        cookie,
      },
    );
    // A hears of B's publish by NOTIFY, a moment after B's answer: nothing orders the two
    // (B waits to hear its own notification, not A's), so "next request" was a race the test
    // lost about once in eight after an outage. A few seconds is the bound, not one request.
    await waitFor(
      async () =>
        (await (await fetch(`${a.url}/about`)).text()).includes('SAVED-AFTER-THE-OUTAGE')
          ? true
          : undefined,
      { timeoutMs: 5_000, what: 'the publish on B shown on A' },
    );
    for (const instance of [a, b])
      expect(instance.unexpectedErrors().map((line) => JSON.stringify(line).slice(0, 300))).toEqual(
        [],
      );
    for (const instance of [a, b]) expect(rawDatabaseLines(instance)).toEqual([]);
  }, 60_000);

  test('stopped for 10 s under load and started again: figures, nothing lost, both recover', async () => {
    const tally: Record<string, Record<string, number>> = {};
    const count = (kind: string, outcome: string) => {
      tally[kind] ??= {};
      tally[kind][outcome] = (tally[kind][outcome] ?? 0) + 1;
    };
    let running = true;
    const visitor = async (instance: RunningFolio, n: number) => {
      for (let i = 0; running; i++) {
        // A cached page, and a page with a query string (never cached: always rendered).
        const path = i % 2 === 0 ? '/about' : `/contact?visitor=${n}-${i}`;
        try {
          const response = await fetch(`${instance.url}${path}`);
          await response.arrayBuffer();
          count(i % 2 === 0 ? 'cached page' : 'rendered page', String(response.status));
        } catch (error) {
          count(i % 2 === 0 ? 'cached page' : 'rendered page', (error as Error).name);
        }
        await Bun.sleep(5);
      }
    };
    const lastSaved = new Map<string, string>();
    const editor = async (instance: RunningFolio, slug: string) => {
      await withStore(instance, (store) =>
        store.putPage({ slug, title: slug, summary: '', body: 'start' }),
      );
      // The editor's open tab: its form is loaded again after each save (the version moves on);
      // while the database is out, the tab they have is the one they press Save in.
      let form: Awaited<ReturnType<typeof formWithButton>> | null = null;
      for (let i = 0; running; i++) {
        const token = `${slug}-save-${i}`;
        try {
          const page = await fetch(`${instance.url}/preview/${slug}?edit`, { headers: { cookie } });
          if (page.status === 200) form = await formWithButton(await page.text(), 'Save draft');
          else await page.arrayBuffer();
          if (!form) continue;
          const saved = await submitForm(`${instance.url}/preview/${slug}?edit`, form, {
            cookie,
            set: { body: token },
          });
          const html = saved.status === 303 ? '' : await saved.text();
          if (saved.status === 303) lastSaved.set(slug, token);
          count('editor save', saved.status === 303 ? 'saved' : `refused ${saved.status}`);
          // A refusal hands the typed text back.
          if (saved.status !== 303) expect(html).toContain(token);
        } catch (error) {
          count('editor save', (error as Error).name);
        }
        await Bun.sleep(50);
      }
    };
    const load = [
      ...[a, b].flatMap((instance, n) => [visitor(instance, n), visitor(instance, n + 2)]),
      editor(a, 'outage-a'),
      editor(b, 'outage-b'),
    ];
    // Each step waits on what it is for, not on the clock: load under way on both instances,
    // an outage both instances and both editors have met, saves that go through again.
    const saved = () => tally['editor save']?.saved ?? 0;
    // The load stops however the steps end, so a failed run leaves no visitor behind.
    const steps = (async () => {
      await waitFor(
        () => (saved() >= 2 && (tally['rendered page']?.['200'] ?? 0) >= 4 ? true : undefined),
        { timeoutMs: 20_000, what: () => `load under way: ${JSON.stringify(tally)}` },
      );
      const stoppedAt = Date.now();
      cluster.stop();
      // The outage lasts 10 s (what is under test: pools, listeners and the scheduler across a
      // real outage), and at least until both instances and both editors have met it.
      const outageOver = Bun.sleep(OUTAGE_MS);
      const waited = (instance: RunningFolio) =>
        instance
          .logLines()
          .some((line) => line.msg === 'scheduled publishing waits for the database');
      await waitFor(
        () =>
          (tally['editor save']?.['refused 503'] ?? 0) >= 2 && waited(a) && waited(b)
            ? true
            : undefined,
        { timeoutMs: 30_000, what: () => `the outage to be met: ${JSON.stringify(tally)}` },
      );
      await outageOver;
      const restartedAt = Date.now();
      cluster.start();
      const recovered = await Promise.all(
        [a, b].map((instance) =>
          waitFor(
            async () =>
              (await fetch(`${instance.url}/healthz`)).status === 200 ? Date.now() : undefined,
            { timeoutMs: 20_000, what: 'healthy again' },
          ),
        ),
      );
      const savedBeforeRecovery = saved();
      await waitFor(() => (saved() >= savedBeforeRecovery + 2 ? true : undefined), {
        timeoutMs: 20_000,
        what: () => `saves to go through again: ${JSON.stringify(tally)}`,
      });
      return { stoppedAt, restartedAt, recovered };
    })().finally(() => {
      running = false;
    });
    const { stoppedAt, restartedAt, recovered } = await steps;
    await Promise.all(load);

    // Nothing lost: every save acknowledged with a 303 is in the database.
    for (const [slug, token] of lastSaved)
      expect(
        await withStore(
          a,
          async (store) => (await store.getPage(slug, { draft: true }))?.bodyMarkdown,
        ),
      ).toBe(token);
    expect(tally['cached page']?.['200']).toBeGreaterThan(0);
    expect(Object.keys(tally['cached page'] ?? {})).toEqual(['200']);
    // A refusal is a 503 while the database is out, a 409 page saying why (a tab left with an
    // older version: "saved again since you opened it"), or a 200 form saying Folio is busy;
    // never anything else.
    for (const kind of Object.values(tally))
      for (const outcome of Object.keys(kind))
        expect(['200', '503', 'saved', 'refused 503', 'refused 409', 'refused 200']).toContain(
          outcome,
        );
    expect(tally['editor save']?.['refused 503']).toBeGreaterThan(0);
    for (const instance of [a, b]) expect(instance.unexpectedErrors()).toEqual([]);
    // Bun's "LISTEN … failed, retrying" (one per retry) is one structured warning per outage.
    for (const instance of [a, b]) {
      expect(rawDatabaseLines(instance)).toEqual([]);
      const lost = instance
        .logLines()
        .filter((line) => line.msg === 'database listener lost; Bun reconnects it');
      expect(lost.length).toBeLessThanOrEqual(2);
    }
    // Said once per outage by each instance, not at every check.
    for (const instance of [a, b]) {
      const waits = instance
        .logLines()
        .filter((line) => line.msg === 'scheduled publishing waits for the database');
      expect(waits.length).toBeGreaterThanOrEqual(1);
      expect(waits.length).toBeLessThanOrEqual(2);
    }
    console.log(
      `postgres outage figures: ${JSON.stringify({
        stoppedForMs: restartedAt - stoppedAt,
        recoveredAfterRestartMs: recovered.map((at) => at - restartedAt),
        byKindAndStatus: tally,
      })}`,
    );
  }, 60_000);
});

// Hung, not down: a server stopped with SIGSTOP accepts connections and statements and answers
// none. Requests that need it are refused within a few seconds (db.ts's ANSWER_TIMEOUT_MS),
// as when it is down, and the outage is logged once, never as a raw stack on stderr.
describe.if(RUN && canMakeCluster())('PostgreSQL hangs (SIGSTOP) and wakes', () => {
  let cluster: Cluster;
  let folio: RunningFolio;
  let cookie = '';

  beforeAll(async () => {
    cluster = await startCluster();
    const admin = new SQL(cluster.adminUrl, { max: 1 });
    await admin.unsafe('CREATE DATABASE folio');
    await admin.close();
    folio = await startFolio({
      database: {
        url: cluster.urlOf('folio'),
        engine: 'postgres',
        file: null,
        drop: async () => undefined,
      },
      keepDatabase: true,
    });
    await addEditor(await folio.database(), EDITOR.email, EDITOR.password);
    cookie = (await signInWithForm(folio.url, EDITOR.email, EDITOR.password)).cookie;
  }, 90_000);

  afterAll(async () => {
    await folio?.stop();
    cluster?.destroy();
  });

  test('while it hangs: cached pages served, the rest 503 within seconds, saves refused with the text kept, /healthz 503, one log line', async () => {
    // Every request is bounded, so a regression fails here instead of at the test's timeout.
    const within = { signal: AbortSignal.timeout(20_000) };
    await fetch(`${folio.url}/about`).then((r) => r.text());
    const editorPage = await (
      await fetch(`${folio.url}/preview/about?edit`, { headers: { cookie } })
    ).text();
    const saveForm = await formWithButton(editorPage, 'Save draft');

    const wake = cluster.pause();
    try {
      const cached = await fetch(`${folio.url}/about`, within);
      expect(cached.status).toBe(200);
      expect(cached.headers.get('x-folio-cache')).toBe('hit');

      const started = Date.now();
      const uncached = await fetch(`${folio.url}/contact`, {
        headers: { accept: 'text/html' },
        signal: AbortSignal.timeout(20_000),
      });
      const tookMs = Date.now() - started;
      expect(uncached.status).toBe(503);
      expect(uncached.headers.get('retry-after')).toBe('2');
      expect(await uncached.text()).toContain('Folio cannot reach its database right now');
      // A few seconds (the answer timeout), not the ~8 s after which the socket was dropped.
      expect(tookMs).toBeLessThan(7_500);
      console.log(`hung database: an uncached page answered 503 after ${tookMs} ms`);
      const health = await fetch(`${folio.url}/healthz`, within);
      expect(health.status).toBe(503);
      expect(await health.text()).toBe('database unavailable\n');

      const saved = await submitForm(`${folio.url}/preview/about?edit`, saveForm, {
        cookie,
        set: { body: 'TYPED-WHILE-IT-HANGS' },
      });
      expect(saved.status).toBe(503);
      const savedPage = await saved.text();
      expect(savedPage).toContain('Nothing was saved.');
      expect(savedPage).toContain('TYPED-WHILE-IT-HANGS');
      // A second visitor in the same outage: answered the same, not logged again.
      expect((await fetch(`${folio.url}/contact?again`, within)).status).toBe(503);
    } finally {
      wake();
    }

    await waitFor(
      async () => ((await fetch(`${folio.url}/healthz`)).status === 200 ? true : undefined),
      { timeoutMs: 20_000, what: 'healthy again after the database woke' },
    );
    expect((await fetch(`${folio.url}/contact`)).status).toBe(200);
    // The refused save did not go through when the server woke.
    expect(
      await withStore(
        folio,
        async (store) => (await store.getPage('about', { draft: true }))?.bodyMarkdown,
      ),
    ).not.toContain('TYPED-WHILE-IT-HANGS');
    const again = await submitForm(`${folio.url}/preview/about?edit`, saveForm, {
      cookie,
      set: { body: 'SAVED-AFTER-IT-WOKE' },
    });
    expect(again.status).toBe(303);

    expect(folio.unexpectedErrors()).toEqual([]);
    const outageLines = folio.logLines().filter((line) => line.msg === 'database unavailable');
    expect(outageLines.length).toBe(1);
    expect(rawDatabaseLines(folio)).toEqual([]);
  }, 60_000);
});
