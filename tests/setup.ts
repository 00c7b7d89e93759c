// bun test preload: unit tests never touch data/folio.db, Sentry stays off unless a test turns
// it on against its own receiver, and a stray console.error fails the test (console-guard.ts).
import { afterAll } from 'bun:test';
import './console-guard';
import { dropBehind, settleDropsBehind } from './drops-behind';

// The per-test limit (20 s: real servers, Argon2id sign-ins and sharp's variants, on a busy
// machine) is passed on the command line by `bun run test`, never set here: setDefaultTimeout()
// in a preload applies to the first test file only (oven-sh/bun#43787), so every later file was
// back on bun's 5 s and a busy machine failed them.

// Throw-away databases are dropped behind the tests (tests/drops-behind.ts): the run waits for
// the last of them, and drops the spares it made ahead, before it ends.
dropBehind();
afterAll(settleDropsBehind, 120_000);

process.env.DATABASE_URL = 'sqlite::memory:';
delete process.env.SENTRY_DSN;
delete process.env.SITE_URL;
delete process.env.TRUST_PROXY;

// A bare `bun test` is the unit and request-level half on SQLite (it builds what the servers
// under test need, as `bun run start` does). The one line a newcomer needs to run the rest;
// `bun run test` (scripts/test-engines.ts, which names the engine) says its own.
if (process.env.FOLIO_TEST_ENGINE === undefined)
  afterAll(() => {
    console.log(
      '\nbun test ran on SQLite. The rest: `bun run test` (SQLite and PostgreSQL), `bun run test:e2e` (Chromium), or all of it with `bun run check`.',
    );
  });
