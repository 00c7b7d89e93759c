// `bun bench/scale-stream.ts [--pages 10000] [--engine sqlite|postgres|both] [--root DIR]`:
// peak memory of the streaming commands at scale (issue 25). It writes that many Markdown files
// (1–2 KB each, a quarter with a code block, one in ten with a newer draft beside it) into a
// throw-away folder, then runs the real CLI (`bun src/cli/folio.ts`, in --root: another
// checkout measures "before") under `/usr/bin/time -v` for each of
//   import <folder>, export <folder>, db copy <db> <new sqlite file>, db backup <file> (SQLite)
// and prints a table of wall time and peak RSS. Everything it made is dropped. Kept out of
// `bun run check`.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createThrowAwayDatabase, type ThrowAwayDatabase } from '../tests/databases';

const { values: options } = parseArgs({
  options: {
    pages: { type: 'string', default: '10000' },
    engine: { type: 'string', default: 'sqlite' },
    root: { type: 'string', default: path.resolve(import.meta.dir, '..') },
  },
});
const pages = Number(options.pages);
const root = path.resolve(options.root ?? '.');
const engines: ('sqlite' | 'postgres')[] =
  options.engine === 'both' ? ['sqlite', 'postgres'] : [options.engine as 'sqlite' | 'postgres'];

const WORDS =
  'lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor incididunt ut labore et dolore magna aliqua'.split(
    ' ',
  );
function paragraph(seed: number, words: number): string {
  const out: string[] = [];
  for (let i = 0; i < words; i++) out.push(WORDS[(seed * 7 + i * 13) % WORDS.length] ?? 'x');
  return `${out.join(' ')}.`;
}
function page(n: number, draft: boolean): string {
  const parts = [`# Page ${n}${draft ? ' (draft)' : ''}`, paragraph(n, 80), paragraph(n + 1, 90)];
  if (n % 4 === 0) parts.push('```ts\nconst answer = 42;\nconsole.log(answer);\n```');
  parts.push(paragraph(n + 2, 60 + (n % 60)));
  return `---\ntitle: "Page ${n}"\nsummary: "Summary of page ${n}"\n---\n${parts.join('\n\n')}\n`;
}

type Measure = { what: string; seconds: number; peakMb: number; ok: boolean; note: string };

function run(what: string, args: string[], databaseUrl: string): Measure {
  const report = path.join(tmpdir(), `folio-time-${process.pid}-${Math.random()}`);
  const result = spawnSync(
    '/usr/bin/time',
    ['-v', '-o', report, 'bun', 'src/cli/folio.ts', ...args],
    {
      cwd: root,
      env: { ...process.env, DATABASE_URL: databaseUrl, NODE_ENV: 'production' },
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    },
  );
  const text = readFileSync(report, 'utf8');
  rmSync(report, { force: true });
  const rssKb = Number(/Maximum resident set size \(kbytes\): (\d+)/.exec(text)?.[1] ?? 0);
  const wall = /Elapsed \(wall clock\) time.*: (?:(\d+):)?(\d+):([\d.]+)/.exec(text);
  const seconds = wall
    ? Number(wall[1] ?? 0) * 3600 + Number(wall[2]) * 60 + Number(wall[3])
    : Number.NaN;
  const ok = result.status === 0;
  const note = ok
    ? (result.stdout.split('\n')[0] ?? '')
    : (result.stderr.trim().split('\n')[0] ?? '');
  return { what, seconds, peakMb: rssKb / 1024, ok, note: note.slice(0, 60) };
}

const work = mkdtempSync(path.join(tmpdir(), 'folio-scale-stream-'));
const made: ThrowAwayDatabase[] = [];
try {
  const input = path.join(work, 'in');
  mkdirSync(input);
  for (let n = 1; n <= pages; n++) {
    writeFileSync(path.join(input, `page-${n}.md`), page(n, false));
    if (n % 10 === 0) writeFileSync(path.join(input, `page-${n}.draft.md`), page(n, true));
  }
  const rows: (Measure & { engine: string })[] = [];
  for (const engine of engines) {
    const site = await createThrowAwayDatabase(engine);
    made.push(site);
    const copy = path.join(work, `${engine}-copy.db`);
    writeFileSync(copy, '');
    const migrated = run('db migrate', ['db', 'migrate'], site.url);
    if (!migrated.ok) throw new Error(`db migrate failed: ${migrated.note}`);
    const steps: [string, string[]][] = [
      ['import', ['import', input]],
      ['export', ['export', path.join(work, `${engine}-out`)]],
      ['db copy', ['db', 'copy', site.url, `sqlite:${copy}`]],
    ];
    if (engine === 'sqlite') steps.push(['db backup', ['db', 'backup', path.join(work, 'b.db')]]);
    for (const [what, args] of steps) {
      const measure = run(what, args, site.url);
      rows.push({ ...measure, engine });
      console.error(`${engine} ${what}: ${measure.seconds}s ${measure.peakMb.toFixed(0)} MB`);
    }
  }
  console.log(`\nstreaming commands at ${pages} pages (${root})\n`);
  console.log('| engine | command | wall | peak RSS | result |');
  console.log('|---|---|---:|---:|---|');
  for (const row of rows)
    console.log(
      `| ${row.engine} | ${row.what} | ${row.seconds.toFixed(1)} s | ${row.peakMb.toFixed(0)} MB | ${row.ok ? 'ok' : 'FAILED'}: ${row.note} |`,
    );
} finally {
  for (const site of made) await site.drop();
  rmSync(work, { recursive: true, force: true });
}
