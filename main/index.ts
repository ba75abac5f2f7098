import {
  app,
  BrowserWindow,
  crashReporter,
  dialog,
  ipcMain,
  net,
  protocol,
  safeStorage,
  session,
  shell,
} from 'electron';
import { writeFile } from 'node:fs/promises';
import { release } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { pathToFileURL } from 'node:url';
import { EVENT_CHANNEL, type EventName } from '../engine/api/events';
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
import { openAppLog } from './desktop/app-log';
import { crashReportsNotYetShown } from './desktop/crash-reports';
import { DesktopApp } from './desktop/desktop-app';
import { desktopHandlers } from './desktop/desktop-handlers';
import { desktopSettingsIn } from './desktop/desktop-settings';
import { electronDesktopShell } from './desktop/electron-desktop-shell';
import { LINK_SCHEME } from './desktop/launch-arguments';
import { recentOrgsIn } from './desktop/recent-orgs';
import { SecretRedaction } from './desktop/secret-redaction';
import { smokeReportPath, smokeTest } from './desktop/smoke-test';

/** Set by `npm run dev`: the Vite dev server that serves the renderer with hot reload. */
const devServerUrl = app.isPackaged ? undefined : process.env.LEMMING_DEV_SERVER_URL;
const rendererDir = join(__dirname, '..', 'renderer');
const trustedOrigins = devServerUrl ? [APP_ORIGIN, originOf(devServerUrl)] : [APP_ORIGIN];

protocol.registerSchemesAsPrivileged([
  { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } },
]);

// Crash reports stay on this computer: they are offered to the person on the next start, never uploaded.
crashReporter.start({ uploadToServer: false });

// One app at a time: a second launch hands its arguments to this one (`second-instance` below) and ends.
const firstInstance = app.requestSingleInstanceLock();
if (!firstInstance) app.quit();
app.setAsDefaultProtocolClient(LINK_SCHEME);

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

let mainWindow: BrowserWindow | null = null;
/** A packaged build offers the developer tools only when Settings or `--developer-tools` ask for them. */
let developerTools = !app.isPackaged || process.argv.includes('--developer-tools');

function createMainWindow(desktop: DesktopApp): BrowserWindow {
  const window = new BrowserWindow(
    mainWindowOptions(join(__dirname, '..', 'preload', 'index.cjs'), { devTools: developerTools }),
  );
  mainWindow = window;
  window.once('ready-to-show', () => window.show());
  void window.loadURL(devServerUrl ?? APP_ENTRY_URL);
  // With a run going on, closing the window may leave the org running in the background (asked once).
  let closing = false;
  window.on('close', (event) => {
    if (closing) return;
    event.preventDefault();
    void desktop.keepRunningOnClose().then((keep) => {
      if (keep) return window.hide();
      closing = true;
      window.close();
    });
  });
  window.on('closed', () => {
    if (mainWindow === window) mainWindow = null;
  });
  return window;
}

/** Where the app's own files are: beside the bundles in a checkout, in resources when installed. */
const resourceOf = (name: string) =>
  app.isPackaged ? join(process.resourcesPath, name) : join(app.getAppPath(), ...resourceInCheckout[name]!);
const resourceInCheckout: Record<string, string[]> = {
  'icon.png': ['build', 'icon.png'],
  'USER-GUIDE.md': ['docs', 'USER-GUIDE.md'],
  badges: ['build', 'badges'],
};

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
  // One log for main and the engine thread, in the OS's log folder, every line redacted.
  const redaction = new SecretRedaction(secretStore);
  await redaction.refresh();
  const log = openAppLog({ folder: app.getPath('logs'), redact: redaction.redactText });
  log.info('app', `started ${app.getName()} ${app.getVersion()} on ${process.platform} ${release()}`);
  process.on('uncaughtException', (error) => log.error('main: an error nothing handled', error));
  process.on('unhandledRejection', (error) => log.error('main: a rejection nothing handled', error));
  const logError = (context: string, error: unknown) => log.error(context, error);
  let desktop: DesktopApp | null = null;
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
      templatesFolder: app.isPackaged
        ? join(process.resourcesPath, 'templates')
        : join(app.getAppPath(), 'templates'),
      userOrgsFolder: join(app.getPath('documents'), 'LeMMing'),
      trustFile,
    },
  });
  // Pings only (docs/ARCHITECTURE.md, “The path of an IPC request”): every window of the app hears them and pulls what it needs.
  const broadcast = (name: EventName, payload: unknown) => {
    for (const window of BrowserWindow.getAllWindows())
      window.webContents.send(EVENT_CHANNEL, { name, payload });
    desktop?.onEngineEvent(name, payload);
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
      pickFolder: async ({ title, forNewOrg }) => {
        const options = forNewOrg
          ? {
              title: title ?? 'Choose an empty folder for the new org',
              properties: ['openDirectory' as const, 'createDirectory' as const],
            }
          : { title: title ?? 'Open an org folder', properties: ['openDirectory' as const] };
        const result = await showDialog((window) =>
          window ? dialog.showOpenDialog(window, options) : dialog.showOpenDialog(options),
        );
        return result.canceled ? null : (result.filePaths[0] ?? null);
      },
      pickExportFile: async (suggestedName) => {
        const bundle = suggestedName.endsWith('.lemming.zip');
        const options = {
          title: bundle ? 'Export the org as a bundle' : 'Export the timeline',
          defaultPath: suggestedName,
          filters: [
            bundle
              ? { name: 'LeMMing bundle', extensions: ['zip'] }
              : { name: 'JSON Lines', extensions: ['jsonl'] },
          ],
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
      pickImportFile: async (kind) => {
        const options = {
          title: kind === 'bundle' ? 'Import an org from a bundle' : 'Import events into the timeline',
          properties: ['openFile' as const],
          filters: [
            kind === 'bundle'
              ? { name: 'LeMMing bundle', extensions: ['zip'] }
              : { name: 'JSON Lines', extensions: ['jsonl'] },
          ],
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
  // The app's own updates live here, beside electron-updater; main answers their channels itself.
  const updates = await UpdateController.create({
    updater: await appUpdater(),
    preference: updatePreferenceIn(app.getPath('userData')),
    onChange: (status) => broadcast('updates.changed', status),
    logError: (error) => log.error('updates', error),
  });

  const userData = app.getPath('userData');
  const desktopShell = electronDesktopShell({
    window: () => mainWindow,
    createWindow: (): BrowserWindow => createMainWindow(desktopApp),
    iconPath: resourceOf('icon.png'),
    badgesFolder: resourceOf('badges'),
    userGuidePath: resourceOf('USER-GUIDE.md'),
  });
  const desktopApp: DesktopApp = new DesktopApp({
    shell: desktopShell,
    dispatch: engine.dispatch,
    settings: desktopSettingsIn(userData),
    recent: recentOrgsIn(userData),
    log,
    appInfo,
    system: { platform: process.platform, release: release(), arch: process.arch },
    redaction: () => redaction.current(),
    closeEngine: () => engine.dispose(),
    forceCloseEngine: () => engine.terminate(),
  });
  desktop = desktopApp;

  bindIpc(
    ipcMain,
    createRelay(
      { 'app.info': async () => ok(appInfo), ...updateHandlers(updates), ...desktopHandlers(desktopApp) },
      engine.dispatch,
      { logError: (channel, error) => log.error(`ipc ${channel}`, error) },
    ),
    trustedOrigins,
  );

  // Quitting asks first while a run goes on, stops it (a turn still waiting on its model is cancelled
  // and recorded as such) and closes the timeline; an engine that does not close in time is ended anyway.
  let readyToQuit = false;
  app.on('before-quit', (event) => {
    if (readyToQuit) return;
    event.preventDefault();
    void desktopApp.quit().then((quitting) => {
      if (!quitting) return;
      readyToQuit = true;
      app.quit();
    });
  });
  app.on(
    'second-instance',
    (_event, argv, workingDirectory) => void desktopApp.secondLaunch(argv, workingDirectory),
  );
  // macOS hands a `lemming://` link to the running app this way, and a folder dropped on the dock icon.
  app.on('open-url', (event, url) => {
    event.preventDefault();
    void desktopApp.secondLaunch(['', url], process.cwd());
  });
  app.on('open-file', (event, path) => {
    event.preventDefault();
    void desktopApp.secondLaunch(['', path], process.cwd());
  });

  developerTools ||= (await desktopApp.settings()).developerTools;
  createMainWindow(desktopApp);
  await desktopApp.start(process.argv, process.cwd());
  // The installers workflow's smoke test of the packaged app: its report, then the app ends.
  const smokeReport = smokeReportPath(process.argv);
  if (smokeReport) {
    const report = await smokeTest({
      shell: desktopShell,
      openOrg: async () => {
        const opened = await engine.dispatch('firstRun.openDemo', {});
        if (!opened.ok) throw new Error(opened.error.message);
      },
      refresh: () => desktopApp.readAttention(),
    });
    await writeFile(smokeReport, JSON.stringify(report, null, 2));
    app.exit(report.passed ? 0 : 1);
    return;
  }
  updates.start();
  app.on('activate', () => {
    if (!mainWindow) createMainWindow(desktopApp);
    else mainWindow.show();
  });
  void offerCrashReports();
}

/** Crash reports written since the person was last told: offered once, to open where they are. */
async function offerCrashReports(): Promise<void> {
  const reports = await crashReportsNotYetShown(app.getPath('crashDumps'), app.getPath('userData'));
  const [newest] = reports;
  if (!newest) return;
  const window = mainWindow;
  const question = {
    type: 'warning' as const,
    message: 'LeMMing Desktop closed unexpectedly last time.',
    detail:
      'A crash report was saved on this computer; nothing was sent anywhere. You can send it with your question, together with Help → Copy Diagnostics.',
    buttons: ['Show the report', 'Not now'],
    cancelId: 1,
  };
  const answer = window
    ? await dialog.showMessageBox(window, question)
    : await dialog.showMessageBox(question);
  if (answer.response === 0) shell.showItemInFolder(newest);
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

if (firstInstance) void start();
