// `bun scripts/test-engines.ts [--engine-independent-once] <command…>`: runs a test command
// once per database engine — FOLIO_TEST_ENGINE=sqlite and FOLIO_TEST_ENGINE=postgres against
// the server at FOLIO_TEST_POSTGRES_URL (default postgres://postgres@127.0.0.1:5432/postgres) —
// both halves at once: they wait on servers, browsers and databases far more than they compute,
// and side by side they take little longer than the longer one alone. Each half's output is
// kept and printed whole when it ends, under its engine's name, then one summary line that says
// which half failed. Without a PostgreSQL server it says so in one line and runs the SQLite half
// only (live) — except under CI (CI=true), where a missing server fails the run: CI never skips
// the PostgreSQL half.
//
// Each half is told whether the other runs too (FOLIO_TEST_BOTH_ENGINES=1): playwright.config.ts
// then runs what cannot differ by engine in one half only.
//
// --one-at-a-time: the halves one after the other, output live (for reading a failure as it
// happens). Each Playwright half has an output folder of its own (test-results/<engine>), so
// `test:e2e` runs them at once too.
//
// --engine-independent-once (for `bun test`): the PostgreSQL half leaves out the test files
// that cannot differ by engine. Those are the ones that import neither tests/databases.ts nor
// tests/harness.ts and never name the engine: every bun test process gets DATABASE_URL
// sqlite::memory: from tests/setup.ts, so they run the same code on the same database in both
// halves. The SQLite half runs them. So does a file that names the engine only to start a
// server, whose tests are about HTTP, the browser or Sentry and never about what the database
// does: it says so on a line of its own, `// test-engines: the SQLite half only`, with its reason
// beside it, and the PostgreSQL half leaves it out too.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { POSTGRES_ADMIN_URL, postgresAnswers } from '../tests/databases';
import { runCaptured } from './captured';

type Engine = 'sqlite' | 'postgres';

const ENGINE_INDEPENDENT_ONCE = '--engine-independent-once';
const ONE_AT_A_TIME = '--one-at-a-time';
const args = Bun.argv.slice(2);
const options = new Set<string>();
while (args[0] === ENGINE_INDEPENDENT_ONCE || args[0] === ONE_AT_A_TIME)
  options.add(args.shift() as string);
const independentOnce = options.has(ENGINE_INDEPENDENT_ONCE);
const command = args;
if (command.length === 0) {
  console.error(
    `usage: bun scripts/test-engines.ts [${ONE_AT_A_TIME}] [${ENGINE_INDEPENDENT_ONCE}] <command…>`,
  );
  process.exit(2);
}

const engines: Engine[] = ['sqlite'];
if (await postgresAnswers()) engines.push('postgres');
else if (process.env.CI === 'true') {
  console.error(
    `test-engines: no PostgreSQL answers at ${POSTGRES_ADMIN_URL}, and CI never skips the PostgreSQL half`,
  );
  process.exit(1);
} else {
  console.error(
    `test-engines: PostgreSQL half skipped: no server at ${POSTGRES_ADMIN_URL} (start one, or set FOLIO_TEST_POSTGRES_URL, to run it)`,
  );
}

const ROOT = path.resolve(import.meta.dir, '..');
/** What makes a test file's outcome depend on the engine it runs on. */
const NAMES_THE_ENGINE = /tests\/databases|tests\/harness|\.\/databases'|\.\/harness'|TEST_ENGINE/;

/** bun test's files (as bunfig.toml leaves them): src/** and tests/integration. */
function testFiles(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir)).flatMap((name) => {
    const relative = path.join(dir, name);
    if (statSync(path.join(ROOT, relative)).isDirectory()) return testFiles(relative);
    return /\.test\.tsx?$/.test(name) ? [relative] : [];
  });
}

/** The line by which a file that starts servers says its outcome cannot differ by engine. */
const SQLITE_HALF_ONLY = /^\/\/ test-engines: the SQLite half only\b/m;

function engineDependentFiles(): string[] {
  return [...testFiles('src'), ...testFiles('tests/integration')]
    .filter((file) => {
      const source = readFileSync(path.join(ROOT, file), 'utf8');
      return NAMES_THE_ENGINE.test(source) && !SQLITE_HALF_ONLY.test(source);
    })
    .map((file) => `./${file}`);
}

const commandFor = (engine: Engine) =>
  independentOnce && engine === 'postgres' ? [...command, ...engineDependentFiles()] : command;

/**
 * A half's engine, and whether the other half runs too: playwright.config.ts then runs what
 * cannot differ by engine in one half only.
 */
const halfEnv = (engine: Engine) => ({
  FOLIO_TEST_ENGINE: engine,
  FOLIO_TEST_BOTH_ENGINES: engines.length > 1 ? '1' : '0',
});

const seconds = (since: number) => `${((performance.now() - since) / 1000).toFixed(0)} s`;
const named = command.join(' ');

if (engines.length === 1 || options.has(ONE_AT_A_TIME)) {
  // One half at a time: nothing to keep apart, so the output is live.
  for (const engine of engines) {
    console.error(`\ntest-engines: ${named} on ${engine}\n`);
    const run = Bun.spawn(commandFor(engine), {
      env: { ...process.env, ...halfEnv(engine) },
      stdio: ['inherit', 'inherit', 'inherit'],
    });
    const code = await run.exited;
    if (code !== 0) {
      console.error(`test-engines: ${named} failed on ${engine} (exit ${code})`);
      process.exit(code);
    }
  }
  console.error(`test-engines: ${named} passed on ${engines.join(' and ')}`);
  process.exit(0);
}

type Outcome = { engine: Engine; code: number; took: string };

async function half(engine: Engine): Promise<Outcome> {
  const started = performance.now();
  const { code, output } = await runCaptured(commandFor(engine), {
    ...process.env,
    ...halfEnv(engine),
  });
  const took = seconds(started);
  const rule = '─'.repeat(8);
  process.stderr.write(
    `\n${rule} ${named} on ${engine}: ${code === 0 ? 'passed' : `FAILED (exit ${code})`} in ${took} ${rule}\n${output}\n${rule} end of ${engine} ${rule}\n`,
  );
  return { engine, code, took };
}

console.error(
  `test-engines: ${named} on ${engines.join(' and ')} at once (each printed when it ends)`,
);
const outcomes = await Promise.all(engines.map(half));
const failed = outcomes.filter((outcome) => outcome.code !== 0);
const summary = outcomes.map(
  (o) => `${o.engine} ${o.code === 0 ? 'passed' : 'FAILED'} (${o.took})`,
);
if (failed.length > 0) {
  console.error(
    `test-engines: ${named} failed on ${failed.map((o) => o.engine).join(' and ')}: ${summary.join(', ')}`,
  );
  process.exit(failed[0]?.code ?? 1);
}
console.error(`test-engines: ${named} passed: ${summary.join(', ')}`);
