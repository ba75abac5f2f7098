import { _electron as electron, chromium, expect, test, type Browser, type Page } from '@playwright/test';
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { UpdateStatus } from '../../engine/api/update-schemas';
import { APP_ENTRY_URL } from '../../main/protocol/app-protocol';
import { DEMO_ORG, REPO_ROOT } from '../harness/lemming-fixture';

/**
 * The real app in Electron: the installed app the installers workflow just built (its executable in
 * LEMMING_PACKAGED_APP), or else this checkout run by the Electron binary npm downloaded. Skipped, with
 * the reason, when neither is there (ELECTRON_SKIP_BINARY_DOWNLOAD=1): the Chromium harness tests cover
 * the renderer then.
 */
const packagedApp = process.env.LEMMING_PACKAGED_APP || null;
const electronBinary = packagedApp ? null : installedElectronBinary();

test.skip(
  !packagedApp && !electronBinary,
  'no Electron binary (installed with ELECTRON_SKIP_BINARY_DOWNLOAD=1) and no packaged app in LEMMING_PACKAGED_APP',
);

function installedElectronBinary(): string | null {
  const pathFile = join(REPO_ROOT, 'node_modules', 'electron', 'path.txt');
  if (!existsSync(pathFile)) return null;
  const binary = join(REPO_ROOT, 'node_modules', 'electron', 'dist', readFileSync(pathFile, 'utf8').trim());
  return existsSync(binary) ? binary : null;
}

interface RunningApp {
  page: Page;
  /** Every window the app has open. */
  windows(): Page[];
  /** The application menu's top items and the roles of every item; null for the installed app (main is out of reach there). */
  menu(): Promise<{ top: string[]; roles: string[] } | null>;
  close(): Promise<void>;
}

/** A home folder of its own, so the demo org and the app's settings never land in the user's. */
function isolatedEnv(home: string): NodeJS.ProcessEnv {
  return { ...process.env, HOME: home, XDG_CONFIG_HOME: join(home, '.config'), USERPROFILE: home };
}

/**
 * The checkout's Electron through Playwright's `_electron`. It drives Electron through Node's inspector,
 * which the installed app's fuses switch off (`enableNodeCliInspectArguments: false`), so the installed
 * app is driven over the Chrome DevTools Protocol instead (see `launchPackaged`).
 */
async function launchCheckout(home: string): Promise<RunningApp> {
  const app = await electron.launch({
    executablePath: electronBinary!,
    args: [REPO_ROOT, '--no-sandbox', '--disable-gpu'],
    env: isolatedEnv(home) as Record<string, string>,
  });
  const page = await app.firstWindow();
  const menu = () =>
    app.evaluate(({ Menu }) => {
      const items = Menu.getApplicationMenu()?.items ?? [];
      const every = (list: Electron.MenuItem[]): Electron.MenuItem[] =>
        list.flatMap((item) => [item, ...every(item.submenu?.items ?? [])]);
      return {
        top: items.map((item) => item.label),
        roles: every(items).map((item) => String(item.role ?? '').toLowerCase()),
      };
    });
  return { page, windows: () => app.windows(), menu, close: () => app.close() };
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** The installed app exactly as a user starts it, with Chromium's DevTools endpoint on loopback. */
async function launchPackaged(home: string): Promise<RunningApp> {
  const port = await freePort();
  const args = [`--remote-debugging-port=${port}`];
  // The unpacked Linux app has no setuid sandbox helper, and CI runners forbid user namespaces.
  if (process.platform === 'linux') args.push('--no-sandbox');
  const child = spawn(packagedApp!, args, { env: isolatedEnv(home), stdio: 'inherit' });
  let browser: Browser | null = null;
  const endpoint = `http://127.0.0.1:${port}`;
  await expect
    .poll(async () => (await fetch(`${endpoint}/json/version`).catch(() => null))?.ok ?? false, {
      timeout: 30_000,
    })
    .toBe(true);
  browser = await chromium.connectOverCDP(endpoint);
  const context = browser.contexts()[0]!;
  const appPages = () => context.pages().filter((page) => page.url().startsWith('app://'));
  await expect.poll(() => appPages().length, { timeout: 30_000 }).toBeGreaterThan(0);
  return {
    page: appPages()[0]!,
    windows: appPages,
    menu: async () => null,
    close: async () => {
      await browser?.close();
      child.kill();
    },
  };
}

let home: string;
let running: RunningApp;

test.beforeEach(async () => {
  home = mkdtempSync(join(tmpdir(), 'lemming-electron-'));
  running = packagedApp ? await launchPackaged(home) : await launchCheckout(home);
});

test.afterEach(async () => {
  await running?.close();
  rmSync(home, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
});

test('the real app opens hardened on app:// and lists an org', async ({ browserName: _ }, testInfo) => {
  const { page } = running;
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
    lemming: [
      'agent',
      'app',
      'connectors',
      'credits',
      'desktop',
      'firstRun',
      'messages',
      'models',
      'on',
      'org',
      'recentOrgs',
      'run',
      'secrets',
      'settings',
      'timeline',
      'tools',
      'updates',
    ],
  });

  await page.evaluate(() => window.open('https://example.com/'));
  await page.evaluate(() => window.location.assign('https://example.com/'));
  await page.waitForTimeout(300);
  expect(running.windows()).toHaveLength(1);
  expect(page.url()).toBe(APP_ENTRY_URL);

  // A copy of the demo org in the test's own home: the installers workflow has only this repository.
  const org = join(home, 'org');
  cpSync(DEMO_ORG, org, { recursive: true });
  await page.getByRole('textbox', { name: 'Org folder path' }).fill(org);
  await page.getByRole('button', { name: 'Open', exact: true }).click();
  await expect(page.getByRole('listitem', { name: 'manager', exact: true })).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath('electron-app.png') });
});

test('the bundled demo org opens, runs one tick, and the timeline shows it; the updater starts cleanly', async ({
  browserName: _,
}, testInfo) => {
  const { page } = running;
  await page.getByRole('button', { name: 'Open the demo org' }).click();
  await expect(page.locator('[data-app-state="open"]')).toBeVisible();

  const controls = page.getByRole('region', { name: 'Run controls' });
  await expect(controls.getByTestId('current-tick')).toHaveText('Next tick 1');
  await controls.getByRole('button', { name: 'Step one tick' }).click();
  await expect(controls.getByTestId('ticks-done')).toHaveText('1 tick done', { timeout: 30_000 });
  await expect(controls.getByTestId('current-tick')).toHaveText('Next tick 2');

  await page.getByRole('button', { name: /^Timeline/ }).click();
  const events = page.getByRole('list', { name: 'Events' });
  await expect(events.getByRole('button').filter({ hasText: 'tick 1' }).first()).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath('app-after-one-tick.png') });

  const updates = await page.evaluate(() => window.lemming.updates.status());
  expect(updates.ok).toBe(true);
  const status = (updates as { ok: true; value: UpdateStatus }).value;
  console.log(`  updater: ${JSON.stringify(status)}`);
  if (packagedApp) {
    // Checking, or already answered; "unavailable" is an unreachable server or nothing published yet.
    expect(status).toMatchObject({ enabled: true, offReason: null });
    expect(['checking', 'up-to-date', 'downloading', 'ready', 'unavailable']).toContain(status.state);
  } else {
    expect(status).toMatchObject({ enabled: true, state: 'off', offReason: 'development' });
  }
});

test("the app's own menu replaces Electron's", async ({ browserName: _ }) => {
  const menu = await running.menu();
  test.skip(menu === null, "the installed app's main process cannot be reached to read its menu");
  const top = process.platform === 'darwin' ? ['LeMMing Desktop'] : [];
  expect(menu!.top).toEqual([...top, 'File', 'Edit', 'Run', 'View', 'Window', 'Help']);
  // A checkout is not packaged: it offers the developer tools, which an installed app does only when asked.
  expect(menu!.roles).toContain('toggledevtools');
});
