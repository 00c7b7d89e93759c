// A real Varnish in front of Folio, purged on publish (issue 29, docs/decisions/0045): the
// shipped VCL (docs/deploy/varnish.vcl) with its backend pointed at a Folio started by the
// harness, and PURGE_URL at that Varnish. A page through Varnish is a hit the second time; a
// publish through Folio bans it, and the next request shows the new text (publish → visible,
// timed over 20 publishes and printed); a page the publish did not touch stays a hit.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { findVarnishd, type RunningVarnish, startVarnish } from '../../scripts/stack/varnish';
import { addEditor } from '../../src/lib/editors/accounts';
import { ECHO_MS } from '../../src/lib/http/purge';
import { TEST_ENGINE } from '../databases';
import { signInWithForm } from '../forms';
import { freePort, type RunningFolio, startFolio, waitFor, withStore } from '../harness';
import { publishThroughForms } from '../publishing';

const VARNISHD = findVarnishd();
if (!VARNISHD)
  console.warn(
    'varnish.test.ts skipped: varnishd is not installed (apt-get install -y varnish; .ci/run does)',
  );

const EDITOR = { email: 'varnish@example.com', password: 'the varnish passphrase' };
const PUBLISHES = 20;
let folio: RunningFolio;
let varnish: RunningVarnish | null = null;
let workDir = '';
let front = '';
let cookie = '';

beforeAll(async () => {
  if (!VARNISHD) return;
  const varnishPort = freePort();
  front = `http://127.0.0.1:${varnishPort}`;
  folio = await startFolio({ env: { PURGE_URL: `${front}/` } });
  await addEditor(await folio.database(), EDITOR.email, EDITOR.password);
  cookie = (await signInWithForm(folio.url, EDITOR.email, EDITOR.password)).cookie;
  await withStore(folio, async (store) => {
    for (const slug of ['cached-a', 'cached-b'])
      await store.putPage(
        { slug, title: slug, summary: '', body: `${slug} FIRST-TEXT` },
        { publish: true },
      );
  });
  // Everything of this Varnish lives in a temporary directory, stopped by its pid (the same
  // start as `bun run stack`'s, scripts/stack/varnish.ts).
  workDir = mkdtempSync(path.join(tmpdir(), 'folio-varnish-'));
  varnish = await startVarnish({ port: varnishPort, backendPort: folio.port, workDir });
  await waitFor(
    async () => {
      try {
        const response = await fetch(`${front}/healthz`);
        await response.arrayBuffer();
        return response.status === 200 ? true : undefined;
      } catch {
        return undefined;
      }
    },
    {
      timeoutMs: 30_000,
      what: () => `Folio to answer through varnishd (it said: ${varnish?.output().slice(-500)})`,
    },
  );
  // The two pages' purges (recorded by the test's own writes, sent by the server's poll, tried
  // again while Varnish was not up yet) land before anything is cached, not on a cached page.
  const db = await folio.database();
  await waitFor(
    async () => {
      const [row] = await db.query<{ waiting: number | string }>`
        SELECT count(*) AS waiting FROM cache_purges WHERE done_at IS NULL`;
      return Number(row?.waiting) === 0 ? true : undefined;
    },
    { timeoutMs: 15_000, what: "the pages' purges to reach Varnish" },
  );
  // And their echoes (ECHO_MS later), which would ban a page the test has just cached.
  await Bun.sleep(ECHO_MS + 1_000);
}, 120_000);

afterAll(async () => {
  await varnish?.stop();
  await folio?.stop();
  if (workDir) rmSync(workDir, { recursive: true, force: true });
});

async function throughVarnish(pathname: string) {
  const response = await fetch(`${front}${pathname}`);
  return {
    text: await response.text(),
    cache: response.headers.get('x-cache'),
    age: Number(response.headers.get('age') ?? 0),
    xVarnish: response.headers.get('x-varnish') ?? '',
    keys: response.headers.get('surrogate-key'),
  };
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
}

describe.skipIf(!VARNISHD)(`Varnish in front of Folio (${TEST_ENGINE})`, () => {
  test('a page is a hit the second time, a publish shows at the next request, and another page stays a hit', async () => {
    for (const slug of ['cached-a', 'cached-b']) {
      const first = await throughVarnish(`/${slug}`);
      expect(first.cache).toBe('MISS');
      expect(first.keys).toBe(`page-${slug} site`);
      await Bun.sleep(1_100);
      const second = await throughVarnish(`/${slug}`);
      expect(second.cache).toBe('HIT');
      // Two transaction ids: this request's and the one that stored the object.
      expect(second.xVarnish.split(' ')).toHaveLength(2);
      expect(second.age).toBeGreaterThan(0);
    }
    const untouched = await throughVarnish('/cached-b');

    const visible: number[] = [];
    const afterAnswer: number[] = [];
    const staleNext: number[] = [];
    for (let i = 1; i <= PUBLISHES; i++) {
      const text = `cached-a TEXT-NUMBER-${i}`;
      let sent = 0;
      // The editor's requests go to Folio itself (a cookie passes Varnish anyway).
      await publishThroughForms(folio.url, cookie, 'cached-a', text, () => {
        sent = performance.now();
      });
      const answered = performance.now();
      // The publish was answered after its ban was sent (PURGE_WAIT_MS): the very next
      // request through Varnish is the new page.
      const next = await throughVarnish('/cached-a');
      if (!next.text.includes(text)) staleNext.push(i);
      // Polled through Varnish: every request until the new text is one a visitor could make.
      await waitFor(
        async () => ((await throughVarnish('/cached-a')).text.includes(text) ? true : undefined),
        { timeoutMs: 10_000, what: `publish ${i} through Varnish` },
      );
      visible.push(performance.now() - sent);
      afterAnswer.push(performance.now() - answered);
    }
    const sorted = [...visible].sort((x, y) => x - y);
    const sortedAfter = [...afterAnswer].sort((x, y) => x - y);
    console.info(
      `publish → visible through Varnish (${TEST_ENGINE}, ${PUBLISHES} publishes): from the publish request p50 ${percentile(sorted, 50).toFixed(1)} ms / p99 ${percentile(sorted, 99).toFixed(1)} ms; after its answer p50 ${percentile(sortedAfter, 50).toFixed(1)} ms / p99 ${percentile(sortedAfter, 99).toFixed(1)} ms`,
    );
    expect(staleNext, 'publishes whose next request through Varnish was stale').toEqual([]);
    // The publish changed cached-a only: cached-b is the same object, still a hit, older now.
    const after = await throughVarnish('/cached-b');
    expect(after.cache).toBe('HIT');
    expect(after.xVarnish.split(' ')[1]).toBe(untouched.xVarnish.split(' ')[1]);
    expect(after.age).toBeGreaterThanOrEqual(untouched.age);
    expect(after.text).toContain('cached-b FIRST-TEXT');
    expect(folio.unexpectedErrors()).toEqual([]);
  }, 300_000);
});
