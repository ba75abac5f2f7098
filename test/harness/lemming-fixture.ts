import { test as base, type Page } from '@playwright/test';
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { EventName } from '../../engine/api/events';
import { ok } from '../../engine/api/result';
import type { AppInfo } from '../../engine/api/schemas';
import { openFileSecretStore } from '../../engine/secrets/file-secret-store';
import { sqliteVersion } from '../../engine/timeline/sqlite';
import { EngineThread } from '../../main/engine-host/engine-thread';
import { openInBrowser } from '../../engine/tools/mcp/auth/open-browser';
import { engineWorkerOptions } from '../../main/engine-host/engine-worker-environment';
import { TrustStore } from '../../engine/trust/trust-store';
import { createRelay } from '../../main/ipc/dispatch';
import { updateHandlers } from '../../main/updates/update-handlers';
import { desktopHandlers, desktopPreferencesIn } from '../../main/desktop/desktop-handlers';
import { isTrustedSender } from '../../main/security/sender';
import { UpdateController } from '../../main/updates/update-controller';
import { trustAsIs } from '../../engine/trust/test-support/trust-as-is';
import { updatePreferenceIn } from '../../main/updates/update-preference';
import { StandInUpdater } from '../../main/updates/test-support/stand-in-updater';
import { harnessPreloadScript } from './system-chromium';
import { startRendererServer, type RendererServer } from './renderer-server';

export const REPO_ROOT = resolve(import.meta.dirname, '..', '..');
export const RENDERER_DIR = join(REPO_ROOT, 'out', 'renderer');
export const UPSTREAM_FIXTURES = resolve(REPO_ROOT, '..', 'shared', 'fixtures', 'lemming-upstream');
export const DEMO_ORG = join(REPO_ROOT, 'examples', 'demo-org');
export const TEMPLATES = join(REPO_ROOT, 'templates');
/** The engine thread as the app starts it (built by `npm run build:electron-bundles`, part of `test:e2e`). */
const ENGINE_WORKER = join(REPO_ROOT, 'out', 'main', 'engine-worker.cjs');
const APP_INFO: AppInfo = {
  name: 'LeMMing Desktop',
  version: '0.0.0-test',
  platform: process.platform,
  runtime: { node: process.versions.node, electron: null, chrome: null, sqlite: sqliteVersion() },
};
/** The channels whose answer is the org the page has just opened. */
const OPENING_CHANNELS: unknown[] = ['org.open', 'org.create', 'firstRun.openDemo', 'templates.create'];

/** One call that crossed the bridge, as main answered it. */
export interface RecordedCall {
  channel: unknown;
  input: unknown;
  response: unknown;
}

/** One event main pushed into the page. */
export interface DeliveredEvent {
  name: EventName;
  payload: unknown;
}

export interface LemmingHarness {
  page: Page;
  origin: string;
  /** Every call the renderer made, with main's response, in order. */
  calls: RecordedCall[];
  /** Every event the engine host pushed into the page, in order. */
  events: DeliveredEvent[];
  /** The path of the org the page opened last (from the answer main gave it). */
  currentOrgPath(): string;
  /** The app's updates, as main's in an installed app, over a stand-in for electron-updater. */
  updates: UpdateController;
  updater: StandInUpdater;
  /** The person's trust record the engine thread judges orgs by (a file in a temp folder). */
  trust: TrustStore;
  /**
   * Trusts the org as it is now, with every secret and variable it names granted: for tests about
   * something else than trust. Call it again after changing what the org can run or reach.
   */
  trustAsIs(orgPath: string): Promise<void>;
  /** Where the first run puts the demo org (a temp folder). */
  userOrgsFolder: string;
  /** What the next "Choose org folder…" dialog returns. */
  setPickedFolder(path: string | null): void;
  /** What the next timeline export's save dialog returns. */
  setExportFile(path: string | null): void;
  /** What the next timeline import's open dialog returns. */
  setImportFile(path: string | null): void;
  /** A fresh temporary copy of a folder (fixtures are never touched in place). */
  copyOfFolder(source: string): string;
  gotoApp(): Promise<void>;
  /** Loads the app and opens the org at `path` by typing it, as a person would. */
  openOrgAt(path: string): Promise<void>;
  /** Switches to one of the main views by its tab. */
  showView(name: 'Org' | 'Timeline' | 'Tool Store' | 'Settings'): Promise<void>;
  /**
   * Holds the page's calls on `channel` before main handles them, until the returned function is called
   * (a slow disk, as the user's machine may have one): the tests use it to let events land mid-read.
   */
  holdCalls(channel: string): () => void;
  /** Pushes an event into the page as main does of its own (a menu item or a notification leads somewhere). */
  pushFromMain(name: EventName, payload: unknown): void;
}

/**
 * The renderer test harness: the Vite-built renderer in a system Chromium, with `window.lemming` bound to
 * main's relay in this test process, in front of the engine thread the app runs (`out/main/engine-worker.cjs`
 * in a worker thread, started by the same EngineThread). Calls go through the same relay and the same sender
 * check as ipcMain in the app: main answers `app.info` and the updates channels, the engine thread the rest,
 * asking main for the dialogs and the secret store; its event pings reach the page through the same event
 * hub preload uses. Secrets live in a secrets file in a temp folder.
 */
export const test = base.extend<{ lemming: LemmingHarness }>({
  lemming: async ({ page }, use) => {
    if (!existsSync(ENGINE_WORKER))
      throw new Error(
        `${ENGINE_WORKER} is missing: run "npm run build:electron-bundles" (npm run test:e2e does).`,
      );
    const server: RendererServer = await startRendererServer(RENDERER_DIR);
    const tempDirs: string[] = [];
    const tempDir = () => {
      const dir = mkdtempSync(join(tmpdir(), 'lemming-e2e-'));
      tempDirs.push(dir);
      return dir;
    };
    let pickedFolder: string | null = null;
    let exportFile: string | null = null;
    let importFile: string | null = null;
    const calls: RecordedCall[] = [];
    const events: DeliveredEvent[] = [];
    const held = new Map<unknown, Promise<void>>();
    // Main's desktop preferences; as in the app, an org that opens joins the recent orgs.
    const desktop = desktopPreferencesIn(tempDir());
    const deliver = (name: EventName, payload: unknown) => {
      events.push({ name, payload });
      const opened = name === 'org.changed' ? (payload as { path: string | null }).path : null;
      if (opened) void desktop.recent.remember(opened);
      // A page that is navigating or closed misses the event, as a reloading window would.
      page.evaluate((message) => window.__lemmingDeliver(message), { name, payload }).catch(() => undefined);
    };

    const secrets = await openFileSecretStore(join(tempDir(), 'secrets.json'));
    if (!secrets.ok) throw new Error(secrets.error);
    const userOrgsFolder = tempDir();
    const trust = new TrustStore(join(tempDir(), 'trust.json'));
    const workerOptions = engineWorkerOptions({
      appInfo: APP_INFO,
      secretLocation: secrets.value.store.location,
      host: {
        demoOrgSource: DEMO_ORG,
        templatesFolder: TEMPLATES,
        userOrgsFolder,
        trustFile: trust.file,
        pingIntervalMs: 20,
      },
    });
    const engine = await EngineThread.start(() => new Worker(ENGINE_WORKER, workerOptions), {
      secretStore: secrets.value.store,
      trust,
      env: process.env,
      pickFolder: async () => pickedFolder,
      pickExportFile: async () => exportFile,
      pickImportFile: async () => importFile,
      // The person's browser, as main opens it: here the program BROWSER names (a spec sets one that follows a sign-in).
      openExternal: (url) => openInBrowser(new URL(url)),
      onEvent: deliver,
      logError: (context, error) => console.error(`[engine] ${context}:`, error),
    });
    const updater = new StandInUpdater();
    const updates = await UpdateController.create({
      updater,
      preference: updatePreferenceIn(tempDir()),
      onChange: (status) => deliver('updates.changed', status),
      logError: () => undefined,
    });
    const dispatch = createRelay(
      { 'app.info': async () => ok(APP_INFO), ...updateHandlers(updates), ...desktopHandlers(desktop) },
      engine.dispatch,
    );

    await page.exposeBinding('__lemmingInvoke', async ({ frame }, channel: unknown, input: unknown) => {
      const trusted = isTrustedSender({ url: frame.url(), isMainFrame: frame.parentFrame() === null }, [
        server.origin,
      ]);
      await held.get(channel);
      const response = trusted
        ? await dispatch(channel, input)
        : {
            ok: false,
            error: { code: 'forbidden_sender', message: 'This window may not call the LeMMing engine.' },
          };
      calls.push({ channel, input, response });
      return response;
    });
    await page.addInitScript({ content: await harnessPreloadScript() });

    const gotoApp = async () => {
      await page.goto(`${server.origin}/index.html`);
    };
    await use({
      page,
      origin: server.origin,
      calls,
      events,
      currentOrgPath: () => {
        const opened = calls.findLast(
          (call) => OPENING_CHANNELS.includes(call.channel) && (call.response as { ok: boolean }).ok,
        );
        if (!opened) throw new Error('The page has not opened an org.');
        return (opened.response as { value: { path: string } }).value.path;
      },
      updates,
      updater,
      trust,
      trustAsIs: async (orgPath) => {
        await trustAsIs(orgPath, trust);
      },
      userOrgsFolder,
      setPickedFolder: (path) => {
        pickedFolder = path;
      },
      setExportFile: (path) => {
        exportFile = path;
      },
      setImportFile: (path) => {
        importFile = path;
      },
      copyOfFolder: (source) => {
        const copy = join(tempDir(), source.split(/[\\/]/).pop() ?? 'org');
        cpSync(source, copy, { recursive: true });
        return copy;
      },
      gotoApp,
      openOrgAt: async (path) => {
        await gotoApp();
        await page.getByRole('textbox', { name: 'Org folder path' }).fill(path);
        await page.getByRole('button', { name: 'Open', exact: true }).click();
      },
      showView: async (name) => {
        await page.getByRole('navigation', { name: 'Main views' }).getByRole('button', { name }).click();
      },
      holdCalls: (channel) => {
        let release = () => undefined as void;
        held.set(channel, new Promise<void>((resolve) => (release = resolve)));
        return () => {
          held.delete(channel);
          release();
        };
      },
      pushFromMain: deliver,
    });

    await engine.dispose();
    await server.close();
    for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
  },
});

export { expect } from '@playwright/test';
