import { app, BrowserWindow, dialog, ipcMain, net, protocol, safeStorage, session, shell } from 'electron';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { EVENT_CHANNEL } from '../engine/api/events';
import { sqliteVersion } from '../engine/timeline/sqlite';
import { EngineHost } from './engine-host/engine-host';
import { bindIpc } from './ipc/bind';
import { createDispatch } from './ipc/dispatch';
import { createHandlers } from './ipc/handlers';
import { APP_ENTRY_URL, APP_ORIGIN, APP_SCHEME, resolveRendererAsset } from './protocol/app-protocol';
import { openSafeStorageSecretStore } from './secrets/safe-storage-secret-store';
import { RENDERER_SECURITY_HEADERS } from './security/csp';
import { guardNavigation } from './security/navigation';
import { denyAllPermissions } from './security/permissions';
import { originOf } from './security/sender';
import { hasUpdateSource } from './updates/update-feed';
import { UpdateController, type Updater } from './updates/update-controller';
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
    dialog.showErrorBox('LeMMing Desktop cannot read its secrets', secrets.message);
    app.exit(1);
    return;
  }
  const logError = (context: string, error: unknown) => console.error(`[engine] ${context}:`, error);
  const host = await EngineHost.create({
    secretStore: secrets.store,
    demoOrgSource: app.isPackaged
      ? join(process.resourcesPath, 'demo-org')
      : join(app.getAppPath(), 'examples', 'demo-org'),
    userOrgsFolder: join(app.getPath('documents'), 'LeMMing'),
    env: process.env,
    logError,
  });
  // Pings only (DESIGN.md §5): every window of the app hears them and pulls what it needs.
  host.events.on((name, payload) => {
    for (const window of BrowserWindow.getAllWindows())
      window.webContents.send(EVENT_CHANNEL, { name, payload });
  });
  // Quitting stops the run first: a turn still waiting on its model is cancelled and recorded as such,
  // and the timeline is closed cleanly, before the app exits.
  let hostClosed = false;
  app.on('before-quit', (event) => {
    if (hostClosed) return;
    event.preventDefault();
    void host.dispose().finally(() => {
      hostClosed = true;
      app.quit();
    });
  });

  const updates = await UpdateController.create({
    updater: await appUpdater(),
    preference: updatePreferenceIn(app.getPath('userData')),
    onChange: (status) => host.events.emit('updates.changed', status),
    logError: (error) => console.error('[updates]', error),
  });

  const handlers = createHandlers({
    host,
    updates,
    appInfo: () => ({
      name: app.getName(),
      version: app.getVersion(),
      platform: process.platform,
      runtime: {
        node: process.versions.node,
        electron: process.versions.electron ?? null,
        chrome: process.versions.chrome ?? null,
        sqlite: sqliteVersion(),
      },
    }),
    pickFolder: async () => {
      const focused = BrowserWindow.getFocusedWindow();
      const options = { title: 'Open an org folder', properties: ['openDirectory' as const] };
      const result = focused
        ? await dialog.showOpenDialog(focused, options)
        : await dialog.showOpenDialog(options);
      return result.canceled ? null : (result.filePaths[0] ?? null);
    },
    pickExportFile: async (suggestedName) => {
      const focused = BrowserWindow.getFocusedWindow();
      const options = {
        title: 'Export the timeline',
        defaultPath: suggestedName,
        filters: [{ name: 'JSON Lines', extensions: ['jsonl'] }],
      };
      const result = focused
        ? await dialog.showSaveDialog(focused, options)
        : await dialog.showSaveDialog(options);
      return result.canceled ? null : (result.filePath ?? null);
    },
  });
  bindIpc(
    ipcMain,
    createDispatch(handlers, {
      logError: (channel, error) => console.error(`[ipc] ${channel} failed:`, error),
      redact: (value) => host.redact(value),
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
