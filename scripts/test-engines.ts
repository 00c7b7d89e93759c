// `bun scripts/test-engines.ts <command…>`: runs a test command once per database engine —
// FOLIO_TEST_ENGINE=sqlite, then FOLIO_TEST_ENGINE=postgres against the server at
// FOLIO_TEST_POSTGRES_URL (default postgres://postgres@127.0.0.1:5432/postgres). Without a
// PostgreSQL server it says so in one line and runs the SQLite half only — except under CI
// (CI=true), where a missing server fails the run: CI never skips the PostgreSQL half.
import { POSTGRES_ADMIN_URL, postgresAnswers } from '../tests/databases';

const command = Bun.argv.slice(2);
if (command.length === 0) {
  console.error('usage: bun scripts/test-engines.ts <command…>');
  process.exit(2);
}

const engines: ('sqlite' | 'postgres')[] = ['sqlite'];
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

for (const engine of engines) {
  console.error(`\ntest-engines: ${command.join(' ')} on ${engine}\n`);
  const run = Bun.spawn(command, {
    env: { ...process.env, FOLIO_TEST_ENGINE: engine },
    stdio: ['inherit', 'inherit', 'inherit'],
  });
  const code = await run.exited;
  if (code !== 0) {
    console.error(`test-engines: ${command.join(' ')} failed on ${engine} (exit ${code})`);
    process.exit(code);
  }
}
console.error(`test-engines: ${command.join(' ')} passed on ${engines.join(' and ')}`);
