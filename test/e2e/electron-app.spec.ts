import { _electron as electron, expect, test } from '@playwright/test';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { electronSqliteBindingPath } from '../../main/native/sqlite-binding';
import { APP_ENTRY_URL } from '../../main/protocol/app-protocol';
import { REPO_ROOT, UPSTREAM_FIXTURES } from '../harness/lemming-fixture';

/** The Electron binary, when `npm install` downloaded it (it cannot on offline machines). */
function installedElectronBinary(): string | null {
  const pathFile = join(REPO_ROOT, 'node_modules', 'electron', 'path.txt');
  if (!existsSync(pathFile)) return null;
  const binary = join(REPO_ROOT, 'node_modules', 'electron', 'dist', readFileSync(pathFile, 'utf8').trim());
  return existsSync(binary) ? binary : null;
}

const binary = installedElectronBinary();
const nativeSqlite = electronSqliteBindingPath({ isPackaged: false, resourcesPath: '', appPath: REPO_ROOT });

test.skip(
  !binary,
  'Electron binary not installed (ELECTRON_SKIP_BINARY_DOWNLOAD=1); the Chromium harness tests cover the renderer',
);
test.skip(
  !existsSync(nativeSqlite),
  'better-sqlite3 for Electron not built; run "npm run build:electron-sqlite" (needs the Electron headers)',
);

test('the real app opens hardened on app:// and lists an org', async ({ browserName: _ }, testInfo) => {
  const app = await electron.launch({
    executablePath: binary!,
    args: [REPO_ROOT, '--no-sandbox', '--disable-gpu'],
  });
  try {
    const page = await app.firstWindow();
    await expect(page.getByRole('heading', { name: 'Open an org to begin' })).toBeVisible();
    expect(page.url()).toBe(APP_ENTRY_URL);

    const renderer = await page.evaluate(() => ({
      require: typeof (globalThis as { require?: unknown }).require,
      process: typeof (globalThis as { process?: unknown }).process,
      lemming: Object.keys(window.lemming).sort(),
    }));
    expect(renderer).toEqual({
      require: 'undefined',
      process: 'undefined',
      lemming: ['agent', 'app', 'connectors', 'credits', 'firstRun', 'messages', 'models', 'on', 'org', 'run', 'secrets', 'settings', 'timeline', 'tools'],
    });

    await page.evaluate(() => window.open('https://example.com/'));
    await page.evaluate(() => window.location.assign('https://example.com/'));
    await page.waitForTimeout(300);
    expect(app.windows()).toHaveLength(1);
    expect(page.url()).toBe(APP_ENTRY_URL);

    await page.getByRole('textbox', { name: 'Org folder path' }).fill(join(UPSTREAM_FIXTURES, 'example-org'));
    await page.getByRole('button', { name: 'Open', exact: true }).click();
    await expect(page.getByRole('listitem', { name: 'manager', exact: true })).toBeVisible();
    await page.screenshot({ path: testInfo.outputPath('electron-app.png') });
  } finally {
    await app.close();
  }
});
