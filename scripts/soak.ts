// `bun run soak [--duration 60] [--visitors 8] [--editors 2]`: visitors read while editors
// save and publish through the real forms, against the server as the README starts it
// (`bun run start`, a throw-away database, an OS-picked port on 127.0.0.1).
// Passes when no request failed, memory stayed flat, and every save the server
// acknowledged (303 to "saved") is what the database holds afterwards.
// First it runs the full-size hostile runs the gate (`bun run check`) runs smaller: the fuzz
// run at 5000 requests, the flood of 20 000 junk page-data keys and the co-editing convergence
// fuzz at 5000 operations a seed (`--no-full-size` skips them); the same test files, only the
// counts differ.
// `bun run soak --coedit-browser` runs only the co-editing fault-injection run in Chromium
// (bench/coedit-faults.ts: two browsers, two instances, reloads, SIGKILL, PostgreSQL restart,
// network drop, session end; at most 4 minutes) and exits with its code.
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { createContentStore } from '../src/lib/content/content';
import { seedDemoContent } from '../src/lib/content/seed';
import { openDatabase } from '../src/lib/data/db';
import { addEditor, createSession } from '../src/lib/editors/accounts';
import { createThrowAwayDatabase } from '../tests/databases';
import { formWithButton, submitForm } from '../tests/forms';
import { startFolio } from '../tests/harness';

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '60' },
    visitors: { type: 'string', default: '8' },
    editors: { type: 'string', default: '2' },
    'no-full-size': { type: 'boolean', default: false },
    'coedit-browser': { type: 'boolean', default: false },
  },
});

if (values['coedit-browser']) {
  const run = Bun.spawn(['bun', './bench/coedit-faults.ts'], {
    stdio: ['inherit', 'inherit', 'inherit'],
  });
  process.exit(await run.exited);
}

let fullSizePassed = true;
if (!values['no-full-size']) {
  console.log(
    'soak: full-size fuzz (5000 requests), junk-key flood (20 000 keys), co-editing (5000 operations)',
  );
  const fullSize = Bun.spawn(
    [
      'bun',
      'test',
      '--timeout',
      '120000',
      './tests/integration/fuzz.test.ts',
      './tests/integration/hostile-input.test.ts',
      './tests/integration/coedit-fuzz.test.ts',
    ],
    {
      env: {
        ...process.env,
        FUZZ_REQUESTS: '5000',
        HOSTILE_JUNK_KEYS: '20000',
        COEDIT_FUZZ_OPS: '5000',
        COEDIT_FUZZ_SEEDS: process.env.COEDIT_FUZZ_SEEDS ?? '11,29,47,101,202',
      },
      stdio: ['inherit', 'inherit', 'inherit'],
    },
  );
  fullSizePassed = (await fullSize.exited) === 0;
  console.log(`soak: full-size runs ${fullSizePassed ? 'passed' : 'FAILED'}`);
}
const DURATION_MS = Math.min(Number(values.duration), 900) * 1000;
const VISITORS = Number(values.visitors);
const EDITORS = Number(values.editors);

// On FOLIO_TEST_ENGINE's engine (SQLite by default; `postgres` uses FOLIO_TEST_POSTGRES_URL).
const database = await createThrowAwayDatabase();
const setupDb = await openDatabase(database.url);
const setupStore = createContentStore(setupDb);
await seedDemoContent(setupDb, setupStore);
const editorPages = Array.from({ length: EDITORS }, (_, i) => `soak-page-${i}`);
for (const slug of editorPages)
  await setupStore.putPage({ slug, title: slug, summary: '', body: 'start' }, { publish: true });
const editor = await addEditor(setupDb, 'soak@example.com', 'soak password 123');
const sessions: string[] = [];
for (const _ of editorPages) sessions.push((await createSession(setupDb.query, editor.id)).id);
await setupDb.close();

const server = await startFolio({ database, keepDatabase: true });
const base = server.url;

function rssMb(): number {
  const status = readFileSync(`/proc/${server.pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

const failures: string[] = [];
const visitorLatencies: number[] = [];
const editorLatencies: number[] = [];
const lastAcknowledged = new Map<string, string>();
let acknowledgedSaves = 0;
const rss: number[] = [rssMb()];
const deadline = Date.now() + DURATION_MS;
const READ_PATHS = [
  '/',
  '/about',
  '/getting-started',
  '/writing-in-markdown',
  '/release-notes',
  '/RSC/R/about.txt',
  '/RSC/R/_root.txt',
  '/sitemap.xml',
  ...editorPages.map((s) => `/${s}`),
];

async function timed(
  latencies: number[],
  request: () => Promise<Response>,
): Promise<Response | null> {
  const started = performance.now();
  try {
    const response = await request();
    latencies.push(performance.now() - started);
    return response;
  } catch (error) {
    failures.push(String(error));
    return null;
  }
}

async function visitor(seed: number) {
  let i = seed;
  while (Date.now() < deadline) {
    const target = READ_PATHS[i++ % READ_PATHS.length] as string;
    const response = await timed(visitorLatencies, () => fetch(`${base}${target}`));
    if (response) {
      await response.arrayBuffer();
      if (response.status !== 200) failures.push(`visitor ${target}: ${response.status}`);
    }
  }
}

async function editorLoop(index: number) {
  const slug = editorPages[index] as string;
  const cookie = `folio_session=${sessions[index]}`;
  let n = 0;
  while (Date.now() < deadline) {
    n += 1;
    const page = await timed(editorLatencies, () =>
      fetch(`${base}/preview/${slug}?edit`, { headers: { cookie } }),
    );
    if (!page) continue;
    const html = await page.text();
    if (page.status !== 200) {
      failures.push(`editor GET ${slug}: ${page.status}`);
      continue;
    }
    const token = `SOAK-${index}-${n}`;
    const editorForm = await formWithButton(html, 'Save draft');
    const save = await timed(editorLatencies, () =>
      submitForm(`${base}/preview/${slug}?edit`, editorForm, {
        cookie,
        set: { body: `Saved by the soak run: ${token}` },
      }),
    );
    if (!save) continue;
    await save.arrayBuffer();
    if (save.status === 303 && (save.headers.get('location') ?? '').includes('notice=saved')) {
      lastAcknowledged.set(slug, token);
      acknowledgedSaves += 1;
    } else failures.push(`editor save ${slug}: ${save.status}`);
    if (n % 3 === 0) {
      const view = await timed(editorLatencies, () =>
        fetch(`${base}/preview/${slug}`, { headers: { cookie } }),
      );
      if (!view) continue;
      const publishForm = await formWithButton(await view.text(), 'Publish this draft');
      const publish = await timed(editorLatencies, () =>
        submitForm(`${base}/preview/${slug}`, publishForm, { cookie }),
      );
      if (publish) {
        await publish.arrayBuffer();
        if (publish.status !== 303) failures.push(`editor publish ${slug}: ${publish.status}`);
      }
    }
  }
}

const sampler = setInterval(() => rss.push(rssMb()), 2000);
await Promise.all([
  ...Array.from({ length: VISITORS }, (_, i) => visitor(i)),
  ...editorPages.map((_, i) => editorLoop(i)),
]);
clearInterval(sampler);
rss.push(rssMb());
const exitCode = await server.stop();

const checkDb = await openDatabase(database.url);
const store = createContentStore(checkDb);
const lost: string[] = [];
for (const [slug, token] of lastAcknowledged) {
  const page = await store.getPage(slug, { draft: true });
  if (!page?.bodyMarkdown.includes(token))
    lost.push(`${slug}: expected ${token}, found ${page?.bodyMarkdown.slice(0, 60)}`);
}

const percentile = (list: number[], p: number) => {
  const sorted = [...list].sort((a, b) => a - b);
  return sorted.length
    ? (sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number)
    : 0;
};
const firstHalf = rss.slice(0, Math.ceil(rss.length / 2));
const secondHalf = rss.slice(Math.ceil(rss.length / 2));
const peak = (list: number[]) => Math.max(...list);
const growth = peak(secondHalf) - peak(firstHalf);

console.log(`soak: ${DURATION_MS / 1000}s, ${VISITORS} visitors, ${EDITORS} editors`);
console.log(
  `  visitor requests ${visitorLatencies.length}, p50 ${percentile(visitorLatencies, 50).toFixed(1)} ms, p99 ${percentile(visitorLatencies, 99).toFixed(1)} ms`,
);
console.log(
  `  editor requests  ${editorLatencies.length}, p50 ${percentile(editorLatencies, 50).toFixed(1)} ms, p99 ${percentile(editorLatencies, 99).toFixed(1)} ms`,
);
console.log(
  `  acknowledged saves: ${acknowledgedSaves}; the last of each page checked in the database: ${lastAcknowledged.size} pages, lost: ${lost.length}`,
);
console.log(
  `  RSS MB: start ${rss[0]?.toFixed(1)}, peak first half ${peak(firstHalf).toFixed(1)}, peak second half ${peak(secondHalf).toFixed(1)}, end ${rss.at(-1)?.toFixed(1)}`,
);
console.log(`  failed requests: ${failures.length}; server exit code ${exitCode}`);
for (const line of [...failures.slice(0, 10), ...lost]) console.log(`  ! ${line}`);
const flat = growth < 20;
const ok =
  fullSizePassed &&
  failures.length === 0 &&
  lost.length === 0 &&
  exitCode === 0 &&
  flat &&
  lastAcknowledged.size === EDITORS;
console.log(
  ok
    ? 'soak: passed'
    : `soak: FAILED${flat ? '' : ' (RSS grew)'}${fullSizePassed ? '' : ' (full-size runs)'}`,
);
await checkDb.close();
await database.drop();
process.exit(ok ? 0 : 1);
