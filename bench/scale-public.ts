// `bun bench/scale-public.ts [--sizes 1000,10000] [--engine sqlite|postgres|both] [--runs 7]
// [--no-build]`: what a visitor's requests cost as the site grows (issue 25) — an uncached
// public page, the feed and the sitemap — on sites of generated published pages
// (tests/generated-site.ts: what `folio import` leaves, no navigation chosen). For each size and
// engine: one server with FOLIO_RENDER_CACHE=off (every request is a cold render or build), one
// with the cache on (the first request, then cached, then a 304). Prints a table with each
// figure's ratio to the smallest size's. Traffic goes to 127.0.0.1 only; every server it starts
// is stopped by PID and every database it makes is dropped.
import { parseArgs } from 'node:util';
import { openDatabase } from '../src/lib/data/db';
import { SITEMAP_LIMITS } from '../src/lib/http/sitemap';
import {
  createThrowAwayDatabase,
  postgresAnswers,
  type ThrowAwayDatabase,
} from '../tests/databases';
import { generatedSlug, insertPublishedPages } from '../tests/generated-site';
import { startFolio } from '../tests/harness';
import { xmlProblem } from '../tests/xml-check';
import { repeat as repeatSeries, timed } from './scale-timing';

const { values } = parseArgs({
  options: {
    sizes: { type: 'string', default: '1000,10000' },
    engine: { type: 'string', default: 'both' },
    runs: { type: 'string', default: '7' },
    'no-build': { type: 'boolean', default: false },
  },
});
const SIZES = values.sizes
  .split(',')
  .map(Number)
  .filter((n) => Number.isInteger(n) && n > 0 && n <= 200_000);
const RUNS = Math.max(1, Math.min(50, Number(values.runs)));
const engines = (values.engine === 'both' ? ['sqlite', 'postgres'] : [values.engine]) as (
  | 'sqlite'
  | 'postgres'
)[];

if (!values['no-build']) {
  const build = Bun.spawnSync(['bun', 'run', 'build'], { stdout: 'ignore', stderr: 'inherit' });
  if (build.exitCode !== 0) process.exit(1);
}

const repeat = (url: string, headers: Record<string, string> = {}) =>
  repeatSeries(url, RUNS, headers);

/** A sitemap file against the protocol's limits: its URL count, or what is wrong with it. */
function checkSitemapFile(xml: string): string {
  const urls = (xml.match(/<url>/g) ?? []).length;
  const bytes = Buffer.byteLength(xml);
  const problem =
    xmlProblem(xml) ??
    (urls > SITEMAP_LIMITS.urls ? `${urls} URLs, over ${SITEMAP_LIMITS.urls}` : null) ??
    (bytes > SITEMAP_LIMITS.bytes ? `${bytes} bytes, over ${SITEMAP_LIMITS.bytes}` : null);
  return problem ? `INVALID: ${problem}` : `${urls} URLs, valid`;
}

type Row = { engine: string; size: number; what: string; ms: number; bytes: number; note: string };
const rows: Row[] = [];

async function measure(engine: 'sqlite' | 'postgres', size: number) {
  const made: ThrowAwayDatabase = await createThrowAwayDatabase(engine);
  try {
    const db = await openDatabase(made.url);
    const started = performance.now();
    await insertPublishedPages(db, size);
    if (engine === 'postgres') await db.query.unsafe('VACUUM ANALYZE');
    else await db.query.unsafe('ANALYZE');
    await db.close();
    console.error(`${engine} ${size}: ${Math.round(performance.now() - started)} ms to generate`);
    const page = `/${generatedSlug('gen', Math.ceil(size / 2))}`;
    const add = (what: string, sample: { ms: number; bytes: number; status: number }, note = '') =>
      rows.push({
        engine,
        size,
        what,
        ms: sample.ms,
        bytes: sample.bytes,
        note: `${sample.status} ${note}`.trim(),
      });

    const uncached = await startFolio({
      database: made,
      keepDatabase: true,
      env: { FOLIO_RENDER_CACHE: 'off' },
    });
    try {
      await timed(`${uncached.url}${page}`); // warm the process (JIT, connections)
      add('uncached page', await repeat(`${uncached.url}${page}`));
      add('feed, uncached', await repeat(`${uncached.url}/feed.xml`));
      const sitemap = await repeat(`${uncached.url}/sitemap.xml`);
      const text = await (await fetch(`${uncached.url}/sitemap.xml`)).text();
      const files = (text.match(/<sitemap>/g) ?? []).length;
      add('sitemap, uncached', sitemap, files ? `index of ${files}` : checkSitemapFile(text));
      if (files) {
        add('sitemap ?page=1, uncached', await repeat(`${uncached.url}/sitemap.xml?page=1`));
        // Every file the index names, checked against the protocol's limits.
        for (let n = 1; n <= files; n++) {
          const part = await (await fetch(`${uncached.url}/sitemap.xml?page=${n}`)).text();
          console.error(`${engine} ${size}: sitemap file ${n}: ${checkSitemapFile(part)}`);
        }
      }
    } finally {
      await uncached.stop();
    }

    const cached = await startFolio({ database: made, keepDatabase: true });
    try {
      for (const [what, path] of [
        ['feed', '/feed.xml'],
        ['sitemap', '/sitemap.xml'],
      ] as const) {
        const first = await timed(`${cached.url}${path}`);
        add(`${what}, first`, first);
        add(`${what}, again`, await repeat(`${cached.url}${path}`));
        const etag = (await fetch(`${cached.url}${path}`)).headers.get('etag') ?? '';
        add(`${what}, 304`, await repeat(`${cached.url}${path}`, { 'if-none-match': etag }));
      }
    } finally {
      await cached.stop();
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

const base = new Map<string, number>();
for (const row of rows) if (row.size === SIZES[0]) base.set(`${row.engine} ${row.what}`, row.ms);
const lines = [
  '| engine | pages | what | median ms | bytes | × smallest | note |',
  '|---|---:|---|---:|---:|---:|---|',
  ...rows.map((row) => {
    const ratio = row.ms / (base.get(`${row.engine} ${row.what}`) ?? Number.NaN);
    return `| ${row.engine} | ${row.size} | ${row.what} | ${row.ms.toFixed(1)} | ${row.bytes} | ${ratio.toFixed(2)} | ${row.note} |`;
  }),
];
console.log(lines.join('\n'));
