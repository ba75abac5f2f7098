import { defineConfig } from '@playwright/test';
import { existsSync } from 'node:fs';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../harness/system-chromium';

if (!existsSync(CHROMIUM_PATH)) {
  throw new Error(
    `The renderer tests need a system Chromium at ${CHROMIUM_PATH}. Install it with "apt-get install -y chromium" ` +
      '(or set LEMMING_CHROMIUM to its path). Never run "npx playwright install".',
  );
}

export default defineConfig({
  testDir: '.',
  outputDir: '../../test-results/e2e',
  fullyParallel: false,
  workers: 1,
  forbidOnly: !!process.env.CI,
  retries: 0,
  timeout: 60_000,
  reporter: [['list'], ['./skip-reason-reporter.ts']],
  use: {
    browserName: 'chromium',
    headless: true,
    viewport: { width: 1200, height: 800 },
    screenshot: 'only-on-failure',
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: CHROMIUM_PATH,
      args: CHROMIUM_ARGS,
    },
  },
});
