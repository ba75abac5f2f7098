import { app, BrowserWindow, dialog, ipcMain, net, protocol, safeStorage, session, shell } from 'electron';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { pathToFileURL } from 'node:url';
import { EVENT_CHANNEL } from '../engine/api/events';
import { sqliteVersion } from '../engine/timeline/sqlite';
import { ok } from '../engine/api/result';
import { EngineThread } from './engine-host/engine-thread';
import { engineWorkerOptions } from './engine-host/engine-worker-environment';
import { TrustStore } from '../engine/trust/trust-store';
import { bindIpc } from './ipc/bind';
import { createRelay } from './ipc/dispatch';
import { APP_ENTRY_URL, APP_ORIGIN, APP_SCHEME, resolveRendererAsset } from './protocol/app-protocol';
import { openSafeStorageSecretStore } from './secrets/safe-storage-secret-store';
import { RENDERER_SECURITY_HEADERS } from './security/csp';
import { guardNavigation } from './security/navigation';
import { denyAllPermissions } from './security/permissions';
import { originOf } from './security/sender';
import { hasUpdateSource } from './updates/update-feed';
import { UpdateController, type Updater } from './updates/update-controller';
import { updateHandlers } from './updates/update-handlers';
import { updatePreferenceIn } from './updates/update-preference';
import { mainWindowOptions } from './window/main-window-options';

/** Set by `npm run dev`: the Vite dev server that serves the renderer with hot reload. */
const devServerUrl = app.isPackaged ? undefined : process.env.LEMMING_DEV_SERVER_URL;
const rendererDir = join(__dirname, '..', 'renderer');
const trustedOrigins = devServerUrl ? [APP_ORIGIN, originOf(devServerUrl)] : [APP_ORIGIN];

protocol.registerSchemesAsPrivileged([
  { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } },
]);

if (!app.requestSingleInstanceLock()) app.quit();

function serveRenderer(): void {
  protocol.handle(APP_SCHEME, async (request) => {
    const asset = resolveRendererAsset(new URL(request.url).pathname, rendererDir);
    if (asset.kind === 'refused') return new Response(asset.reason, { status: asset.status });
    const file = await net.fetch(pathToFileURL(asset.path).toString());
    return new Response(file.body, {
      status: file.status,
      headers: { 'Content-Type': asset.contentType, ...RENDERER_SECURITY_HEADERS },
    });
  });
}

function createMainWindow(): BrowserWindow {
  const window = new BrowserWindow(mainWindowOptions(join(__dirname, '..', 'preload', 'index.cjs')));
  window.once('ready-to-show', () => window.show());
  void window.loadURL(devServerUrl ?? APP_ENTRY_URL);
  return window;
}

async function start(): Promise<void> {
  await app.whenReady();
  denyAllPermissions(session.defaultSession);
  serveRenderer();

  const secrets = await openSafeStorageSecretStore({ safeStorage, userDataPath: app.getPath('userData') });
  if (!secrets.ok) {
    dialog.showErrorBox('LeMMing Desktop cannot read its secrets', secrets.error);
    app.exit(1);
    return;
  }
  const secretStore = secrets.value.store;
  const logError = (context: string, error: unknown) => console.error(`[engine] ${context}:`, error);
  const appInfo = {
    name: app.getName(),
    version: app.getVersion(),
    platform: process.platform,
    runtime: {
      node: process.versions.node,
      electron: process.versions.electron ?? null,
      chrome: process.versions.chrome ?? null,
      sqlite: sqliteVersion(),
    },
  };
  const trustFile = join(app.getPath('userData'), 'trust.json');
  const workerOptions = engineWorkerOptions({
    appInfo,
    secretLocation: secretStore.location,
    host: {
      demoOrgSource: app.isPackaged
        ? join(process.resourcesPath, 'demo-org')
        : join(app.getAppPath(), 'examples', 'demo-org'),
      userOrgsFolder: join(app.getPath('documents'), 'LeMMing'),
      trustFile,
    },
  });
  // Pings only (docs/ARCHITECTURE.md, “The path of an IPC request”): every window of the app hears them and pulls what it needs.
  const broadcast = (name: string, payload: unknown) => {
    for (const window of BrowserWindow.getAllWindows())
      window.webContents.send(EVENT_CHANNEL, { name, payload });
  };
  const showDialog = async <T extends { canceled: boolean }>(
    open: (window: BrowserWindow | null) => Promise<T>,
  ): Promise<T> => open(BrowserWindow.getFocusedWindow());
  // The engine runs in its own thread (engine-worker): a long import or query never holds up the
  // windows or IPC. Main keeps what only it can do: the dialogs, safeStorage and its own environment,
  // of which the engine thread gets a minimal base and, asked by name, the variables granted to its org.
  const engine = await EngineThread.start(
    () => new Worker(join(__dirname, 'engine-worker.cjs'), workerOptions),
    {
      secretStore,
      trust: new TrustStore(trustFile),
      env: process.env,
      pickFolder: async () => {
        const options = { title: 'Open an org folder', properties: ['openDirectory' as const] };
        const result = await showDialog((window) =>
          window ? dialog.showOpenDialog(window, options) : dialog.showOpenDialog(options),
        );
        return result.canceled ? null : (result.filePaths[0] ?? null);
      },
      pickExportFile: async (suggestedName) => {
        const options = {
          title: 'Export the timeline',
          defaultPath: suggestedName,
          filters: [{ name: 'JSON Lines', extensions: ['jsonl'] }],
        };
        const result = await showDialog((window) =>
          window ? dialog.showSaveDialog(window, options) : dialog.showSaveDialog(options),
        );
        return result.canceled ? null : (result.filePath ?? null);
      },
      // Only web pages: the engine checked the address, and main does not open anything else either.
      openExternal: async (url) => {
        if (!/^https?:\/\//i.test(url)) throw new Error('only web pages are opened');
        await shell.openExternal(url);
      },
      pickImportFile: async () => {
        const options = {
          title: 'Import events into the timeline',
          properties: ['openFile' as const],
          filters: [{ name: 'JSON Lines', extensions: ['jsonl'] }],
        };
        const result = await showDialog((window) =>
          window ? dialog.showOpenDialog(window, options) : dialog.showOpenDialog(options),
        );
        return result.canceled ? null : (result.filePaths[0] ?? null);
      },
      onEvent: broadcast,
      logError,
    },
  );
  // Quitting stops the run first: a turn still waiting on its model is cancelled and recorded as such,
  // and the timeline is closed cleanly, before the app exits.
  let engineClosed = false;
  app.on('before-quit', (event) => {
    if (engineClosed) return;
    event.preventDefault();
    void engine.dispose().finally(() => {
      engineClosed = true;
      app.quit();
    });
  });

  // The app's own updates live here, beside electron-updater; main answers their channels itself.
  const updates = await UpdateController.create({
    updater: await appUpdater(),
    preference: updatePreferenceIn(app.getPath('userData')),
    onChange: (status) => broadcast('updates.changed', status),
    logError: (error) => console.error('[updates]', error),
  });

  bindIpc(
    ipcMain,
    createRelay({ 'app.info': async () => ok(appInfo), ...updateHandlers(updates) }, engine.dispatch, {
      logError: (channel, error) => console.error(`[ipc] ${channel} failed:`, error),
    }),
    trustedOrigins,
  );

  createMainWindow();
  updates.start();
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) createMainWindow();
  });
}

/** electron-updater, in an installed app that knows its GitHub Releases; never in a developer checkout. */
async function appUpdater(): Promise<Updater | { offBecause: 'development' | 'no-update-source' }> {
  if (!app.isPackaged) return { offBecause: 'development' };
  if (!(await hasUpdateSource(process.resourcesPath))) return { offBecause: 'no-update-source' };
  const { autoUpdater } = await import('electron-updater');
  return autoUpdater;
}

app.on('window-all-closed', () => {
  if (process.platform !== 'darwin') app.quit();
});
// Every web contents, the main window's included, gets the navigation and window-open guards.
app.on('web-contents-created', (_event, contents) => {
  guardNavigation(contents, APP_ORIGIN, (url) => void shell.openExternal(url));
});

void start();
