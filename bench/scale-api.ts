// The content API at scale (issue 29, docs/decisions/0044): generated sites of each size
// (tests/generated-site.ts), and for each the time of a listing's first page and of a page deep
// in it (reached by following cursors), built on every request (the cache off), then with the
// cache on: a first build, a repeat, and a 304. Every read is keyset on an index, so a deep page
// should cost what the first does, whatever the size. Prints a Markdown table.
//   bun bench/scale-api.ts --sizes 1000,20000 --engine both [--runs 7] [--no-build]
import { parseArgs } from 'node:util';
import { openDatabase } from '../src/lib/data/db';
import {
  createThrowAwayDatabase,
  postgresAnswers,
  type ThrowAwayDatabase,
} from '../tests/databases';
import { insertPublishedPages } from '../tests/generated-site';
import { startFolio } from '../tests/harness';
import { load, repeat as repeatSeries, timed } from './scale-timing';

const { values } = parseArgs({
  options: {
    sizes: { type: 'string', default: '1000,20000' },
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

type Row = { engine: string; size: number; what: string; ms: number; p95: number; note: string };
const rows: Row[] = [];

/** The address of the listing's page after following `next` `hops` times (at most). */
async function deepPage(first: string, hops: number): Promise<{ url: string; hops: number }> {
  let url = first;
  let taken = 0;
  while (taken < hops) {
    const listing = (await (await fetch(url)).json()) as { next: string | null };
    if (!listing.next) break;
    url = listing.next;
    taken += 1;
  }
  return { url, hops: taken };
}

async function measure(engine: 'sqlite' | 'postgres', size: number) {
  const made: ThrowAwayDatabase = await createThrowAwayDatabase(engine);
  try {
    const db = await openDatabase(made.url);
    await insertPublishedPages(db, size, { topics: 10, authors: 5 });
    await db.query.unsafe(engine === 'postgres' ? 'VACUUM ANALYZE' : 'ANALYZE');
    await db.close();
    const add = (what: string, series: { ms: number; p95: number; status: number }, note = '') =>
      rows.push({
        engine,
        size,
        what,
        ms: series.ms,
        p95: series.p95,
        note: `${series.status} ${note}`.trim(),
      });

    const uncached = await startFolio({
      database: made,
      keepDatabase: true,
      env: { FOLIO_RENDER_CACHE: 'off' },
    });
    try {
      const base = `${uncached.url}/api/v1`;
      await timed(`${base}/posts`); // warm the process
      for (const [what, path] of [
        ['posts, limit 20', '/posts'],
        ['posts, limit 100', '/posts?limit=100'],
        ['posts of a topic', '/posts?topic=gen-topic-01'],
        ['posts, updated_since', '/posts?updated_since=2025-01-01'],
        ['pages', '/pages'],
        ['topics', '/topics'],
      ] as const) {
        add(`${what}, first page`, await repeatSeries(`${base}${path}`, RUNS));
        const deep = await deepPage(`${base}${path}`, Math.floor(size / 40));
        if (deep.hops > 0)
          add(
            `${what}, deep page`,
            await repeatSeries(deep.url, RUNS),
            `after ${deep.hops} cursors`,
          );
      }
    } finally {
      await uncached.stop();
    }

    const cached = await startFolio({ database: made, keepDatabase: true });
    try {
      const url = `${cached.url}/api/v1/posts?limit=100`;
      add('posts, limit 100: cached, first', { ...(await timed(url)), p95: Number.NaN });
      add('posts, limit 100: cached, again', await repeatSeries(url, RUNS));
      const etag = (await fetch(url)).headers.get('etag') ?? '';
      add('posts, limit 100: 304', await repeatSeries(url, RUNS, { 'if-none-match': etag }));
    } finally {
      await cached.stop();
    }
  } finally {
    await made.drop();
  }
}

for (const engine of engines) {
  if (engine === 'postgres' && !(await postgresAnswers())) {
    console.error('postgres: no server answers; skipped');
    continue;
  }
  for (const size of SIZES) await measure(engine, size);
}

console.log(`load average ${load()}, ${RUNS} runs each\n`);
console.log('| engine | posts | what | median ms | p95 ms | note |');
console.log('|---|---:|---|---:|---:|---|');
for (const row of rows)
  console.log(
    `| ${row.engine} | ${row.size} | ${row.what} | ${row.ms.toFixed(1)} | ${Number.isNaN(row.p95) ? '' : row.p95.toFixed(1)} | ${row.note} |`,
  );
