import { tmpdir } from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';
import { CHROMIUM_LAUNCH } from './tests/support';

const PORT = Number(process.env.E2E_PORT ?? 3100);
// A fixed path (per port) so the test workers, which re-read this file, agree on it;
// tests/e2e/serve.ts deletes it before each run.
const DATABASE_PATH = path.join(tmpdir(), `folio-e2e-${PORT}`, 'folio.db');
process.env.E2E_DATABASE_PATH = DATABASE_PATH;
// tests/e2e/serve.ts runs a Sentry envelope receiver here; tests read what it received.
const SENTRY_PORT = Number(process.env.E2E_SENTRY_PORT ?? 3199);
process.env.E2E_SENTRY_URL = `http://127.0.0.1:${SENTRY_PORT}`;

export default defineConfig({
  testDir: './tests/e2e',
  fullyParallel: false,
  workers: 1,
  // One retry on CI, as Playwright's own template does; a retried test is reported as flaky.
  retries: process.env.CI ? 1 : 0,
  timeout: 30_000,
  reporter: [['list']],
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    launchOptions: CHROMIUM_LAUNCH,
  },
  webServer: {
    command: 'bun tests/e2e/serve.ts',
    url: `http://127.0.0.1:${PORT}/healthz`,
    reuseExistingServer: false,
    timeout: 60_000,
    env: {
      PORT: String(PORT),
      DATABASE_URL: `sqlite:${DATABASE_PATH}`,
      E2E_SENTRY_PORT: String(SENTRY_PORT),
    },
    stdout: 'ignore',
    stderr: 'pipe',
  },
});
