// `bun bench/scale-publication.ts [--sizes 1000,10000,100000] [--engine sqlite|postgres|both]
// [--runs 20] [--topics 50] [--authors 20] [--no-build] [--sites DIR] [--out bench/scale-publication-results.md]`
// (or `bun run bench --scale --only publication`): the publication at scale (issue 27 against
// issue 25's targets). Sites of generated published posts (tests/generated-site.ts) tagged
// with `--topics` topics (one big: half the posts; the rest small) and bylined by `--authors`
// authors, the home page showing the latest posts. For each size and engine, every visitor's
// page of the publication — home and its pages, a big and a small topic (first and last
// page), an author, the three feeds, the sitemap index, search — timed on a server with the
// render cache off (every request a cold render) and on one with it on (after a first
// request), median and p95 of `--runs`, each with the load average when it was taken. Prints
// the table (with each figure's ratio to the smallest size's) and writes it, with the date,
// the machine's load and the command, to `--out`. Traffic goes to 127.0.0.1 only; every
// server it starts is stopped by PID and every database it makes is dropped. `--sites DIR`
// (SQLite): each generated site is kept in DIR and a later run measures a copy of it instead of
// generating it again (100 000 pages took about two minutes); a newer build migrates the copy
// when its server starts, and the bench says how long that first start took.
import { copyFileSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createContentStore } from '../src/lib/content/content';
import { LISTING_PAGE_SIZE, LISTING_PAGES_MAX } from '../src/lib/content/posts';
import { openDatabase } from '../src/lib/data/db';
import { createThrowAwayDatabase, postgresAnswers } from '../tests/databases';
import {
  authorsOfPage,
  generatedAuthorSlug,
  generatedTopicSlug,
  insertPublishedPages,
  topicOfPage,
} from '../tests/generated-site';
import { startFolio } from '../tests/harness';
import { load, repeat, type Series, timed } from './scale-timing';

const { values } = parseArgs({
  args: Bun.argv.slice(2),
  options: {
    sizes: { type: 'string', default: '1000,10000,100000' },
    engine: { type: 'string', default: 'both' },
    runs: { type: 'string', default: '20' },
    topics: { type: 'string', default: '50' },
    authors: { type: 'string', default: '20' },
    out: { type: 'string', default: 'bench/scale-publication-results.md' },
    'no-build': { type: 'boolean', default: false },
    sites: { type: 'string' },
  },
});
const SIZES = values.sizes
  .split(',')
  .map(Number)
  .filter((n) => Number.isInteger(n) && n > 0 && n <= 200_000)
  .sort((a, b) => a - b);
const RUNS = Math.max(3, Math.min(100, Number(values.runs) || 20));
const TOPICS = Math.max(2, Math.min(99, Number(values.topics) || 50));
const AUTHORS = Math.max(1, Math.min(99, Number(values.authors) || 20));
const engines = (values.engine === 'both' ? ['sqlite', 'postgres'] : [values.engine]).filter(
  (engine): engine is 'sqlite' | 'postgres' => engine === 'sqlite' || engine === 'postgres',
);
if (SIZES.length === 0 || engines.length === 0) {
  console.error('scale-publication: give --sizes as numbers and --engine sqlite|postgres|both');
  process.exit(2);
}
const ROOT = path.resolve(import.meta.dir, '..');
if (!values['no-build']) {
  const build = Bun.spawnSync(['bun', 'run', 'build'], {
    cwd: ROOT,
    stdout: 'ignore',
    stderr: 'inherit',
  });
  if (build.exitCode !== 0) process.exit(1);
}

const PREFIX = 'gen';
const BIG_TOPIC = 1;
const SMALL_TOPIC = TOPICS;
/** An author of about one post in AUTHORS (author 1 also has every tenth post's second byline). */
const AUTHOR = Math.min(3, AUTHORS);
/** The deepest listing page the smallest site has at every size: a like-for-like deep page. */
const DEEP_PAGE = 50;

/** How many of `size` generated posts `count` says are in a listing, as its last page. */
function lastPage(size: number, count: (n: number) => boolean): number {
  let posts = 0;
  for (let n = 1; n <= size; n++) if (count(n)) posts++;
  return Math.max(1, Math.min(LISTING_PAGES_MAX, Math.ceil(posts / LISTING_PAGE_SIZE)));
}

/** What is timed on every site: a name and the address. */
function targets(size: number): [string, string][] {
  const big = generatedTopicSlug(PREFIX, BIG_TOPIC);
  const small = generatedTopicSlug(PREFIX, SMALL_TOPIC);
  const author = generatedAuthorSlug(PREFIX, AUTHOR);
  const bigLast = lastPage(size, (n) => topicOfPage(n, TOPICS) === BIG_TOPIC);
  const smallLast = lastPage(size, (n) => topicOfPage(n, TOPICS) === SMALL_TOPIC);
  const authorLast = lastPage(size, (n) => authorsOfPage(n, AUTHORS).includes(AUTHOR));
  const homeLast = lastPage(size, () => true);
  return [
    ['home (latest posts)', '/'],
    ['home ?page=2', '/?page=2'],
    [`home ?page=${DEEP_PAGE}`, `/?page=${Math.min(DEEP_PAGE, homeLast)}`],
    ['home, last page (≤ 500)', `/?page=${homeLast}`],
    ['big topic', `/${big}`],
    ['big topic, last page (≤ 500)', `/${big}?page=${bigLast}`],
    ['small topic', `/${small}`],
    ['small topic, last page', `/${small}?page=${smallLast}`],
    ['author', `/${author}`],
    ['author, last page (≤ 500)', `/${author}?page=${authorLast}`],
    ['feed', '/feed.xml'],
    ['topic feed (big)', `/feed.xml?topic=${big}`],
    ['author feed', `/feed.xml?author=${author}`],
    ['sitemap index', '/sitemap.xml'],
    ['search: narrow word', '/?q=000042'],
    ['search: broad word', '/?q=%22folio%22'],
    ['search: prefix (folio*)', '/?q=folio'],
    ['search: prefix (restor*)', '/?q=restor'],
    ['search: phrase', '/?q=%22older+one%22'],
    ['search: nothing found', '/?q=zyzzyva'],
  ];
}

type Row = {
  engine: string;
  size: number;
  what: string;
  address: string;
  cache: 'uncached' | 'cached';
  series: Series;
  load: string;
};
const rows: Row[] = [];
const fills: string[] = [];

/** Where `--sites` keeps the generated SQLite site of `size` pages, or null. */
function keptSite(engine: string, size: number): string | null {
  if (engine !== 'sqlite' || !values.sites) return null;
  mkdirSync(values.sites, { recursive: true });
  return path.resolve(values.sites, `site-${size}-t${TOPICS}-a${AUTHORS}.db`);
}

async function measure(engine: 'sqlite' | 'postgres', size: number) {
  const made = await createThrowAwayDatabase(engine);
  try {
    const kept = keptSite(engine, size);
    const started = performance.now();
    if (kept && made.file && existsSync(kept)) {
      copyFileSync(kept, made.file);
      fills.push(`${engine} ${size}: a copy of ${kept}`);
    } else {
      const db = await openDatabase(made.url);
      await insertPublishedPages(db, size, { prefix: PREFIX, topics: TOPICS, authors: AUTHORS });
      const store = createContentStore(db);
      await store.saveSiteSettings({ ...(await store.getSiteSettings()), homeShows: 'posts' });
      await db.query.unsafe(engine === 'postgres' ? 'VACUUM ANALYZE' : 'ANALYZE');
      await db.close();
      // Closing the last connection checkpoints the WAL: the file alone is the whole site.
      if (kept && made.file) copyFileSync(made.file, kept);
      const fill = `${engine} ${size}: generated in ${((performance.now() - started) / 1000).toFixed(1)} s (load ${load()})`;
      console.error(fill);
      fills.push(fill);
    }
    for (const cache of ['uncached', 'cached'] as const) {
      const starting = performance.now();
      const server = await startFolio({
        database: made,
        keepDatabase: true,
        env: cache === 'uncached' ? { FOLIO_RENDER_CACHE: 'off' } : {},
      });
      const start = `${engine} ${size} ${cache}: server started in ${((performance.now() - starting) / 1000).toFixed(1)} s (load ${load()})`;
      console.error(start);
      fills.push(start);
      try {
        await timed(`${server.url}/`); // warm the process (JIT, connections)
        for (const [what, address] of targets(size)) {
          const url = `${server.url}${address}`;
          if (cache === 'cached') await timed(url); // the first request fills the cache
          const series = await repeat(url, RUNS);
          rows.push({ engine, size, what, address, cache, series, load: load() });
          if (series.status !== 200)
            console.error(`${engine} ${size} ${what}: ${address} answered ${series.status}`);
        }
      } finally {
        await server.stop();
      }
    }
  } finally {
    await made.drop();
  }
}

for (const engine of engines) {
  if (engine === 'postgres' && !(await postgresAnswers())) {
    console.error('postgres: no server answers at FOLIO_TEST_POSTGRES_URL; skipped');
    continue;
  }
  for (const size of SIZES) await measure(engine, size);
}

// Each figure beside the smallest size's: what grows with the site shows as a ratio above 1.
const key = (row: Row) => `${row.engine} ${row.cache} ${row.what}`;
const base = new Map<string, Row>();
for (const row of rows) if (row.size === SIZES[0]) base.set(key(row), row);
const ratio = (value: number, of: number | undefined) => (of ? (value / of).toFixed(2) : '—');
const table = [
  '| engine | pages | what | cache | median ms | p95 ms | × smallest (median) | × smallest (p95) | bytes | load | note |',
  '|---|---:|---|---|---:|---:|---:|---:|---:|---:|---|',
  ...rows.map((row) => {
    const first = base.get(key(row));
    const s = row.series;
    return `| ${row.engine} | ${row.size} | ${row.what} | ${row.cache} | ${s.ms.toFixed(1)} | ${s.p95.toFixed(1)} | ${ratio(s.ms, first?.series.ms)} | ${ratio(s.p95, first?.series.p95)} | ${s.bytes} | ${row.load} | ${s.status} \`${row.address}\` |`;
  }),
].join('\n');
console.log(table);

const command = `bun bench/scale-publication.ts --sizes ${SIZES.join(',')} --engine ${values.engine} --runs ${RUNS} --topics ${TOPICS} --authors ${AUTHORS}`;
const machine = `${cpus().length} cores, load average ${loadavg()
  .map((n) => n.toFixed(2))
  .join(' / ')} at the end`;
const out = path.resolve(ROOT, values.out);
writeFileSync(
  out,
  [
    '# The publication at scale (bench/scale-publication.ts, issues 27 and 25)',
    '',
    `Measured ${new Date().toISOString().slice(0, 16)}Z on ${machine}, shared with other work: read the`,
    `ratios, not the milliseconds, and the load beside each figure. Command: \`${command}\`.`,
    'What a run of 2026-11-26 said, what was fixed and what still misses: scale-publication-reading.md.',
    '',
    `Sites of generated published posts, ${TOPICS} topics (topic 1 holds half the posts, the others`,
    `about 1/${2 * (TOPICS - 1)} each) and ${AUTHORS} authors (every tenth post has two), home page showing the latest`,
    'posts. "uncached": a server with FOLIO_RENDER_CACHE=off (every request a cold render);',
    `"cached": the cache on, after one first request. Median and p95 of ${RUNS} requests in a row.`,
    '',
    ...fills.map((line) => `- ${line}`),
    '',
    table,
    '',
  ].join('\n'),
);
// Aligned as the linter keeps every Markdown file here.
Bun.spawnSync(['bunx', 'biome', 'format', '--write', out], { cwd: ROOT, stdout: 'ignore' });
console.error(`scale-publication: written to ${values.out}`);
