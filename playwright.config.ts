import { defineConfig } from '@playwright/test';
import { CHROMIUM_LAUNCH } from './tests/support';

// When `bun run test:e2e` runs both engines' halves (scripts/test-engines.ts sets
// FOLIO_TEST_BOTH_ENGINES), what cannot differ by engine runs once:
// - the specs that exercise only the browser's side and the server's HTTP and error handling
//   (client navigation and prefetch, the theme, the pages' markup, query strings, error
//   reporting and its fallback pages, the accessibility checks, the Markdown editor's keys and
//   dialogs, the phone layout, the dashboard's filtering as one types, the preview's frame):
//   nothing in them differs by engine, and the data layer under them (the dashboard's search
//   included) is tested on both by `bun test`. Each runs in one half, chosen so that the two
//   halves, run side by side, end at about the same time (navigation.spec has 40 s of timed
//   page-data waits, the accessibility checks 32 page scans);
// - the tests tagged BROWSER_SIDE (tests/e2e/fixtures.ts) run in the SQLite half only.
// Every other test that saves, publishes, schedules or uploads runs on both. A half run alone
// (a developer's `bunx playwright test`, or no PostgreSQL server) runs everything.
const ONCE_IN: Record<'sqlite' | 'postgres', string[]> = {
  sqlite: [
    'foundation.spec.ts',
    'theme.spec.ts',
    'query-strings.spec.ts',
    'markdown-editor.spec.ts',
    'dashboard.spec.ts',
    'preview-site.spec.ts',
  ],
  // errors.spec and header.spec moved here when the SQLite half took the People and security
  // screens' axe checks (tagged BROWSER_SIDE), about as long together.
  postgres: [
    'navigation.spec.ts',
    'accessibility.spec.ts',
    'phone-editor.spec.ts',
    'errors.spec.ts',
    'header.spec.ts',
  ],
};

const ENGINE = process.env.FOLIO_TEST_ENGINE ?? 'sqlite';
const BOTH_HALVES = process.env.FOLIO_TEST_BOTH_ENGINES === '1';

// tests/e2e/global-setup.ts starts Folio (`bun run start`, a throw-away database, an OS-picked
// port) and sets E2E_BASE_URL before the workers, which read this file again, start. The two
// engines' halves may run at the same time (scripts/test-engines.ts): each writes its results
// to a folder of its own, and nothing else they use is shared.
export default defineConfig({
  testDir: './tests/e2e',
  outputDir: `test-results/${ENGINE}`,
  testIgnore: BOTH_HALVES
    ? ONCE_IN[ENGINE === 'postgres' ? 'sqlite' : 'postgres'].map((spec) => `**/${spec}`)
    : [],
  grepInvert: BOTH_HALVES && ENGINE === 'postgres' ? /@browser-side/ : undefined,
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
