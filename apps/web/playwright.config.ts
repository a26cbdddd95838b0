import { defineConfig } from '@playwright/test';
import { chromiumPath, e2ePort } from './e2e/support/settings';

/**
 * Browser tests of the web app against the real run command (the one-process launcher on embedded
 * defaults, started by e2e/global-setup.ts), in Debian's Chromium: Playwright never downloads a
 * browser here. `npm test` runs them through `nx run web:e2e` (apps/web/e2e/run.mjs).
 */
export default defineConfig({
  testDir: './e2e',
  testMatch: '**/*.pw.ts',
  globalSetup: './e2e/global-setup.ts',
  outputDir: '../../tmp/web-e2e/artifacts',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  // Two workers, each taking whole files: a file's tests run in order in one worker (fullyParallel
  // off; `mode: 'serial'` files also stop at their first failure), two files at a time against the
  // one product. What the files share is safe to share: every file makes its own accounts
  // (newEmail), reads the dev mailbox by its own addresses, names its own screenshots, and starts
  // its own paying product (stripe-mock) where it needs one; rate limits are set high in
  // global-setup. WEB_E2E_WORKERS=1 runs them one file at a time.
  fullyParallel: false,
  workers: Number(process.env['WEB_E2E_WORKERS'] ?? 2),
  retries: 0,
  reporter: [['list'], ['json', { outputFile: '../../tmp/test-results/web.e2e.json' }]],
  use: {
    baseURL: `http://localhost:${e2ePort}`,
    browserName: 'chromium',
    launchOptions: {
      executablePath: chromiumPath,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    },
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
});
