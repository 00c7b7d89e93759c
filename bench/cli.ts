// `bun bench/cli.ts [--runs 11] [--engine sqlite|postgres|both] [--compare <entry>]`: how long the `folio` CLI
// takes, start to exit, on a throw-away seeded database — `--help`, and `page publish <slug>`
// (the page is visible once the process has exited 0: the publish is committed and the
// content version bumped). Each is timed both as `bun run folio …` and as
// `bun src/cli/folio.ts …`, since `bun run` adds its own start-up; it prints the median, the
// fastest and the slowest of each. Before every timed publish an untimed `page put` gives the
// page a new draft, so every publish has something to publish. Every database it makes is
// dropped; PostgreSQL is skipped when none answers at FOLIO_TEST_POSTGRES_URL. Last, for each
// engine, where a publish's time goes (each step's median, in a process of its own).
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';

const ROOT = path.resolve(import.meta.dir, '..');
const SLUG = 'about';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '11' },
    engine: { type: 'string', default: 'both' },
    // Another entry to time beside src/cli/folio.ts, run for run (say, an earlier folio.ts
    // copied beside it): on a shared machine only interleaved runs compare fairly.
    compare: { type: 'string' },
    // Internal: the child process that times the publish path's steps (see phases below).
    'phases-child': { type: 'string' },
  },
});
const RUNS = Math.max(1, Number(values.runs) || 11);

/** The ways the CLI is started, each timed in turn within every run. */
const WAYS: { label: string; command: string[] }[] = [
  { label: 'bun run folio', command: ['bun', 'run', 'folio'] },
  { label: 'bun src/cli/folio.ts', command: ['bun', 'src/cli/folio.ts'] },
  ...(values.compare ? [{ label: `bun ${values.compare}`, command: ['bun', values.compare] }] : []),
];

async function folio(
  command: string[],
  argv: string[],
  databaseUrl: string,
): Promise<{ ms: number; code: number; stderr: string }> {
  const started = performance.now();
  const child = Bun.spawn([...command, ...argv], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: databaseUrl, NODE_ENV: 'production' },
    stdout: 'ignore',
    stderr: 'pipe',
    stdin: 'ignore',
  });
  const code = await child.exited;
  const ms = performance.now() - started;
  return { ms, code, stderr: await new Response(child.stderr).text() };
}

function summary(label: string, times: number[]): string {
  const sorted = [...times].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
  const f = (ms: number) => `${ms.toFixed(0).padStart(5)} ms`;
  return `${label.padEnd(52)} median ${f(median)}   min ${f(sorted[0] ?? Number.NaN)}   max ${f(sorted.at(-1) ?? Number.NaN)}   (${sorted.length} runs)`;
}

async function must(command: string[], argv: string[], url: string) {
  const result = await folio(command, argv, url);
  if (result.code !== 0)
    throw new Error(`folio ${argv.join(' ')} exited ${result.code}: ${result.stderr}`);
  return result.ms;
}

const CLI = ['bun', 'src/cli/folio.ts'];

async function benchEngine(engine: 'sqlite' | 'postgres', bodyFile: string): Promise<string[]> {
  const database = await createThrowAwayDatabase(engine);
  const help = WAYS.map((): number[] => []);
  const publish = WAYS.map((): number[] => []);
  try {
    await must(CLI, ['db', 'seed'], database.url);
    for (let i = 0; i < RUNS; i++)
      for (const [way, { command }] of WAYS.entries()) {
        help[way]?.push(await must(command, ['--help'], database.url));
        await must(
          CLI,
          ['page', 'put', SLUG, '--title', `About ${i} ${way}`, '--body-file', bodyFile],
          database.url,
        );
        publish[way]?.push(await must(command, ['page', 'publish', SLUG], database.url));
      }
  } finally {
    await database.drop();
    if (database.file) rmSync(path.dirname(database.file), { recursive: true, force: true });
  }
  return WAYS.flatMap(({ label }, way) => [
    summary(`${engine}: ${label} --help`, help[way] ?? []),
    summary(`${engine}: ${label} page publish`, publish[way] ?? []),
  ]);
}

// Where a publish's time goes: in a fresh process each time, the libraries and modules the
// publish path loads (each lap adds only what the earlier ones did not load: the libraries
// first, so each is counted alone), then opening the database, the migrations check and the
// publish itself. Milliseconds from the child's first line, so Bun's own start is not in them.
// (@sentry/core is not among them: spans.ts gets the server SDK's startSpan when a server
// starts one, so the CLI loads no Sentry at all.)
const PHASES: [string, () => Promise<unknown>][] = [
  ['zod', () => import('zod')],
  ['markdown-it', () => import('markdown-it')],
  ['lib/data/db (+ runtime/env)', () => import('../src/lib/data/db')],
  ['lib/content/content (the rest)', () => import('../src/lib/content/content')],
];

if (values['phases-child'] !== undefined) {
  const url = values['phases-child'];
  const started = performance.now();
  const laps: [string, number][] = [];
  const lap = (label: string) => laps.push([label, performance.now() - started]);
  for (const [label, load] of PHASES) {
    await load();
    lap(label);
  }
  const { openDatabase, migrate } = await import('../src/lib/data/db');
  const { createContentStore } = await import('../src/lib/content/content');
  const db = await openDatabase(url, { migrate: false });
  lap('open the database');
  await migrate(db);
  lap('migrations check');
  await createContentStore(db).publish(SLUG, { editor: 'cli' });
  lap('publish (commit, version bump)');
  await db.close();
  console.log(JSON.stringify(laps));
  process.exit(0);
}

// Imported here, not at the top: it loads the database module, which the child must not have.
const { createThrowAwayDatabase, postgresAnswers } = await import('../tests/databases');

async function phases(engine: 'sqlite' | 'postgres', bodyFile: string): Promise<string[]> {
  const database = await createThrowAwayDatabase(engine);
  const runs: [string, number][][] = [];
  try {
    await must(CLI, ['db', 'seed'], database.url);
    for (let i = 0; i < RUNS; i++) {
      await must(
        CLI,
        ['page', 'put', SLUG, '--title', `About ${i}`, '--body-file', bodyFile],
        database.url,
      );
      const child = Bun.spawn(['bun', 'bench/cli.ts', '--phases-child', database.url], {
        cwd: ROOT,
        env: { ...process.env, DATABASE_URL: database.url, NODE_ENV: 'production' },
        stdout: 'pipe',
        stderr: 'inherit',
      });
      const text = await new Response(child.stdout).text();
      if ((await child.exited) !== 0) throw new Error('the phases child failed');
      runs.push(JSON.parse(text) as [string, number][]);
    }
  } finally {
    await database.drop();
    if (database.file) rmSync(path.dirname(database.file), { recursive: true, force: true });
  }
  const median = (list: number[]) =>
    [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)] ?? Number.NaN;
  const labels = runs[0]?.map(([label]) => label) ?? [];
  return labels.map((label, step) => {
    const spent = runs.map(
      (laps) => (laps[step]?.[1] ?? 0) - (step > 0 ? (laps[step - 1]?.[1] ?? 0) : 0),
    );
    return `${engine}: ${label.padEnd(40)} ${median(spent).toFixed(1).padStart(6)} ms (median of ${runs.length})`;
  });
}

const bodyFile = path.join((await import('node:os')).tmpdir(), `folio-bench-cli-${process.pid}.md`);
writeFileSync(bodyFile, '# About\n\nA page the CLI benchmark publishes again and again.\n');
try {
  const bare: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    await Bun.spawn(['bun', '-e', '0'], { cwd: ROOT, stdout: 'ignore' }).exited;
    bare.push(performance.now() - started);
  }
  console.log(summary('bun -e 0 (Bun itself starting)', bare));
  const engines =
    values.engine === 'both' ? (['sqlite', 'postgres'] as const) : [values.engine as 'sqlite'];
  for (const engine of engines) {
    if (engine === 'postgres' && !(await postgresAnswers())) {
      console.log('postgres: no server answers; skipped');
      continue;
    }
    for (const line of await benchEngine(engine, bodyFile)) console.log(line);
    for (const line of await phases(engine, bodyFile)) console.log(line);
  }
} finally {
  rmSync(bodyFile, { force: true });
}
