import { defineConfig } from '@playwright/test';
import { chromiumFlags, chromiumPath } from './scripts/chromium.mjs';

// End-to-end tests drive the built server (dist/) with the system's Chromium; `npm run test:e2e`
// (scripts/e2e.mjs) builds first when the sources changed. Playwright never downloads a browser.
export default defineConfig({
  testDir: 'tests/e2e',
  outputDir: 'test-results',
  // Each test server holds about 400 MB (embedded PostgreSQL): one worker at a time.
  workers: 1,
  fullyParallel: false,
  forbidOnly: !!process.env.CI,
  retries: 0,
  timeout: 60_000,
  reporter: 'list',
  use: {
    launchOptions: {
      executablePath: chromiumPath,
      args: chromiumFlags,
    },
  },
});
