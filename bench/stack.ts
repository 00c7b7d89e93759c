// `bun run bench --stack [--duration 5] [--publishes 20] [--instances 2] [--no-build]` (or
// `bun bench/stack.ts …`): the deployment recipe's figures (issue 29, docs/decisions/0048). It
// starts the stack as `bun run stack` does (scripts/stack/stack.ts: PostgreSQL, the instances,
// HAProxy, Varnish, on OS-picked loopback ports) on a throw-away database, then measures
// - publish → visible through Varnish: from the start of an editor's publish request (sent
//   through the stack, as a browser's is) until a visitor's GET through Varnish shows the text;
// - requests per second for one cached page through the whole stack (Varnish hits), through
//   HAProxy alone, and straight to one instance (its own render cache), by wrk for a fixed time.
// It writes bench/stack-results.md, stops everything it started by pid and drops the database.
import { writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { pickFreePort } from '../scripts/stack/processes';
import { type RunningStack, startStack } from '../scripts/stack/stack';
import { createContentStore } from '../src/lib/content/content';
import { openDatabase } from '../src/lib/data/db';
import { addEditor } from '../src/lib/editors/accounts';
import { createThrowAwayDatabase, postgresAnswers } from '../tests/databases';
import { formWithButton, signInWithForm, submitForm } from '../tests/forms';
import { requireWrk, type WrkResult, wrk } from './wrk';

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '5' },
    publishes: { type: 'string', default: '20' },
    instances: { type: 'string', default: '2' },
    'no-build': { type: 'boolean', default: false },
  },
});
const DURATION = Math.max(1, Math.min(60, Number(values.duration)));
const PUBLISHES = Math.max(20, Math.min(1000, Number(values.publishes)));
const INSTANCES = Math.max(1, Math.min(16, Number(values.instances)));
const CONNECTIONS = [16, 64] as const;
const PAGE = '/bench-stack-page';
const PUBLISHED = 'bench-stack-published';
/** As a browser asks (Varnish keeps a page gzipped and would unzip it for a client that did not). */
const BROWSER_HEADERS = ['Accept-Encoding: gzip, deflate, br'];
const EDITOR = { email: 'bench-stack@example.com', password: 'the bench stack passphrase' };

requireWrk();
if (!(await postgresAnswers())) {
  console.error(
    'bench --stack: the stack runs on PostgreSQL, and none answers at FOLIO_TEST_POSTGRES_URL',
  );
  process.exit(2);
}
if (!values['no-build']) {
  const build = Bun.spawnSync(['bun', 'run', 'build'], { stdout: 'ignore', stderr: 'inherit' });
  if (build.exitCode !== 0) process.exit(1);
}

const database = await createThrowAwayDatabase('postgres');
let stack: RunningStack | null = null;
try {
  stack = await startStack({
    databaseUrl: database.url,
    instances: INSTANCES,
    port: pickFreePort(),
    balancerPort: pickFreePort(),
    instancePorts: Array.from({ length: INSTANCES }, () => pickFreePort()),
  });
  const front = stack.url;
  const db = await openDatabase(database.url, { migrate: false, poolSize: 1 });
  await addEditor(db, EDITOR.email, EDITOR.password);
  const store = createContentStore(db);
  for (const slug of [PAGE.slice(1), PUBLISHED])
    await store.putPage(
      { slug, title: slug, summary: '', body: `${slug} FIRST-TEXT` },
      { publish: true },
    );
  await db.close();
  // Their purges (sent by an instance's poll) land before anything is cached.
  await stack.purgesSent();
  // Signed in through the stack, as an editor's browser is (a cookie passes Varnish).
  const { cookie } = await signInWithForm(front, EDITOR.email, EDITOR.password);

  /** Saves `body` as the draft and publishes it through the stack; the publish's start time. */
  async function publish(body: string): Promise<number> {
    const editUrl = `${front}/preview/${PUBLISHED}?edit`;
    const editor = await (await fetch(editUrl, { headers: { cookie } })).text();
    const saved = await submitForm(editUrl, await formWithButton(editor, 'Save draft'), {
      cookie,
      set: { body },
    });
    await saved.arrayBuffer();
    if (saved.status !== 303) throw new Error(`saving the draft answered ${saved.status}`);
    const previewUrl = `${front}/preview/${PUBLISHED}`;
    const preview = await (await fetch(previewUrl, { headers: { cookie } })).text();
    const form = await formWithButton(preview, 'Publish this draft');
    const started = performance.now();
    const published = await submitForm(previewUrl, form, { cookie });
    await published.arrayBuffer();
    if (published.headers.get('location') !== `/preview/${PUBLISHED}?notice=published`)
      throw new Error(`the publish answered ${published.status}`);
    return started;
  }

  const visible: number[] = [];
  const firstRequestShowed: boolean[] = [];
  for (let i = 1; i <= PUBLISHES; i++) {
    // Cached in Varnish before each publish, as a read page is.
    await (await fetch(`${front}/${PUBLISHED}`)).text();
    const text = `${PUBLISHED} TEXT-NUMBER-${i}-${Math.random().toString(36).slice(2)}`;
    const started = await publish(text);
    for (let tries = 0; ; tries++) {
      const seen = await (await fetch(`${front}/${PUBLISHED}`)).text();
      if (seen.includes(text)) {
        visible.push(performance.now() - started);
        firstRequestShowed.push(tries === 0);
        break;
      }
      if (tries > 20_000) throw new Error(`publish ${i} never showed through Varnish`);
    }
  }

  // The page warm everywhere, then each target in turn.
  const instance = stack.instances[0];
  if (!instance) throw new Error('no instance');
  const targets = [
    { name: 'through Varnish (hits)', url: `${front}${PAGE}` },
    { name: 'through HAProxy (no Varnish)', url: `${stack.balancerUrl}${PAGE}` },
    { name: 'one instance alone', url: `${instance.url}${PAGE}` },
  ];
  for (const target of targets) await wrk(target.url, 16, 1, BROWSER_HEADERS);
  const hitCheck = await fetch(`${front}${PAGE}`);
  await hitCheck.arrayBuffer();
  if (hitCheck.headers.get('x-cache') !== 'HIT') throw new Error('the page is not a Varnish hit');
  const results: { name: string; connections: number; result: WrkResult }[] = [];
  for (const connections of CONNECTIONS)
    for (const target of targets)
      results.push({
        name: target.name,
        connections,
        result: await wrk(target.url, connections, DURATION, BROWSER_HEADERS),
      });

  const percentile = (list: number[], p: number) => {
    const sorted = [...list].sort((a, b) => a - b);
    return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] as number;
  };
  const fmt = (n: number, digits = 0) => (Number.isFinite(n) ? n.toFixed(digits) : 'n/a');
  const load = loadavg()
    .map((n) => n.toFixed(1))
    .join(' / ');
  const lines = [
    '# bun run bench --stack',
    '',
    `Measured ${new Date().toISOString().slice(0, 16)}Z · Bun ${Bun.version} · ${cpus().length} cores (${cpus()[0]?.model ?? 'unknown'}) · ${(totalmem() / 2 ** 30).toFixed(0)} GiB · load average ${load} at the end. The stack as \`bun run stack\` starts it: PostgreSQL, ${INSTANCES} instances, HAProxy, Varnish, wrk, all on this one machine and its cores, which other work shared while it ran: read the figures as relative, not as capacity.`,
    '',
    `- Publish → visible through Varnish, ${PUBLISHES} publishes (from the start of the publish request, sent through the stack, until a GET through Varnish shows the new text; the page cached before each): **p50 ${fmt(percentile(visible, 50), 1)} ms, p99 ${fmt(percentile(visible, 99), 1)} ms**, max ${fmt(Math.max(...visible), 1)} ms. The first GET after the publish's answer showed it ${firstRequestShowed.filter(Boolean).length} times of ${PUBLISHES} (the answer waits for the purge, at most 1 s; a GET that reaches an instance that has not yet heard of the commit can still get the old page, which the purge's echo bans 5 s later).`,
    '',
    `| ${PAGE} (wrk, ${DURATION} s, 2 threads, Accept-Encoding as a browser's) | conns | req/s | p50 ms | p99 ms | errors |`,
    '|---|---:|---:|---:|---:|---:|',
    ...results.map(
      ({ name, connections, result }) =>
        `| ${name} | ${connections} | ${fmt(result.rps)} | ${fmt(result.p50, 2)} | ${fmt(result.p99, 2)} | ${result.errors} |`,
    ),
    '',
  ];
  const table = lines.join('\n');
  console.log(table);
  const written = path.join(import.meta.dir, 'stack-results.md');
  writeFileSync(written, table);
  Bun.spawnSync(['bunx', 'biome', 'format', '--write', written], { stdout: 'ignore' });
} finally {
  await stack?.stop();
  await database.drop();
}
