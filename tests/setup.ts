// bun test preload: unit tests never touch data/folio.db, Sentry stays off unless a test turns
// it on against its own receiver, and a stray console.error fails the test (console-guard.ts).
import { afterAll, setDefaultTimeout } from 'bun:test';
import './console-guard';

// Tests here run real servers, Argon2id sign-ins and sharp's image variants: about 2 s where
// a few of them meet, past bun's 5 s default on a busy machine. A timeout also stops the
// server a file shares, failing every test after it, so the limit is one for slow, not stuck.
setDefaultTimeout(20_000);

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
