import { defineConfig } from '@playwright/test';
import { CHROMIUM_LAUNCH } from './tests/support';

// The PostgreSQL half of `bun run test:e2e` (scripts/test-engines.ts) leaves out the specs that
// exercise only the browser's side and the server's HTTP and error handling (client navigation
// and prefetch, the theme, the pages' markup, query strings, error reporting and its fallback
// pages): nothing in them differs by engine, the data layer under them is tested on both by
// `bun test`, and the SQLite half runs them. Every spec that saves, publishes, schedules or
// uploads runs on both.
const ENGINE_INDEPENDENT_SPECS = [
  'navigation.spec.ts',
  'foundation.spec.ts',
  'theme.spec.ts',
  'errors.spec.ts',
  'query-strings.spec.ts',
];

const ENGINE = process.env.FOLIO_TEST_ENGINE ?? 'sqlite';

// tests/e2e/global-setup.ts starts Folio (`bun run start`, a throw-away database, an OS-picked
// port) and sets E2E_BASE_URL before the workers, which read this file again, start. The two
// engines' halves may run at the same time (scripts/test-engines.ts): each writes its results
// to a folder of its own, and nothing else they use is shared.
export default defineConfig({
  testDir: './tests/e2e',
  outputDir: `test-results/${ENGINE}`,
  testIgnore:
    process.env.FOLIO_TEST_ENGINE === 'postgres'
      ? ENGINE_INDEPENDENT_SPECS.map((spec) => `**/${spec}`)
      : [],
  globalSetup: './tests/e2e/global-setup.ts',
  fullyParallel: false,
  workers: 1,
  // One retry on CI, as Playwright's own template does; a retried test is reported as flaky.
  retries: process.env.CI ? 1 : 0,
  // A test's whole budget: a passing test takes a few seconds, a busy machine several times that.
  timeout: 60_000,
  // Web-first assertions wait on a signal, never a clock: the wait only bounds how long a busy
  // machine (two cores, two engines' halves and other work at once) may take to show it.
  expect: { timeout: 15_000 },
  reporter: [['list']],
  use: {
    baseURL: process.env.E2E_BASE_URL,
    launchOptions: CHROMIUM_LAUNCH,
  },
});
