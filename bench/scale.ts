// `bun run bench --scale [--sizes 1000,10000,100000] [--engine sqlite|postgres|both]
//  [--only public,publication,dashboard,media,cache,stream] [--out bench/scale-results.md] [--no-build]`:
// issue 25's table in one command. It builds once, then runs each scale bench (each kept out of
// `bun run check`, each usable alone) on sites of every size and engine, reads the Markdown
// table each one prints, and writes one table of every figure beside its ratio to the smallest
// size's: what grows with the site shows as a ratio well above 1. Each bench makes and drops its
// own throw-away databases and stops its own servers; a bench that fails is named, and the
// others still run. 100 000 pages on both engines takes the better part of an hour here.
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  args: Bun.argv.slice(2).filter((arg) => arg !== '--scale'),
  options: {
    sizes: { type: 'string', default: '1000,10000,100000' },
    engine: { type: 'string', default: 'both' },
    only: { type: 'string', default: 'public,publication,dashboard,media,cache,stream' },
    out: { type: 'string', default: 'bench/scale-results.md' },
    'no-build': { type: 'boolean', default: false },
  },
});

const ROOT = path.resolve(import.meta.dir, '..');
const sizes = values.sizes
  .split(',')
  .map(Number)
  .filter((n) => Number.isInteger(n) && n > 0 && n <= 200_000)
  .sort((a, b) => a - b);
const engines = (values.engine === 'both' ? ['sqlite', 'postgres'] : [values.engine]).filter(
  (engine): engine is Engine => engine === 'sqlite' || engine === 'postgres',
);
const only = new Set(values.only.split(','));
if (sizes.length === 0 || engines.length === 0) {
  console.error(
    'bench --scale: give --sizes as numbers (1000,10000) and --engine sqlite|postgres|both',
  );
  process.exit(2);
}

type Engine = 'sqlite' | 'postgres';
/** One run of a bench: the command, and the engine and size its rows are for when it does not say. */
type Run = { bench: string; command: string[]; engine: Engine; size?: number };

const list = sizes.join(',');
const runs: Run[] = engines.flatMap((engine): Run[] => [
  ...(only.has('public')
    ? [
        {
          bench: 'public',
          engine,
          command: ['bench/scale-public.ts', '--sizes', list, '--engine', engine],
        },
      ]
    : []),
  // Issue 27's publication (listings, topics, authors, feeds, search): `--only publication`.
  ...(only.has('publication')
    ? [
        {
          bench: 'publication',
          engine,
          command: ['bench/scale-publication.ts', '--sizes', list, '--engine', engine],
        },
      ]
    : []),
  ...(only.has('dashboard')
    ? [
        {
          bench: 'dashboard',
          engine,
          command: ['bench/scale-dashboard.ts', '--sizes', list, '--engine', engine],
        },
      ]
    : []),
  ...(only.has('media')
    ? [
        {
          bench: 'media',
          engine,
          command: ['bench/scale-media.ts', '--sizes', list, '--engine', engine],
        },
      ]
    : []),
  ...(only.has('cache')
    ? [
        {
          bench: 'cache',
          engine,
          command: ['bench/scale-cache.ts', '--sizes', list, '--engine', engine],
        },
      ]
    : []),
  ...(only.has('stream')
    ? sizes.map((size) => ({
        bench: 'stream',
        engine,
        size,
        command: ['bench/scale-stream.ts', '--pages', String(size), '--engine', engine],
      }))
    : []),
]);

if (!values['no-build']) {
  const build = Bun.spawnSync(['bun', 'run', 'build'], {
    cwd: ROOT,
    stdout: 'ignore',
    stderr: 'inherit',
  });
  if (build.exitCode !== 0) process.exit(1);
}

/** A figure as a bench prints it: `12.5 ms`, `1.2 s`, `40 KB`, `250 MB`, `200/200`, `4096`. */
function figure(cell: string): { value: number; unit: string } | null {
  const fraction = /^(\d+)\/(\d+)$/.exec(cell);
  if (fraction) return { value: Number(fraction[1]), unit: `of ${fraction[2]}` };
  const match = /^(-?\d+(?:\.\d+)?)\s*(ms|s|KB|MB|B)?$/.exec(cell);
  return match ? { value: Number(match[1]), unit: match[2] ?? '' } : null;
}

/** Columns that say which row it is, or comment on it, rather than measure. */
const NOT_MEASURES = new Set([
  'engine',
  'pages',
  'note',
  'result',
  'site build',
  '× smallest',
  '× smallest (median)',
  '× smallest (p95)',
  'load',
]);

type Row = {
  bench: string;
  engine: string;
  what: string;
  measure: string;
  size: number;
  value: number;
  unit: string;
};

/** Every Markdown table in a bench's output, read as rows of figures. */
function rowsOf(run: Run, output: string): Row[] {
  const rows: Row[] = [];
  let header: string[] | null = null;
  for (const line of output.split('\n')) {
    if (!line.startsWith('|')) {
      header = null;
      continue;
    }
    const cells = line
      .split('|')
      .slice(1, -1)
      .map((cell) => cell.trim());
    if (!header) {
      header = cells;
      continue;
    }
    if (cells.every((cell) => /^:?-+:?$/.test(cell))) continue;
    const at = (name: string) => header?.indexOf(name) ?? -1;
    const engine = at('engine') >= 0 ? (cells[at('engine')] ?? run.engine) : run.engine;
    const size = at('pages') >= 0 ? Number(cells[at('pages')]) : (run.size ?? Number.NaN);
    const labels: string[] = [];
    const measures: { measure: string; value: number; unit: string }[] = [];
    header.forEach((column, index) => {
      const cell = cells[index] ?? '';
      // A repeated header (scale-cache's two `p99`s) is named by the column before it.
      const name =
        header && header.filter((other) => other === column).length > 1
          ? `${(header[index - 1] ?? '').replace(/ p50$/, '')} ${column}`
          : column;
      if (NOT_MEASURES.has(name)) return;
      const read = figure(cell);
      if (read) measures.push({ measure: name, ...read });
      else labels.push(cell);
    });
    for (const measure of measures)
      rows.push({ bench: run.bench, engine, what: labels.join(', '), size, ...measure });
  }
  return rows;
}

const rows: Row[] = [];
const failed: string[] = [];
/** What each run took, and the machine's load when it ended: read the figures beside it. */
const ran: string[] = [];
const started = new Date().toISOString().slice(0, 16);

const key = (row: Row) => [row.bench, row.engine, row.what, row.measure].join('\u0000');

/** The table so far, written to `--out`: one line per figure, its sizes side by side, each
 * beside its ratio to the smallest size's. */
function write(done: number): string {
  const grouped = new Map<string, Row[]>();
  for (const row of rows) grouped.set(key(row), [...(grouped.get(key(row)) ?? []), row]);
  const lines = [
    `# bench --scale: ${started}Z, \`bun run bench --scale --sizes ${list} --engine ${values.engine} --only ${values.only}\``,
    '',
    'Each figure beside its ratio to the smallest size (×). Read the ratios: the milliseconds are',
    "this machine's, on the day.",
    '',
    done < runs.length
      ? `**In progress: ${done} of ${runs.length} runs done** (written after each run, so a run stopped part-way keeps what it measured).`
      : `All ${runs.length} runs done.`,
    '',
    `| bench | engine | what | measure | ${sizes.map((size) => `${size} | ×`).join(' | ')} |`,
    `|---|---|---|---|${sizes.map(() => '---:|---:').join('|')}|`,
  ];
  for (const group of grouped.values()) {
    const first = group[0] as Row;
    const base = group.find((row) => row.size === sizes[0])?.value;
    const cells = sizes.map((size) => {
      const row = group.find((candidate) => candidate.size === size);
      if (!row) return '— | —';
      // A count out of a sample (`200 of 200`) is read as it is: its ratio says nothing.
      const ratio = base && !row.unit.startsWith('of') ? (row.value / base).toFixed(2) : '—';
      const value = row.unit ? `${row.value} ${row.unit}` : String(row.value);
      return `${value} | ${ratio}`;
    });
    lines.push(
      `| ${first.bench} | ${first.engine} | ${first.what} | ${first.measure} | ${cells.join(' | ')} |`,
    );
  }
  if (failed.length > 0) lines.push('', `Failed: ${failed.join('; ')}`);
  lines.push(
    '',
    'Runs (wall time, load average when each ended):',
    '',
    ...ran.map((line) => `- ${line}`),
  );
  const table = lines.join('\n');
  const out = path.resolve(ROOT, values.out);
  writeFileSync(out, `${table}\n`);
  // Aligned as the repository's Markdown is (`bun run lint` formats it): committed as written.
  Bun.spawnSync(['bunx', 'biome', 'format', '--write', out], {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'ignore'],
  });
  return table;
}

for (const [index, run] of runs.entries()) {
  // Built once above; scale-stream runs the CLI only and builds nothing.
  const command = ['bun', ...run.command, ...(run.bench === 'stream' ? [] : ['--no-build'])];
  console.error(`bench --scale: ${command.join(' ')}`);
  const began = performance.now();
  const child = Bun.spawn(command, { cwd: ROOT, stdout: 'pipe', stderr: 'inherit' });
  const [output, code] = await Promise.all([new Response(child.stdout).text(), child.exited]);
  if (code !== 0) failed.push(`${run.command.join(' ')} (exit ${code})`);
  rows.push(...rowsOf(run, output));
  const load = os
    .loadavg()
    .map((value) => value.toFixed(2))
    .join(' / ');
  const seconds = (performance.now() - began) / 1000;
  const took = seconds < 120 ? `${seconds.toFixed(1)} s` : `${(seconds / 60).toFixed(1)} min`;
  ran.push(
    `\`${run.command.join(' ')}\`: ${took}, load ${load}${code === 0 ? '' : `, exit ${code}`}`,
  );
  write(index + 1);
}
console.log(write(runs.length));
console.error(`bench --scale: written to ${values.out}`);
process.exit(failed.length > 0 ? 1 : 0);
