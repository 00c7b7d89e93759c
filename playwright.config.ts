import { defineConfig } from '@playwright/test';
import { CHROMIUM_LAUNCH } from './tests/support';

// tests/e2e/global-setup.ts starts Folio (`bun run start`, a throw-away database, an OS-picked
// port) and sets E2E_BASE_URL before the workers, which read this file again, start.
export default defineConfig({
  testDir: './tests/e2e',
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
