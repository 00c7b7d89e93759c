// `bun bench/scale-media.ts [--sizes 1000,10000,100000] [--engine sqlite|postgres|both]
// [--images 2000] [--runs 15] [--no-build]`: the media library of issue 25 on generated sites.
// For each size and engine: a server as the README starts it on a throw-away database (its
// demo seed, then `size` published pages from tests/generated-site.ts), `--images` images
// written straight into the tables (one small variant each: the library reads rows, never
// bytes), every page showing two of them — the newest image (a logo on every page: the first
// library page counts its uses) and one of the others in turn — kept in media_refs as a save
// would and turned into media_uses by migration 11's triggers. An editor then asks the
// library's first page, its 10th page (followed through "Earlier" links), a search matching 3
// images and one matching every image, `--runs` times each; the table shows the median and
// p95 time and the HTML bytes. For comparison, "before" is what the library did first on each
// request until migration 11: read every published and draft page's HTML and find the images
// in it (media-refs' rule), timed directly on the database. Traffic goes to 127.0.0.1 only;
// every server is stopped by PID and every database dropped. Kept out of `bun run check`.
import { parseArgs } from 'node:util';
import { type Database, openDatabase } from '../src/lib/data/db';
import { addEditor } from '../src/lib/editors/accounts';
import { mediaHashesInHtml } from '../src/lib/media/media-refs';
import { createThrowAwayDatabase, postgresAnswers } from '../tests/databases';
import { signInWithForm } from '../tests/forms';
import { insertPublishedPages } from '../tests/generated-site';
import { startFolio } from '../tests/harness';

const { values } = parseArgs({
  options: {
    sizes: { type: 'string', default: '1000,10000' },
    engine: { type: 'string', default: 'both' },
    images: { type: 'string', default: '2000' },
    runs: { type: 'string', default: '15' },
    'no-build': { type: 'boolean', default: false },
  },
});
const SIZES = values.sizes
  .split(',')
  .map(Number)
  .filter((n) => Number.isInteger(n) && n > 0 && n <= 200_000);
const IMAGES = Math.max(60, Math.min(100_000, Number(values.images)));
const RUNS = Math.max(3, Math.min(100, Number(values.runs)));
const engines = (values.engine === 'both' ? ['sqlite', 'postgres'] : [values.engine]) as (
  | 'sqlite'
  | 'postgres'
)[];
const EDITOR = { email: 'bench@example.com', password: 'the bench passphrase' };

if (!values['no-build']) {
  const build = Bun.spawnSync(['bun', 'run', 'build'], { stdout: 'ignore', stderr: 'inherit' });
  if (build.exitCode !== 0) process.exit(1);
}
if (engines.includes('postgres') && !(await postgresAnswers())) {
  console.error('PostgreSQL does not answer at FOLIO_TEST_POSTGRES_URL');
  process.exit(1);
}

/** The bench's image `k` (0 is the newest): its hash, 32 hex digits. */
const hashSql = (engine: string, k: string) =>
  engine === 'sqlite' ? `printf('%032x', ${k})` : `lpad(to_hex(${k}), 32, '0')`;

/** `IMAGES` images, each shown by the pages as described above. */
async function addImages(db: Database, firstPage: number, lastPage: number) {
  const sqlite = db.engine === 'sqlite';
  const counting = `WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < ${IMAGES - 1})`;
  const time = sqlite
    ? `strftime('%Y-%m-%dT%H:%M:%S.000Z', 1767225600 - n.i, 'unixepoch')`
    : `to_char(to_timestamp(1767225600 - n.i) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
  const tiny = sqlite ? "X'00'" : "'\\x00'::bytea";
  await db.transaction(async (q) => {
    await q.unsafe(`${counting}
      INSERT INTO media (hash, filename, alt, format, width, height, bytes, created_at, created_by)
      SELECT ${hashSql(db.engine, 'n.i')}, 'IMG_' || (1000 + n.i) || '.jpg',
        CASE WHEN n.i % 700 = 5 THEN 'A quokka in the sun' ELSE 'Photo of the harbour, number ' || n.i END,
        'jpeg', 1600, 1200, 250000, ${time}, 'bench@example.com'
      FROM n`);
    for (const name of ['original.jpeg', '480.webp'])
      await q.unsafe(`
        INSERT INTO media_variants (media_id, name, content_type, width, height, data)
        SELECT id, '${name}', '${name.endsWith('webp') ? 'image/webp' : 'image/jpeg'}', 480, 360, ${tiny}
        FROM media WHERE created_by = 'bench@example.com'`);
    // Each page shows the newest image and one other; kept beside its HTML as a save keeps it.
    const other = hashSql(db.engine, `1 + (page_id % ${IMAGES - 1})`);
    const logo = hashSql(db.engine, '0');
    await q.unsafe(`
      UPDATE revisions SET
        media_refs = '["' || ${logo} || '","' || ${other} || '"]',
        body_html = body_html || '<p><img src="/media/' || ${logo} || '/original.jpeg" alt=""><img src="/media/' || ${other} || '/original.jpeg" alt=""></p>'
      WHERE page_id BETWEEN ${firstPage} AND ${lastPage}`);
    // Migration 11's trigger turns a page's published revision into its uses.
    await q.unsafe(`UPDATE pages SET published_revision_id = published_revision_id
                    WHERE id BETWEEN ${firstPage} AND ${lastPage}`);
  });
  if (!sqlite) await db.query.unsafe('ANALYZE');
}

/** What the library read on every request before migration 11: every page's HTML, parsed. */
async function usageByScanning(db: Database): Promise<number> {
  const started = performance.now();
  const rows = await db.query<{ slug: string; body_html: string }>`
    SELECT p.slug, r.body_html FROM pages p JOIN revisions r ON r.id = p.published_revision_id
    UNION ALL
    SELECT p.slug, d.body_html FROM pages p JOIN drafts d ON d.page_id = p.id`;
  const usage = new Map<string, number>();
  for (const row of rows)
    for (const hash of mediaHashesInHtml(row.body_html))
      usage.set(hash, (usage.get(hash) ?? 0) + 1);
  return performance.now() - started;
}

const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;

/** Each figure as it is measured too (stderr), so a long run that is stopped keeps its figures. */
function record(row: Row) {
  table.push(row);
  console.error(
    `${row.engine} ${row.size} ${row.screen}: median ${row.p50.toFixed(1)} ms, p95 ${row.p95.toFixed(1)} ms${Number.isNaN(row.bytes) ? '' : `, ${(row.bytes / 1024).toFixed(1)} KB`}`,
  );
}

type Row = {
  engine: string;
  size: number;
  screen: string;
  p50: number;
  p95: number;
  bytes: number;
};
const table: Row[] = [];

for (const engine of engines)
  for (const size of SIZES) {
    const database = await createThrowAwayDatabase(engine);
    const folio = await startFolio({ database });
    try {
      const filling = performance.now();
      const db = await folio.database();
      const { firstId, lastId } = await insertPublishedPages(db, size);
      await addImages(db, firstId, lastId);
      console.error(
        `${engine}: ${size} pages and ${IMAGES} images written in ${((performance.now() - filling) / 1000).toFixed(1)} s`,
      );
      await addEditor(db, EDITOR.email, EDITOR.password);
      const { cookie } = await signInWithForm(folio.url, EDITOR.email, EDITOR.password);
      const get = async (path: string) => {
        const started = performance.now();
        const response = await fetch(`${folio.url}${path}`, { headers: { cookie } });
        const text = await response.text();
        if (response.status !== 200) throw new Error(`${path}: ${response.status}`);
        return { ms: performance.now() - started, text };
      };
      const earlier = (html: string) =>
        html.match(/<a href="([^"]+)" rel="next">Earlier</)?.[1]?.replaceAll('&amp;', '&');
      let tenth = '/preview?media';
      for (let page = 1; page < 10; page += 1) tenth = earlier((await get(tenth)).text) ?? tenth;
      const screens: [string, string][] = [
        ['library, first page', '/preview?media'],
        ['library, 10th page', tenth],
        ['search matching 3 images', '/preview?media&q=quokka'],
        [`search matching all ${IMAGES}`, '/preview?media&q=harbour'],
      ];
      for (const [screen, path] of screens) {
        const check = await get(path);
        if (!check.text.includes('media-item')) throw new Error(`${screen}: no image shown`);
        const times: number[] = [];
        let bytes = 0;
        for (let run = 0; run < RUNS; run += 1) {
          const { ms, text } = await get(path);
          times.push(ms);
          bytes = Buffer.byteLength(text);
        }
        times.sort((a, b) => a - b);
        record({
          engine,
          size,
          screen,
          p50: quantile(times, 0.5),
          p95: quantile(times, 0.95),
          bytes,
        });
      }
      // The old way, on its own database connection (the server's stays idle meanwhile).
      const own = await openDatabase(folio.databaseUrl, { migrate: false, poolSize: 2 });
      try {
        const times: number[] = [];
        for (let run = 0; run < Math.min(RUNS, 5); run += 1) times.push(await usageByScanning(own));
        times.sort((a, b) => a - b);
        record({
          engine,
          size,
          screen: 'usage by reading every page (query + parse only)',
          p50: quantile(times, 0.5),
          p95: quantile(times, 0.95),
          bytes: Number.NaN,
        });
      } finally {
        await own.close();
      }
    } finally {
      await folio.stop();
    }
  }

const before = (row: Row) => Number.isNaN(row.bytes);
console.log(`\n${RUNS} runs each (median / p95, HTML bytes); ${IMAGES} images\n`);
console.log('| engine | screen | pages | median | p95 | HTML |');
console.log('|---|---|---:|---:|---:|---:|');
for (const row of table.filter((row) => !before(row)))
  console.log(
    `| ${row.engine} | ${row.screen} | ${row.size} | ${row.p50.toFixed(1)} ms | ${row.p95.toFixed(1)} ms | ${(row.bytes / 1024).toFixed(1)} KB |`,
  );
console.log('\nBefore migration 11, on every library request (5 runs)\n');
console.log('| engine | what | pages | median | p95 |');
console.log('|---|---|---:|---:|---:|');
for (const row of table.filter(before))
  console.log(
    `| ${row.engine} | ${row.screen} | ${row.size} | ${row.p50.toFixed(1)} ms | ${row.p95.toFixed(1)} ms |`,
  );
