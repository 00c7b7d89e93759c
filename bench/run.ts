// `bun run bench [--duration 5] [--rounds 3] [--lighthouse] [--lighthouse-runs 5] [--no-build]`
// (or `bun run bench --stack`: the deployment recipe's figures, bench/stack.ts; `bun run bench --scale …`: the scale benches, bench/scale.ts; `bun run bench --coedit`: co-editing's, bench/coedit.ts; `bun run bench --editor`: the
// page editor's typing, preview and JavaScript figures, bench/large-page.ts): one run that
// measures Folio against the raw-Bun limit on this machine, on SQLite and on PostgreSQL (the
// server at FOLIO_TEST_POSTGRES_URL, when one answers), and writes bench/results.md. All
// traffic goes to 127.0.0.1; every process it starts is stopped by PID before it exits, and
// every database it makes is dropped.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { chromium } from '@playwright/test';
import sharp from 'sharp';
import { type ContentStore, createContentStore } from '../src/lib/content/content';
import { seedDemoContent } from '../src/lib/content/seed';
import { type Database, openDatabase } from '../src/lib/data/db';
import { addEditor, createSession } from '../src/lib/editors/accounts';
import { createMediaStore, processImage } from '../src/lib/media/media';
import {
  createThrowAwayDatabase,
  postgresAnswers,
  type ThrowAwayDatabase,
} from '../tests/databases';
import { freePort, startFolio } from '../tests/harness';
import { startEnvelopeReceiver } from '../tests/sentry-receiver';
import { CHROMIUM_LAUNCH } from '../tests/support';
import { benchmarkIndexLine, lighthouseLine, PUBLICATION_TARGETS } from './lighthouse';
import { requireWrk, type WrkResult, wrk } from './wrk';

// `--editor`: the page editor's figures instead (issue 26): bench/large-page.ts on a 200-line
// and a 5 000-line page, one after the other, their tables written to bench/editor-results.md.
if (Bun.argv.includes('--editor')) {
  const rest = Bun.argv.slice(2).filter((arg) => arg !== '--editor');
  const build = rest.includes('--no-build')
    ? 0
    : Bun.spawnSync(['bun', 'run', 'build'], { stdout: 'ignore', stderr: 'inherit' }).exitCode;
  if (build !== 0) process.exit(1);
  const tables: string[] = [];
  for (const lines of ['200', '5000']) {
    const run = Bun.spawn(
      ['bun', path.join(import.meta.dir, 'large-page.ts'), '--no-build', '--lines', lines],
      { stdout: 'pipe', stderr: 'inherit' },
    );
    const output = await new Response(run.stdout).text();
    process.stdout.write(output);
    if ((await run.exited) !== 0) process.exit(1);
    tables.push(output.trim());
  }
  const machine = `${cpus().length} cores, load average ${loadavg()
    .map((n) => n.toFixed(1))
    .join(' / ')} at the end`;
  const written = path.join(import.meta.dir, 'editor-results.md');
  writeFileSync(
    written,
    `# bun run bench --editor\n\nMeasured ${new Date().toISOString().slice(0, 16)}Z, ${machine}.\n\n${tables.join('\n\n')}\n`,
  );
  // Its tables aligned as the linter keeps every Markdown file here.
  Bun.spawnSync(['bunx', 'biome', 'format', '--write', written], { stdout: 'ignore' });
  process.exit(0);
}

// `--stack`: the deployment recipe's figures instead (bench/stack.ts, issue 29): publish → visible
// through Varnish, and requests per second through the whole stack against one instance.
if (Bun.argv.includes('--stack')) {
  const rest = Bun.argv.slice(2).filter((arg) => arg !== '--stack');
  const stack = Bun.spawn(['bun', path.join(import.meta.dir, 'stack.ts'), ...rest], {
    stdio: ['inherit', 'inherit', 'inherit'],
  });
  process.exit(await stack.exited);
}

// `--coedit`: co-editing's figures instead (bench/coedit.ts, issue 30): keystroke → visible and
// → acknowledged, updates a second, memory per document and per idle connection.
if (Bun.argv.includes('--coedit')) {
  const rest = Bun.argv.slice(2).filter((arg) => arg !== '--coedit');
  const coedit = Bun.spawn(['bun', path.join(import.meta.dir, 'coedit.ts'), ...rest], {
    stdio: ['inherit', 'inherit', 'inherit'],
  });
  process.exit(await coedit.exited);
}

// `--scale`: the scale benches instead (bench/scale.ts, issue 25), with the rest of the options.
if (Bun.argv.includes('--scale')) {
  const scale = Bun.spawn(['bun', path.join(import.meta.dir, 'scale.ts'), ...Bun.argv.slice(2)], {
    stdio: ['inherit', 'inherit', 'inherit'],
  });
  process.exit(await scale.exited);
}

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '5' },
    rounds: { type: 'string', default: '3' },
    'no-build': { type: 'boolean', default: false },
    lighthouse: { type: 'boolean', default: false },
    'lighthouse-runs': { type: 'string', default: '5' },
  },
});
const DURATION = Math.max(1, Math.min(60, Number(values.duration)));
const ROUNDS = Math.max(1, Math.min(9, Number(values.rounds)));
const PAGE = '/writing-in-markdown';
/** The seed's topic page and a search that finds seeded pages (issue 27). */
const TOPIC_PAGE = PUBLICATION_TARGETS.topic;
const SEARCH_PAGE = PUBLICATION_TARGETS.search;
const CONNECTIONS = [1, 16, 64] as const;

if (!values['no-build']) {
  const build = Bun.spawnSync(['bun', 'run', 'build'], { stdout: 'ignore', stderr: 'inherit' });
  if (build.exitCode !== 0) process.exit(1);
}
requireWrk();

const dir = mkdtempSync(path.join(tmpdir(), 'folio-bench-'));

type BenchDatabase = {
  made: ThrowAwayDatabase;
  db: Database;
  store: ContentStore;
  sessionCookie: string;
};
/** A seeded database with a signed-in editor, on `engine`. */
async function benchDatabase(engine: 'sqlite' | 'postgres'): Promise<BenchDatabase> {
  const made = await createThrowAwayDatabase(engine);
  const db = await openDatabase(made.url);
  const store = createContentStore(db);
  await seedDemoContent(db, store);
  const editor = await addEditor(db, 'bench@example.com', 'bench password 123');
  const sessionCookie = `folio_session=${(await createSession(db.query, editor.id)).id}`;
  return { made, db, store, sessionCookie };
}
const sqlite = await benchDatabase('sqlite');
const postgres = (await postgresAnswers()) ? await benchDatabase('postgres') : null;
if (!postgres)
  console.error('bench: no PostgreSQL at FOLIO_TEST_POSTGRES_URL; measuring SQLite only');

type Started = { url: string; pid: number; stop: () => Promise<unknown>; startupMs: number };
const started: Started[] = [];

/** `bun run start` as the README has it (on a benchmark database, a port the OS picks):
 * the time from spawning it to its first 200 is the start-up figure. */
async function startServer(
  env: Record<string, string>,
  database: BenchDatabase = sqlite,
): Promise<Started> {
  const t0 = performance.now();
  const folio = await startFolio({ env, database: database.made, keepDatabase: true });
  while ((await fetch(`${folio.url}/healthz`)).status !== 200) await Bun.sleep(5);
  const server = {
    url: folio.url,
    pid: folio.pid,
    stop: folio.stop,
    startupMs: performance.now() - t0,
  };
  started.push(server);
  return server;
}

function rssMb(pid: number): number {
  return (
    Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024
  );
}

type Result = WrkResult;

const cached = await startServer({});
const uncached = await startServer({ FOLIO_RENDER_CACHE: 'off' });
const pgCached = postgres ? await startServer({}, postgres) : null;
const pgUncached = postgres ? await startServer({ FOLIO_RENDER_CACHE: 'off' }, postgres) : null;

// The limit: Bun.serve sending the identical bytes of the published page from memory.
const pageResponse = await fetch(`${cached.url}${PAGE}`, {
  headers: { 'accept-encoding': 'identity' },
});
const pageBytes = new Uint8Array(await pageResponse.arrayBuffer());
// In its own process: wrk runs synchronously here and would starve a server in this one.
const pageFile = path.join(dir, 'page.html');
writeFileSync(pageFile, pageBytes);
const limit = Bun.spawn(['bun', 'bench/limit-server.ts', pageFile, '20413'], {
  stdout: 'ignore',
  stderr: 'inherit',
});
for (let i = 0; ; i++) {
  try {
    if ((await fetch('http://127.0.0.1:20413/')).ok) break;
  } catch {}
  if (i > 500) throw new Error('limit server did not start');
  await Bun.sleep(10);
}

const targets: { name: string; url: string; headers?: string[] }[] = [
  { name: 'raw Bun.serve, same bytes (limit)', url: 'http://127.0.0.1:20413/' },
  { name: '/ (cached, SQLite)', url: `${cached.url}/` },
  { name: `${PAGE} (cached, SQLite)`, url: `${cached.url}${PAGE}` },
  ...(pgCached ? [{ name: `${PAGE} (cached, PostgreSQL)`, url: `${pgCached.url}${PAGE}` }] : []),
  { name: `${PAGE} (cache off, SQLite)`, url: `${uncached.url}${PAGE}` },
  ...(pgUncached
    ? [{ name: `${PAGE} (cache off, PostgreSQL)`, url: `${pgUncached.url}${PAGE}` }]
    : []),
  {
    name: `/preview${PAGE} (signed in, SQLite)`,
    url: `${cached.url}/preview${PAGE}`,
    headers: [`Cookie: ${sqlite.sessionCookie}`],
  },
  ...(pgCached && postgres
    ? [
        {
          name: `/preview${PAGE} (signed in, PostgreSQL)`,
          url: `${pgCached.url}/preview${PAGE}`,
          headers: [`Cookie: ${postgres.sessionCookie}`],
        },
      ]
    : []),
];

// Every cell is measured ROUNDS times, the targets taking turns within each round, and the
// median run is reported: wrk shares the two cores with the server, and the turns spread any
// drift of the machine over all targets alike instead of penalising whichever ran last.
for (const target of targets) await wrk(target.url, 16, 1, target.headers); // warm up
const runs = new Map<string, Result[]>();
for (let round = 0; round < ROUNDS; round++) {
  for (const c of CONNECTIONS) {
    for (const target of targets) {
      const key = `${target.name}\u0000${c}`;
      runs.set(key, [...(runs.get(key) ?? []), await wrk(target.url, c, DURATION, target.headers)]);
    }
  }
  console.error(`bench: round ${round + 1} of ${ROUNDS} measured`);
}
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
};
const results = new Map<string, Map<number, Result>>();
for (const target of targets) {
  const row = new Map<number, Result>();
  for (const c of CONNECTIONS) {
    const cell = runs.get(`${target.name}\u0000${c}`) ?? [];
    // The run with the median throughput, so its latencies belong to the same run.
    const middle = median(cell.map((r) => r.rps));
    row.set(c, {
      ...(cell.find((r) => r.rps === middle) as Result),
      errors: cell.reduce((total, r) => total + r.errors, 0),
    });
  }
  results.set(target.name, row);
}

// JavaScript a visitor's browser loads for a published page, with Sentry configured (a real
// envelope receiver in this process): a page view not sampled for tracing, the same view after
// an error, and a view sampled for tracing.
const receiver = startEnvelopeReceiver();
const monitoredEnv = { SENTRY_DSN: receiver.dsn, WAKU_PUBLIC_SENTRY_DSN: receiver.dsn };
// Each as a site is deployed: SITE_URL names its public origin (absolute canonical links), so
// it listens on a port picked for it first.
const unsampled = await startServer(
  deployedAt({ ...monitoredEnv, SENTRY_TRACES_SAMPLE_RATE: '0' }),
);
const sampled = await startServer(deployedAt({ ...monitoredEnv, SENTRY_TRACES_SAMPLE_RATE: '1' }));

/** `env` with a free port and SITE_URL at it. */
function deployedAt(env: Record<string, string>): Record<string, string> {
  const port = freePort();
  return { ...env, PORT: String(port), SITE_URL: `http://127.0.0.1:${port}` };
}

type Script = { name: string; raw: number; gzip: number; wire: number };
type JsView = { label: string; scripts: Script[] };
const browser = await chromium.launch(CHROMIUM_LAUNCH);
async function jsOf(label: string, url: string, { fail = false } = {}): Promise<JsView> {
  const page = await browser.newPage();
  const scripts: Script[] = [];
  const pending: Promise<void>[] = [];
  page.on('requestfinished', (request) => {
    if (request.resourceType() !== 'script') return;
    pending.push(
      (async () => {
        const response = await request.response();
        const body = await response?.body().catch(() => null);
        if (!body) return;
        scripts.push({
          name: new URL(request.url()).pathname.replace(/^.*\//, ''),
          raw: body.length,
          gzip: Bun.gzipSync(new Uint8Array(body)).length,
          wire: (await request.sizes()).responseBodySize,
        });
      })(),
    );
  });
  await page.goto(url, { waitUntil: 'networkidle' });
  await page.evaluate(() => new Promise((resolve) => requestIdleCallback(resolve)));
  await page.waitForTimeout(1500);
  if (fail) {
    await page.evaluate(() =>
      setTimeout(() => {
        throw new Error('bench: an error in the browser');
      }),
    );
    await page.waitForFunction(() => document.documentElement.dataset.sentryReady === 'true');
    await page.waitForLoadState('networkidle');
  }
  await Promise.all(pending);
  await page.close();
  return { label, scripts };
}
// A page with three photographs (issue 14): what a phone's first view of it transfers in
// images, against the files the editor uploaded. Photograph-like JPEGs (noise, slightly
// blurred: they compress like photos, not like flat colour), 3000 × 2000 px.
const IMAGES_PAGE = '/three-photographs';
const originals: Uint8Array[] = [];
for (let i = 0; i < 3; i++)
  originals.push(
    new Uint8Array(
      await sharp({
        create: {
          width: 3000,
          height: 2000,
          channels: 3,
          background: '#808080',
          noise: { type: 'gaussian', mean: 110 + 20 * i, sigma: 40 },
        },
      })
        .blur(1.2)
        .jpeg({ quality: 90 })
        .toBuffer(),
    ),
  );
const media = createMediaStore(sqlite.db);
const hashes: string[] = [];
for (const [i, bytes] of originals.entries())
  hashes.push(
    (
      await media.add(await processImage(bytes), {
        alt: `Photograph ${i + 1}`,
        filename: `photograph-${i + 1}.jpg`,
      })
    ).hash,
  );
await sqlite.store.putPage(
  {
    slug: IMAGES_PAGE.slice(1),
    title: 'Three photographs',
    summary: 'A page with three photographs, for measuring what a phone downloads.',
    body: hashes
      .map(
        (hash, i) =>
          `A paragraph before photograph ${i + 1}, long enough to read as text on a phone and to put some distance between the pictures.\n\n![Photograph ${i + 1}](/media/${hash})`,
      )
      .join('\n\n'),
  },
  { publish: true },
);
const originalBytes = originals.reduce((total, bytes) => total + bytes.length, 0);
type ImageView = { transferred: number; chosen: string[] };
async function imagesOnAPhone(url: string): Promise<ImageView> {
  // Lighthouse's mobile device: 412 × 823 CSS pixels at 1.75 device pixels each.
  const context = await browser.newContext({
    viewport: { width: 412, height: 823 },
    deviceScaleFactor: 1.75,
    isMobile: true,
    hasTouch: true,
  });
  const page = await context.newPage();
  const view: ImageView = { transferred: 0, chosen: [] };
  const pending: Promise<void>[] = [];
  page.on('requestfinished', (request) => {
    if (request.resourceType() !== 'image') return;
    pending.push(
      (async () => {
        view.transferred += (await request.sizes()).responseBodySize;
        view.chosen.push(new URL(request.url()).pathname.replace(/^.*\//, ''));
      })(),
    );
  });
  await page.goto(url, { waitUntil: 'networkidle' });
  // Read to the end: the lazy images below the first load as they come near.
  for (let y = 0; y < 6; y++) {
    await page.mouse.wheel(0, 800);
    await page.waitForTimeout(250);
  }
  await page.waitForLoadState('networkidle');
  await Promise.all(pending);
  await context.close();
  return view;
}

const jsViews = [
  await jsOf('not sampled for tracing (Sentry configured, not loaded)', `${unsampled.url}${PAGE}`),
  await jsOf(
    'not sampled, after an error (Sentry loaded to report it)',
    `${unsampled.url}${PAGE}`,
    {
      fail: true,
    },
  ),
  await jsOf('sampled for tracing (Sentry and tracing loaded at idle)', `${sampled.url}${PAGE}`),
];
const phoneImages = await imagesOnAPhone(`${unsampled.url}${IMAGES_PAGE}`);
await browser.close();
const sum = (scripts: Script[], key: 'raw' | 'gzip' | 'wire') =>
  scripts.reduce((total, script) => total + script[key], 0);
const sentryGzip = (scripts: Script[]) =>
  sum(
    scripts.filter((script) => script.name.startsWith('sentry')),
    'gzip',
  );

// Lighthouse (mobile profile, the default) on the system Chromium, when asked for: against
// the server with Sentry configured, as most views are (not sampled for tracing: nine in ten
// by default) and as the heaviest are (sampled).
// And against the floor under those scores on this machine: the same pages' HTML with every
// script taken out, served with the same headers (the reading face and the images passed
// through to the server): what Chromium's own work on the document costs, before any script.
const lighthouse: string[] = [];
/** Every successful run's benchmarkIndex, for the line that says what machine this was. */
const benchmarkIndexes: number[] = [];
/** The demo seed with the home page showing the latest posts (issue 27), for Lighthouse. */
async function listingHomeDatabase(): Promise<BenchDatabase> {
  const listing = await benchDatabase('sqlite');
  const settings = await listing.store.getSiteSettings();
  await listing.store.saveSiteSettings({ ...settings, homeShows: 'posts' });
  return listing;
}
const listing = values.lighthouse ? await listingHomeDatabase() : null;
// Served as `unsampled` is; stopped with every server, its database dropped with the others.
const listingHome = listing
  ? await startServer(deployedAt({ ...monitoredEnv, SENTRY_TRACES_SAMPLE_RATE: '0' }), listing)
  : null;
const alone = values.lighthouse ? await documentAlone(unsampled.url, ['/', IMAGES_PAGE]) : null;
const lighthouseRuns = [
  // Issue 27: a topic's page (the seed's "Guides") and a search's results, as visitors get them.
  {
    origin: unsampled.url,
    label: 'unsampled',
    targets: ['/', PAGE, IMAGES_PAGE, TOPIC_PAGE, SEARCH_PAGE],
  },
  {
    origin: alone ? `http://127.0.0.1:${alone.port}` : '',
    label: 'the document alone: same HTML and headers, scripts taken out',
    targets: ['/', IMAGES_PAGE],
  },
  { origin: sampled.url, label: 'sampled', targets: ['/', PAGE, IMAGES_PAGE] },
  // Issue 27: the home page as a listing (Site settings: the latest posts), on its own site.
  {
    origin: listingHome?.url ?? '',
    label: 'unsampled, home showing the latest posts',
    targets: listingHome ? ['/'] : [],
  },
].flatMap((run) => run.targets.map((target) => ({ ...run, target })));
if (values.lighthouse) {
  // Lighthouse's own advice: its score moves from run to run, so take the median of several.
  const runs = Math.max(1, Math.min(9, Number(values['lighthouse-runs'])));
  for (const { origin, label, target } of lighthouseRuns)
    lighthouse.push(await lighthouseLine(origin, target, label, runs, dir, benchmarkIndexes));
}

/** A server on a port the OS picks that answers each of `targets` with the HTML `origin` gives
 * for it, every <script> element taken out and the response's headers kept, and passes any
 * other request through to `origin`. */
async function documentAlone(origin: string, targets: string[]) {
  const pages = new Map<string, Response>();
  for (const target of targets) {
    const page = await fetch(`${origin}${target}`, { headers: { 'accept-encoding': 'identity' } });
    const headers = new Headers(page.headers);
    for (const name of ['content-length', 'etag']) headers.delete(name);
    const html = (await page.text()).replace(/<script\b[\s\S]*?<\/script>/gi, '');
    pages.set(target, new Response(html, { headers }));
  }
  return Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    fetch(request) {
      const url = new URL(request.url);
      const page = pages.get(url.pathname);
      if (page) return page.clone();
      return fetch(`${origin}${url.pathname}${url.search}`, {
        headers: { accept: request.headers.get('accept') ?? '*/*', 'accept-encoding': 'identity' },
      });
    },
  });
}

await alone?.stop(true);
await unsampled.stop();
await sampled.stop();
receiver.stop();

// A publish from another process (a second instance, the CLI) until a cached instance serves
// it: the store in this process writes, commits, and the clock runs until the instance's
// next response has the new text. 200 publishes per engine, the page cached before each.
async function publishToVisible(database: BenchDatabase, server: Started): Promise<number[]> {
  const slug = 'bench-visibility';
  const latencies: number[] = [];
  for (let i = 0; i < 200; i++) {
    await fetch(`${server.url}/${slug}`).then((r) => r.text());
    await fetch(`${server.url}/${slug}`).then((r) => r.text());
    const marker = `visible-${i}-${Math.random().toString(36).slice(2)}`;
    await database.store.putPage(
      { slug, title: 'Visibility', summary: '', body: marker },
      { publish: true },
    );
    const committed = performance.now();
    for (let tries = 0; ; tries++) {
      if ((await (await fetch(`${server.url}/${slug}`)).text()).includes(marker)) break;
      if (tries > 10_000) throw new Error('a publish never became visible');
    }
    latencies.push(performance.now() - committed);
  }
  return latencies;
}
const visibility = [
  { engine: 'SQLite', latencies: await publishToVisible(sqlite, cached) },
  ...(postgres && pgCached
    ? [{ engine: 'PostgreSQL', latencies: await publishToVisible(postgres, pgCached) }]
    : []),
];

// Memory: 100 000 requests, then another 100 000, against the cached page.
async function spend(count: number): Promise<number> {
  let done = 0;
  while (done < count) done += (await wrk(`${cached.url}${PAGE}`, 64, 2)).requests;
  return done;
}
const rssAfterLoad = rssMb(cached.pid);
const first = await spend(100_000);
const rssAfter100k = rssMb(cached.pid);
const second = await spend(100_000);
const rssAfter200k = rssMb(cached.pid);

limit.kill('SIGTERM');
await limit.exited;
for (const server of started) await server.stop();
for (const database of [sqlite, postgres, listing]) {
  if (!database) continue;
  await database.db.close();
  await database.made.drop();
}

const fmt = (n: number, digits = 0) => (Number.isFinite(n) ? n.toFixed(digits) : 'n/a');
const limitRow = results.get(targets[0]?.name ?? '') as Map<number, Result>;
const lines: string[] = [];
lines.push(`# Folio benchmark\n`);
lines.push(
  `Run: ${new Date().toISOString()} · Bun ${Bun.version} · ${cpus().length} cores (${cpus()[0]?.model ?? 'unknown'}) · ${(totalmem() / 2 ** 30).toFixed(0)} GiB · load generator: wrk (${DURATION} s per run, median of ${ROUNDS} runs per cell taken in turns, 2 threads, same machine) · page: ${PAGE} (${pageBytes.length} bytes of HTML)\n`,
);
lines.push('| target | conns | req/s | p50 ms | p99 ms | errors | vs limit |');
lines.push('|---|---:|---:|---:|---:|---:|---:|');
for (const [name, row] of results) {
  for (const c of CONNECTIONS) {
    const r = row.get(c) as Result;
    const ratio = r.rps / (limitRow.get(c)?.rps ?? Number.NaN);
    lines.push(
      `| ${name} | ${c} | ${fmt(r.rps)} | ${fmt(r.p50, 2)} | ${fmt(r.p99, 2)} | ${r.errors} | ${fmt(ratio * 100)} % |`,
    );
  }
}
lines.push('');
lines.push(
  `- JavaScript loaded by a published page in Chromium (${PAGE}), gzip as the budget counts it, and bytes on the wire (brotli, as served):`,
);
for (const view of jsViews)
  lines.push(
    `  - ${view.label}: ${view.scripts.length} files, ${fmt(sum(view.scripts, 'raw') / 1024, 1)} KB raw, **${fmt(sum(view.scripts, 'gzip') / 1024, 1)} KB gzip** (Sentry ${fmt(sentryGzip(view.scripts) / 1024, 1)} KB of it), ${fmt(sum(view.scripts, 'wire') / 1024, 1)} KB on the wire`,
  );
const percentileOf = (list: number[], p: number) => {
  const sorted = [...list].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number;
};
for (const { engine, latencies } of visibility)
  lines.push(
    `- Publish (committed by another process) → served by a cached instance, ${engine}, ${latencies.length} publishes: p50 ${fmt(percentileOf(latencies, 50), 2)} ms, p99 ${fmt(percentileOf(latencies, 99), 2)} ms, max ${fmt(Math.max(...latencies), 2)} ms (includes the one HTTP request that saw it).`,
  );
lines.push(
  `- Process start to first 200 (\`bun run start\` with a fresh build, cache on, SQLite): ${fmt(cached.startupMs)} ms; cache off: ${fmt(uncached.startupMs)} ms${pgCached ? `; PostgreSQL, cache on: ${fmt(pgCached.startupMs)} ms` : ''}.`,
);
lines.push(
  `- RSS of the cached server: ${fmt(rssAfterLoad, 1)} MB after the load above, ${fmt(rssAfter100k, 1)} MB after ${first} more requests, ${fmt(rssAfter200k, 1)} MB after another ${second}.`,
);
lines.push(
  `- A page with three photographs (${IMAGES_PAGE}; uploads of 3000 × 2000 px, ${fmt(originalBytes / 1024)} KB in all): a phone's first view (412 px wide, 1.75 device pixels per px, read to the end) transferred **${fmt(phoneImages.transferred / 1024)} KB** of images (${phoneImages.chosen.join(', ')}), ${fmt((phoneImages.transferred / originalBytes) * 100, 1)} % of the originals.`,
);
if (lighthouse.length > 0)
  lines.push(
    '- Lighthouse: "unsampled" is a page view not traced (nine in ten deployed, by default), "sampled" one traced (SENTRY_TRACES_SAMPLE_RATE); "the document alone" is the floor under both on this machine: what the page scores with no script at all.',
  );
const indexLine = benchmarkIndexLine(benchmarkIndexes);
if (indexLine) lines.push(`- ${indexLine}`);
for (const line of lighthouse) lines.push(`- Lighthouse (mobile, simulated throttling) ${line}`);
const table = lines.join('\n');
console.log(table);
writeFileSync('bench/results.md', `${table}\n`);
