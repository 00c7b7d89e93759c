// `bun run soak [--duration 60] [--visitors 8] [--editors 2]`: visitors read while editors
// save and publish through the real forms, against the production build on 127.0.0.1.
// Passes when no request failed, memory stayed flat, and every save the server
// acknowledged (303 to "saved") is what the database holds afterwards.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createContentStore } from '../src/lib/content';
import { openDatabase } from '../src/lib/db';
import { addEditor, createSession } from '../src/lib/editors';
import { seedDemoContent } from '../src/lib/seed';

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '60' },
    visitors: { type: 'string', default: '8' },
    editors: { type: 'string', default: '2' },
  },
});
const DURATION_MS = Math.min(Number(values.duration), 900) * 1000;
const VISITORS = Number(values.visitors);
const EDITORS = Number(values.editors);

if (!(await Bun.file('dist/server/index.js').exists())) {
  const build = Bun.spawnSync(['bun', 'run', 'build'], { stdout: 'inherit', stderr: 'inherit' });
  if (build.exitCode !== 0) process.exit(1);
}

const dir = mkdtempSync(path.join(tmpdir(), 'folio-soak-'));
const dbPath = path.join(dir, 'folio.db');
const setupDb = openDatabase(`sqlite:${dbPath}`);
const setupStore = createContentStore(setupDb);
seedDemoContent(setupStore);
const editorPages = Array.from({ length: EDITORS }, (_, i) => `soak-page-${i}`);
for (const slug of editorPages)
  setupStore.putPage({ slug, title: slug, summary: '', body: 'start' }, { publish: true });
const editor = await addEditor(setupDb, 'soak@example.com', 'soak password 123');
const sessions = editorPages.map(() => createSession(setupDb, editor.id).id);
setupDb.close();

const port = 20_000 + Math.floor(Math.random() * 20_000);
const base = `http://127.0.0.1:${port}`;
const server = Bun.spawn(['bun', 'server.ts'], {
  env: { ...process.env, PORT: String(port), DATABASE_URL: `sqlite:${dbPath}`, SENTRY_DSN: '' },
  stdout: 'ignore',
  stderr: 'pipe',
});
for (let i = 0; ; i++) {
  try {
    if ((await fetch(`${base}/healthz`)).ok) break;
  } catch {}
  if (i > 300) throw new Error('server did not start');
  await Bun.sleep(20);
}

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

/** The fields a browser without JavaScript would submit for the first form with this class. */
async function formFields(html: string, formClass: string): Promise<Map<string, string>> {
  const fields = new Map<string, string>();
  let inForm = false;
  let seen = 0;
  let textarea: string | null = null;
  const rewriter = new HTMLRewriter()
    .on('form', {
      element(el) {
        const matches = (el.getAttribute('class') ?? '').split(' ').includes(formClass);
        if (matches) seen += 1;
        inForm = matches && seen === 1;
        el.onEndTag(() => {
          inForm = false;
        });
      },
    })
    .on('input', {
      element(el) {
        const name = el.getAttribute('name');
        if (inForm && name) fields.set(name, el.getAttribute('value') ?? '');
      },
    })
    .on('textarea', {
      element(el) {
        textarea = inForm ? el.getAttribute('name') : null;
        if (textarea) fields.set(textarea, '');
      },
      text(chunk) {
        if (textarea) fields.set(textarea, (fields.get(textarea) ?? '') + chunk.text);
      },
    });
  await rewriter.transform(new Response(html)).text();
  return fields;
}

function decodeEntities(text: string): string {
  return text
    .replace(/&quot;/g, '"')
    .replace(/&#x27;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
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
    const fields = await formFields(html, 'editor');
    const token = `SOAK-${index}-${n}`;
    fields.set('body', `Saved by the soak run: ${token}`);
    const form = new FormData();
    for (const [name, value] of fields) form.set(name, decodeEntities(value));
    const save = await timed(editorLatencies, () =>
      fetch(`${base}/preview/${slug}?edit`, {
        method: 'POST',
        body: form,
        headers: { cookie, origin: base },
        redirect: 'manual',
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
      const publishFields = await formFields(await view.text(), 'command-publish');
      const publishForm = new FormData();
      for (const [name, value] of publishFields) publishForm.set(name, decodeEntities(value));
      const publish = await timed(editorLatencies, () =>
        fetch(`${base}/preview/${slug}`, {
          method: 'POST',
          body: publishForm,
          headers: { cookie, origin: base },
          redirect: 'manual',
        }),
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
server.kill('SIGTERM');
const exitCode = await server.exited;

const store = createContentStore(openDatabase(`sqlite:${dbPath}`));
const lost: string[] = [];
for (const [slug, token] of lastAcknowledged) {
  const page = store.getPage(slug, { draft: true });
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
  failures.length === 0 &&
  lost.length === 0 &&
  exitCode === 0 &&
  flat &&
  lastAcknowledged.size === EDITORS;
console.log(ok ? 'soak: passed' : `soak: FAILED${flat ? '' : ' (RSS grew)'}`);
process.exit(ok ? 0 : 1);
