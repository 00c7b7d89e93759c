// `bun bench/scale-dashboard.ts [--no-build] [--engine sqlite|postgres] [--sizes 1000,10000]
// [--runs 15]`: the editors' screens of issue 25 on generated sites. For each size, a server
// as the README starts it on a throw-away database (its demo seed, then `size` generated pages
// written straight into the tables in one transaction: the triggers of migration 10 index them
// as any write would; 1–2 KB of Markdown each, a quarter with a code block, two-thirds
// published, one in ten of those with a newer draft, exactly two pages with the word
// "quokka"). An editor then asks each screen `--runs` times; the table shows the median and p95
// time and the HTML bytes. Everything goes to 127.0.0.1; each server is stopped by PID and its
// database dropped before the next size. Kept out of `bun run check` (the start of
// `bun run bench --scale`).
import { parseArgs } from 'node:util';
import { addEditor } from '../src/lib/editors/accounts';
import { createThrowAwayDatabase } from '../tests/databases';
import { signInWithForm } from '../tests/forms';
import { startFolio } from '../tests/harness';

const { values } = parseArgs({
  options: {
    'no-build': { type: 'boolean', default: false },
    engine: { type: 'string', default: 'sqlite' },
    sizes: { type: 'string', default: '1000,10000' },
    runs: { type: 'string', default: '15' },
  },
});
const ENGINE = values.engine === 'postgres' ? 'postgres' : 'sqlite';
const SIZES = (values.sizes ?? '')
  .split(',')
  .map(Number)
  .filter((n) => Number.isInteger(n) && n > 0 && n <= 200_000);
const RUNS = Math.max(3, Math.min(100, Number(values.runs)));
const EDITOR = { email: 'bench@example.com', password: 'the bench passphrase' };
/** Generated pages' ids start here, past any the seed took from the store's counter. */
const FIRST_ID = 1_000_000;

if (!values['no-build']) {
  const build = Bun.spawnSync(['bun', 'run', 'build'], { stdout: 'ignore', stderr: 'inherit' });
  if (build.exitCode !== 0) process.exit(1);
}

const WORDS =
  'the a page site editor folio markdown river stone harbour light winter garden letter index cache query table render publish draft summary people city north south paper glass window'.split(
    ' ',
  );

function body(i: number): string {
  let seed = i * 2654435761;
  const next = () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed;
  };
  const paragraph = () =>
    Array.from({ length: 40 + (next() % 30) }, () => WORDS[next() % WORDS.length]).join(' ');
  const parts = [`# Page ${i}`, paragraph(), paragraph(), paragraph()];
  if (i % 4 === 0) parts.push('```ts\nconst answer = 42;\nconsole.log(answer);\n```');
  return parts.join('\n\n');
}

async function fill(folio: Awaited<ReturnType<typeof startFolio>>, size: number) {
  const db = await folio.database();
  const base = Date.parse('2025-01-01T00:00:00Z');
  await db.transaction(async (q) => {
    for (let i = 0; i < size; i += 1) {
      const id = FIRST_ID + i;
      const at = new Date(base + i * 60_000).toISOString();
      const slug = `generated-${i}`;
      const title = `Generated page ${i} ${WORDS[i % WORDS.length]}`;
      // Exactly two pages say "quokka": the 18th and the last.
      const text = `${body(i)}${i === 17 || i === size - 1 ? '\n\nA quokka was here.' : ''}`;
      await q`INSERT INTO pages (id, slug, created_at, updated_at, updated_by, last_change)
              VALUES (${id}, ${slug}, ${at}, ${at}, ${EDITOR.email}, 'saved')`;
      const html = `<p>${text.slice(0, 200)}</p>`;
      if (i % 3 !== 0) {
        const [revision] = await q<{ id: number }>`
          INSERT INTO revisions (page_id, title, summary, body, body_html, published_at, published_by)
          VALUES (${id}, ${title}, '', ${text}, ${html}, ${at}, ${EDITOR.email}) RETURNING id`;
        await q`UPDATE pages SET published_revision_id = ${Number(revision?.id)},
                last_change = 'published' WHERE id = ${id}`;
      }
      if (i % 3 === 0 || i % 10 === 1)
        await q`INSERT INTO drafts (page_id, title, summary, body, body_html, updated_at, updated_by)
                VALUES (${id}, ${title}, '', ${text}, ${html}, ${at}, ${EDITOR.email})`;
    }
  });
  if (db.engine === 'postgres') await db.query.unsafe('ANALYZE');
}

const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;

type Row = { size: number; screen: string; p50: number; p95: number; bytes: number };
const table: Row[] = [];

for (const size of SIZES) {
  const database = await createThrowAwayDatabase(ENGINE);
  const folio = await startFolio({ database });
  try {
    const filling = performance.now();
    await fill(folio, size);
    console.error(
      `${ENGINE}: ${size} pages written in ${((performance.now() - filling) / 1000).toFixed(1)} s`,
    );
    await addEditor(await folio.database(), EDITOR.email, EDITOR.password);
    // The fill is one long transaction beside the running server: at 100 000 pages on
    // PostgreSQL (13 minutes) the server's own reads waited on it, and its first answers after
    // the commit were not yet the sign-in page. Measured from when it answers /healthz again.
    for (let waited = 0; (await fetch(`${folio.url}/healthz`)).status !== 200; waited += 1) {
      if (waited > 120) throw new Error('the server did not answer /healthz after the fill');
      await Bun.sleep(500);
    }
    const { cookie } = await signInWithForm(folio.url, EDITOR.email, EDITOR.password);
    const get = async (path: string) => {
      const started = performance.now();
      const response = await fetch(`${folio.url}${path}`, { headers: { cookie } });
      const text = await response.text();
      if (response.status !== 200) throw new Error(`${path}: ${response.status}`);
      return { ms: performance.now() - started, text };
    };
    const first = await get('/preview');
    const older = first.text.match(/<a href="([^"]+)" rel="next">/)?.[1]?.replaceAll('&amp;', '&');
    const screens: [string, string][] = [
      ['dashboard', '/preview'],
      ['dashboard, 2nd page', older ?? '/preview'],
      ['dashboard, drafts by title', '/preview?state=draft-only&sort=title'],
      ['search matching 2 pages', '/preview?q=quokka'],
      ['search matching every page', '/preview?q=page'],
      ['settings', '/preview?settings'],
      ['settings, picker search', '/preview?settings=&find=generated'],
    ];
    for (const [screen, path] of screens) {
      await get(path);
      const times: number[] = [];
      let bytes = 0;
      for (let run = 0; run < RUNS; run += 1) {
        const { ms, text } = await get(path);
        times.push(ms);
        bytes = Buffer.byteLength(text);
      }
      times.sort((a, b) => a - b);
      table.push({ size, screen, p50: quantile(times, 0.5), p95: quantile(times, 0.95), bytes });
    }
  } finally {
    await folio.stop();
  }
}

console.log(`\n${ENGINE}, ${RUNS} runs each (median / p95, HTML bytes)\n`);
console.log('| screen | pages | median | p95 | HTML |');
console.log('|---|---:|---:|---:|---:|');
for (const row of table)
  console.log(
    `| ${row.screen} | ${row.size} | ${row.p50.toFixed(1)} ms | ${row.p95.toFixed(1)} ms | ${(row.bytes / 1024).toFixed(1)} KB |`,
  );
