import { defineConfig } from '@playwright/test';
import { CHROMIUM_LAUNCH } from './tests/support';

// The PostgreSQL half of `bun run test:e2e` (scripts/test-engines.ts) leaves out the specs that
// exercise only the browser's side (client navigation and prefetch, the theme, the pages'
// markup): nothing in them differs by engine, the data layer under them is tested on both by
// `bun test`, and the SQLite half runs them. Every other spec runs on both.
const BROWSER_SIDE_SPECS = ['navigation.spec.ts', 'foundation.spec.ts', 'theme.spec.ts'];

// tests/e2e/global-setup.ts starts Folio (`bun run start`, a throw-away database, an OS-picked
// port) and sets E2E_BASE_URL before the workers, which read this file again, start.
export default defineConfig({
  testDir: './tests/e2e',
  testIgnore:
    process.env.FOLIO_TEST_ENGINE === 'postgres'
      ? BROWSER_SIDE_SPECS.map((spec) => `**/${spec}`)
      : [],
  globalSetup: './tests/e2e/global-setup.ts',
  fullyParallel: false,
  workers: 1,
  // One retry on CI, as Playwright's own template does; a retried test is reported as flaky.
  retries: process.env.CI ? 1 : 0,
  timeout: 30_000,
  reporter: [['list']],
  use: {
    baseURL: process.env.E2E_BASE_URL,
    launchOptions: CHROMIUM_LAUNCH,
  },
});
