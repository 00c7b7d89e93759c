// `bun bench/scale-search.ts [--sizes 1000,100000] [--engine sqlite|postgres|both] [--runs 5]`:
// what a visitor's search (`/?q=`, issue 27) costs in the store as the site grows — a word every
// page holds (the worst: every page matches and is ranked), a rare one, a prefix, a phrase, 20
// words, the last page of results — on sites of generated published pages
// (tests/generated-site.ts). Prints the median milliseconds of searchPublished (ranked page of
// ten, snippets, the bounded count) per query, size and engine, and on PostgreSQL whether the
// plan uses the GIN index. On SQLite also the site-wide index's own statements for the same
// query (what a search cost before migration 28's index of the newest pages), timed in turn
// with searchPublished, and whether their first page is the same. Every database it makes is
// dropped.
import { parseArgs } from 'node:util';
import { createContentStore } from '../src/lib/content/content';
import { SQLITE_SEARCH_QUERIES } from '../src/lib/content/public-search';
import { engineQuery, parseSearch } from '../src/lib/content/public-search-query';
import { openDatabase } from '../src/lib/data/db';
import { createThrowAwayDatabase } from '../tests/databases';
import { insertPublishedPages } from '../tests/generated-site';

const { values } = parseArgs({
  options: {
    sizes: { type: 'string', default: '1000,100000' },
    engine: { type: 'string', default: 'both' },
    runs: { type: 'string', default: '5' },
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

const QUERIES: [string, string, number][] = [
  ['every page (folio)', 'folio', 1],
  ['every page, page 10', 'folio', 10],
  ['every page, exact ("folio")', '"folio"', 1],
  ['rare (page 000042)', '000042', 1],
  ['prefix (restor)', 'restor', 1],
  ['phrase ("older one")', '"older one"', 1],
  ['20 words', Array.from({ length: 20 }, () => 'page').join(' '), 1],
  ['no match (zyzzyva)', 'zyzzyva', 1],
];

const rows: string[] = [];
const median = (times: number[]) =>
  [...times].sort((a, b) => a - b)[Math.floor(times.length / 2)] ?? Number.NaN;
for (const engine of engines) {
  for (const size of SIZES) {
    const made = await createThrowAwayDatabase(engine);
    const db = await openDatabase(made.url, { poolSize: 3 });
    try {
      const filled = performance.now();
      await insertPublishedPages(db, size);
      const fillMs = performance.now() - filled;
      if (engine === 'postgres') await db.query.unsafe('ANALYZE');
      const store = createContentStore(db);
      for (const [name, q, page] of QUERIES) {
        const search = parseSearch(q);
        const times: number[] = [];
        const siteWide: number[] = [];
        let count = '';
        let same = '';
        for (let i = 0; i < RUNS; i++) {
          const started = performance.now();
          const found = await store.searchPublished(search, page);
          times.push(performance.now() - started);
          count = `${found.count.n}${found.count.more ? '+' : ''}`;
          if (engine !== 'sqlite') continue;
          const match = engineQuery(engine, search.terms);
          const before = performance.now();
          const [old] = await Promise.all([
            db.query<{ slug: string }>(
              SQLITE_SEARCH_QUERIES.all.results,
              match,
              match,
              11,
              (page - 1) * 10,
            ),
            db.query(SQLITE_SEARCH_QUERIES.all.count, match, 2001),
          ]);
          siteWide.push(performance.now() - before);
          same = String(
            old
              .slice(0, 10)
              .map((row) => row.slug)
              .join() === found.results.map((result) => result.slug).join(),
          );
        }
        rows.push(
          `| ${engine} | ${size.toLocaleString('en')} | ${name} | ${count} | ${median(times).toFixed(1)} | ${siteWide.length ? median(siteWide).toFixed(1) : ''} | ${same} |`,
        );
      }
      if (engine === 'postgres') {
        const plan = await db.query<{ 'QUERY PLAN': string }>`
          EXPLAIN SELECT page_id FROM public_search
          WHERE document @@ to_tsquery('folio_public_search', '''000042''') LIMIT 11`;
        const usesGin = plan.some((line) => line['QUERY PLAN'].includes('public_search_document'));
        rows.push(
          `| ${engine} | ${size.toLocaleString('en')} | plan uses GIN | ${usesGin} | | | |`,
        );
      }
      rows.push(
        `| ${engine} | ${size.toLocaleString('en')} | (generating the site) | | ${fillMs.toFixed(0)} | | |`,
      );
    } finally {
      await db.close();
      await made.drop();
    }
  }
}
console.log(
  '| engine | pages | search | matches | median ms | site-wide index ms (SQLite) | same first page |',
);
console.log('|---|---|---|---|---|---|---|');
for (const row of rows) console.log(row);
