// `bun bench/scale-cache.ts [--sizes 1000,10000] [--engine sqlite|postgres|both]
//  [--publishes 40] [--sample 200] [--no-build] [--sites <dir>]`: dependency-aware invalidation at scale
// (issue 25, docs/decisions/0028). For each engine and size it builds a throw-away site of that
// many published pages (1–2 KB of Markdown each, a quarter with a code block; the demo content's
// short header navigation), starts `bun run start` on it, caches a sample of pages, then:
//  - saves new text of one page as a draft, then publishes it (from this process's own
//    connection, as the CLI would), timing the publish call until the server serves the new
//    text ("publish → visible", the new page's render included), and counts
//    how many of the sample are still cache hits afterwards;
//  - changes the site's title (what every publish did to the cache before 0028: everything),
//    and counts the same.
// It prints a table and drops every database it made. Kept out of `bun run check`.
// With `--sites <dir>` each site is built once and kept (a SQLite file in <dir>, a PostgreSQL
// database folio_bench_site_<pages>), and every run measures a fresh copy of it: a 100 000-page
// site takes minutes to build, and a before/after comparison then measures the same site.
// Drop the PostgreSQL ones by hand when done (`DROP DATABASE folio_bench_site_100000`).
import { copyFileSync, existsSync, mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { SQL } from 'bun';
import { type ContentStore, createContentStore } from '../src/lib/content/content';
import { seedDemoContent } from '../src/lib/content/seed';
import { contentVersionOf } from '../src/lib/data/content-version';
import { type Database, openDatabase } from '../src/lib/data/db';
import {
  createThrowAwayDatabase,
  POSTGRES_ADMIN_URL,
  postgresAnswers,
  postgresUrlFor,
  type ThrowAwayDatabase,
} from '../tests/databases';
import { type RunningFolio, startFolio } from '../tests/harness';

const { values: options } = parseArgs({
  options: {
    sizes: { type: 'string', default: '1000,10000' },
    engine: { type: 'string', default: 'both' },
    publishes: { type: 'string', default: '40' },
    sample: { type: 'string', default: '200' },
    'no-build': { type: 'boolean', default: false },
    sites: { type: 'string' },
  },
});
const sizes = (options.sizes ?? '')
  .split(',')
  .map(Number)
  .filter((n) => n > 0);
const publishes = Number(options.publishes);
const sampleSize = Number(options.sample);
const engines: ('sqlite' | 'postgres')[] =
  options.engine === 'both' ? ['sqlite', 'postgres'] : [options.engine as 'sqlite' | 'postgres'];
if (engines.includes('postgres') && !(await postgresAnswers())) {
  console.error('bench: no PostgreSQL answers; measuring SQLite only');
  engines.splice(engines.indexOf('postgres'), 1);
}

if (!options['no-build']) {
  const build = Bun.spawnSync(['bun', 'run', 'build'], { stdout: 'ignore', stderr: 'inherit' });
  if (build.exitCode !== 0) process.exit(1);
}

const words = 'folio page text cache publish render listing version header footer site'.split(' ');
/** A page of 1–2 KB of Markdown, the same for the same number. */
function pageBody(n: number, mark = ''): string {
  const paragraphs: string[] = [];
  let length = 0;
  const target = 1000 + ((n * 7919) % 1000);
  for (let p = 0; length < target; p++) {
    const sentence = Array.from({ length: 60 }, (_, i) => words[(n + p * 3 + i) % words.length]);
    const paragraph = `${sentence.join(' ')}.`;
    paragraphs.push(paragraph);
    length += paragraph.length;
  }
  if (n % 4 === 0) paragraphs.push('```ts\nconst page = await store.getPage(slug);\n```');
  return `${paragraphs.join('\n\n')}\n\n${mark}`;
}
const slugOf = (n: number) => `page-${String(n).padStart(6, '0')}`;

async function buildSite(store: ContentStore, db: Database, pages: number) {
  await seedDemoContent(db, store);
  const batch = 250;
  for (let start = 0; start < pages; start += batch) {
    const inputs = [];
    for (let n = start; n < Math.min(pages, start + batch); n++)
      inputs.push({
        slug: slugOf(n),
        title: `Page ${n}`,
        summary: `Summary of page ${n}.`,
        body: pageBody(n),
        publish: true,
      });
    await store.putPages(inputs, { allowMissingMedia: true });
  }
}

/** A database holding the site: built now, or (with --sites) copied from the one kept. */
async function siteDatabase(
  engine: 'sqlite' | 'postgres',
  pages: number,
): Promise<{ made: ThrowAwayDatabase; buildS: number }> {
  const build = async (made: ThrowAwayDatabase) => {
    const db = await openDatabase(made.url);
    try {
      const t0 = performance.now();
      await buildSite(createContentStore(db), db, pages);
      if (engine === 'postgres') await db.query.unsafe('VACUUM ANALYZE');
      return (performance.now() - t0) / 1000;
    } finally {
      await db.close();
    }
  };
  if (!options.sites) {
    const made = await createThrowAwayDatabase(engine);
    return { made, buildS: await build(made) };
  }
  const dir = path.resolve(options.sites);
  mkdirSync(dir, { recursive: true });
  let buildS = 0;
  if (engine === 'sqlite') {
    const kept = path.join(dir, `site-${pages}.db`);
    if (!existsSync(kept)) {
      await Bun.write(kept, '');
      buildS = await build({ url: `sqlite:${kept}`, engine, file: kept, drop: async () => {} });
    }
    const file = path.join(dir, `run-${pages}-${process.pid}.db`);
    copyFileSync(kept, file);
    const drop = async () => {
      for (const end of ['', '-wal', '-shm', '.version', '.changes'])
        rmSync(`${file}${end}`, { force: true });
      rmSync(`${file}.serving`, { recursive: true, force: true });
    };
    return { made: { url: `sqlite:${file}`, engine, file, drop }, buildS };
  }
  const kept = `folio_bench_site_${pages}`;
  const admin = new SQL(POSTGRES_ADMIN_URL, { max: 1 });
  try {
    if ((await admin`SELECT 1 FROM pg_database WHERE datname = ${kept}`).length === 0) {
      await admin.unsafe(`CREATE DATABASE "${kept}"`);
      buildS = await build({
        url: postgresUrlFor(kept),
        engine,
        file: null,
        drop: async () => {},
      });
    }
    const copy = `folio_bench_run_${pages}_${process.pid}`;
    await admin.unsafe(`CREATE DATABASE "${copy}" TEMPLATE "${kept}"`);
    const drop = async () => {
      const again = new SQL(POSTGRES_ADMIN_URL, { max: 1 });
      await again.unsafe(`DROP DATABASE IF EXISTS "${copy}" WITH (FORCE)`);
      await again.close();
    };
    return { made: { url: postgresUrlFor(copy), engine, file: null, drop }, buildS };
  } finally {
    await admin.close();
  }
}

async function get(folio: RunningFolio, pathname: string) {
  const response = await fetch(`${folio.url}${pathname}`);
  return { hit: response.headers.get('x-folio-cache') === 'hit', text: await response.text() };
}

/** Requests each address until it is a hit (the build's writes reach the server first). */
async function warm(folio: RunningFolio, addresses: string[]) {
  for (const address of addresses)
    for (let tries = 0; tries < 20 && !(await get(folio, address)).hit; tries++);
}

/** The content version the server serves (healthz says it). */
async function servedVersion(folio: RunningFolio): Promise<number> {
  const response = await fetch(`${folio.url}/healthz`);
  await response.arrayBuffer();
  return Number(response.headers.get('x-folio-content-version') ?? -1);
}

async function stillCached(folio: RunningFolio, addresses: string[]): Promise<number> {
  let hits = 0;
  for (const address of addresses) if ((await get(folio, address)).hit) hits += 1;
  return hits;
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((x, y) => x - y);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
};

type Row = {
  engine: string;
  pages: number;
  buildS: number;
  visibleP50: number;
  visibleP99: number;
  heardP50: number;
  heardP99: number;
  cachedAfterPublish: number;
  cachedAfterSettings: number;
  sample: number;
};
const rows: Row[] = [];

for (const engine of engines)
  for (const pages of sizes) {
    let made: ThrowAwayDatabase | null = null;
    let db: Database | null = null;
    let folio: RunningFolio | null = null;
    try {
      const site = await siteDatabase(engine, pages);
      made = site.made;
      const buildS = site.buildS;
      db = await openDatabase(made.url);
      const store = createContentStore(db);
      folio = await startFolio({ database: made, keepDatabase: true });
      const target = slugOf(0);
      // A spread of pages (never the one published), and the data of some, and the home page.
      const step = Math.max(1, Math.floor(pages / sampleSize));
      const sample: string[] = ['/'];
      for (let n = 1; sample.length < sampleSize && n < pages; n += step)
        sample.push(sample.length % 4 === 0 ? `/RSC/R/${slugOf(n)}.txt` : `/${slugOf(n)}`);
      await warm(folio, [`/${target}`, ...sample]);

      const visible: number[] = [];
      const heard: number[] = [];
      const cachedAfter: number[] = [];
      for (let i = 0; i < publishes; i++) {
        const mark = `MARK-${i}-${Date.now()}`;
        // The draft is saved first (its Markdown rendered then, as an editor's save does): the
        // figure is the publish itself, from the call to the server serving the new text.
        await store.putPage({
          slug: target,
          title: 'Page 0',
          summary: 'Summary of page 0.',
          body: pageBody(0, mark),
        });
        const started = performance.now();
        await store.publish(target);
        // When the server is on the new version (the invalidation itself, no render).
        const version = contentVersionOf(db).current();
        while ((await servedVersion(folio)) < version);
        heard.push(performance.now() - started);
        while (!(await get(folio, `/${target}`)).text.includes(mark));
        visible.push(performance.now() - started);
        cachedAfter.push(await stillCached(folio, sample));
      }
      // What every publish did before 0028: the whole cache dropped.
      const settings = await store.getSiteSettings();
      await store.saveSiteSettings({ ...settings, title: `Scale ${Date.now()}` });
      // As after each publish: counted once the server is on that version (on PostgreSQL this
      // process does not listen, so its commit does not wait for the server's NOTIFY).
      const settingsVersion = contentVersionOf(db).current();
      while ((await servedVersion(folio)) < settingsVersion);
      const afterSettings = await stillCached(folio, sample);
      rows.push({
        engine,
        pages,
        buildS,
        visibleP50: percentile(visible, 50),
        visibleP99: percentile(visible, 99),
        heardP50: percentile(heard, 50),
        heardP99: percentile(heard, 99),
        cachedAfterPublish: Math.min(...cachedAfter),
        cachedAfterSettings: afterSettings,
        sample: sample.length,
      });
      console.error(`bench: ${engine} ${pages} pages done`);
    } finally {
      await folio?.stop();
      await db?.close();
      await made?.drop();
    }
  }

const fmt = (n: number) => n.toFixed(1);
console.log(
  `\nPublish → visible and pages still cached (${publishes} publishes of one page; sample of cached pages per site)\n`,
);
console.log(
  '| engine | pages | publish → server on the new version p50 | p99 | publish → new text served p50 | p99 | sample still cached after a page publish (min) | after a settings change (= any publish before 0028) | site build |',
);
console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|');
for (const row of rows)
  console.log(
    `| ${row.engine} | ${row.pages} | ${fmt(row.heardP50)} ms | ${fmt(row.heardP99)} ms | ${fmt(row.visibleP50)} ms | ${fmt(row.visibleP99)} ms | ${row.cachedAfterPublish}/${row.sample} | ${row.cachedAfterSettings}/${row.sample} | ${fmt(row.buildS)} s |`,
  );
