import { defineConfig } from '@playwright/test';

/**
 * The installers workflow's smoke step: electron-app.spec.ts against the app it just packaged (its
 * executable in LEMMING_PACKAGED_APP). Unlike the harness tests it needs no system Chromium.
 */
export default defineConfig({
  testDir: '.',
  testMatch: 'electron-app.spec.ts',
  outputDir: '../../test-results/packaged-app',
  workers: 1,
  forbidOnly: !!process.env.CI,
  retries: 0,
  timeout: 120_000,
  reporter: [['list'], ['./skip-reason-reporter.ts']],
  use: { screenshot: 'only-on-failure', trace: 'retain-on-failure' },
});
