import { app, dialog, Menu, nativeImage, Notification, shell, Tray } from 'electron';
import type { MenuItemConstructorOptions, BrowserWindow } from 'electron';
import { EVENT_CHANNEL } from '../../engine/api/events';
import { join } from 'node:path';
import type { MenuItem } from './app-menu';
import { overlayBadge, overlayBadgeFile } from './taskbar';
import type { DesktopShell, NoticeOutcome } from './desktop-shell';

/** How long a notification's outcome is waited for: some OSes never say it was shown. */
const NOTICE_WORD_MS = 5000;

export interface ElectronShellOptions {
  /** The main window now, if there is one; `createWindow` makes it when there is none. */
  window: () => BrowserWindow | null;
  createWindow: () => BrowserWindow;
  /** The icon the tray and notifications show. */
  iconPath: string;
  /** The Windows taskbar's overlay badges (build/badges: badge-1.png … badge-9-plus.png). */
  badgesFolder: string;
  /** The user guide shipped with the app. */
  userGuidePath: string;
}

/** The DesktopShell of the real app: Electron's menu, tray, notifications, dialogs and window. */
export function electronDesktopShell(options: ElectronShellOptions): DesktopShell {
  let tray: Tray | null = null;
  let trayMenu: Electron.Menu | null = null;
  // Notifications are kept until clicked or closed: one that is collected early loses its click handler.
  const shown = new Set<Notification>();
  const windowNow = () => {
    const window = options.window();
    return window && !window.isDestroyed() ? window : null;
  };
  const showWindow = () => {
    const window = windowNow() ?? options.createWindow();
    if (window.isMinimized()) window.restore();
    window.show();
    window.focus();
    return window;
  };
  const icon = () => nativeImage.createFromPath(options.iconPath);

  return {
    notify(notice, { click, answers }) {
      if (!Notification.isSupported()) return Promise.resolve('not_supported');
      const buttons = answers && process.platform === 'darwin';
      const notification = new Notification({
        title: notice.title,
        body: notice.body,
        icon: icon(),
        ...(buttons
          ? {
              actions: [
                { type: 'button' as const, text: 'Allow once' },
                { type: 'button' as const, text: 'Deny' },
              ],
            }
          : {}),
      });
      shown.add(notification);
      notification.on('click', () => {
        shown.delete(notification);
        click();
      });
      notification.on('action', (_event, index) => {
        shown.delete(notification);
        if (index === 0) answers?.allow();
        else answers?.deny();
      });
      notification.on('close', () => shown.delete(notification));
      return new Promise<NoticeOutcome>((resolve, reject) => {
        const quiet = setTimeout(() => resolve('no_word'), NOTICE_WORD_MS);
        quiet.unref();
        notification.once('show', () => {
          clearTimeout(quiet);
          resolve('shown');
        });
        // Windows says when it could not show one.
        notification.once('failed', (_event, error) => {
          clearTimeout(quiet);
          shown.delete(notification);
          reject(new Error(`the notification could not be shown: ${error}`));
        });
        notification.show();
      });
    },
    setBadge(count) {
      // macOS dock and Linux launchers (Unity count); Windows has no count badge: an overlay icon draws it.
      if (process.platform !== 'win32') return void app.setBadgeCount(count);
      const overlay = overlayBadge(count);
      windowNow()?.setOverlayIcon(
        overlay
          ? nativeImage.createFromPath(join(options.badgesFolder, overlayBadgeFile(overlay.badge)))
          : null,
        overlay?.description ?? '',
      );
    },
    setProgress: (fraction) => windowNow()?.setProgressBar(fraction ?? -1),
    setMenu: (template) => Menu.setApplicationMenu(Menu.buildFromTemplate(electronItems(template))),
    appliedMenu: () => ourItems(Menu.getApplicationMenu()?.items ?? []),
    setTray(next) {
      if (!next) {
        tray?.destroy();
        tray = null;
        trayMenu = null;
        return;
      }
      tray ??= new Tray(icon().resize({ width: 16, height: 16 }));
      tray.setToolTip(next.tooltip);
      trayMenu = Menu.buildFromTemplate(electronItems(next.menu));
      tray.setContextMenu(trayMenu);
    },
    appliedTray: () => (tray && !tray.isDestroyed() && trayMenu ? { menu: ourItems(trayMenu.items) } : null),
    showWindow: () => void showWindow(),
    hideWindow: () => windowNow()?.hide(),
    windowFocused: () => windowNow()?.isFocused() ?? false,
    navigate: (place) =>
      windowNow()?.webContents.send(EVENT_CHANNEL, { name: 'app.navigate', payload: place }),
    offerNewOrg: () => windowNow()?.webContents.send(EVENT_CHANNEL, { name: 'app.newOrg', payload: {} }),
    async ask(question) {
      const window = windowNow();
      const request = { type: 'question' as const, defaultId: 0, ...question };
      const answer = window
        ? await dialog.showMessageBox(window, request)
        : await dialog.showMessageBox(request);
      return answer.response;
    },
    async showMessage({ title, detail }) {
      const request = { type: 'info' as const, message: title, detail, icon: icon(), buttons: ['OK'] };
      const window = windowNow();
      await (window ? dialog.showMessageBox(window, request) : dialog.showMessageBox(request));
    },
    showError: (title, detail) => dialog.showErrorBox(title, detail),
    async pickFolder(title) {
      const request = { title, properties: ['openDirectory' as const, 'createDirectory' as const] };
      const window = windowNow();
      const result = await (window ? dialog.showOpenDialog(window, request) : dialog.showOpenDialog(request));
      return result.canceled ? null : (result.filePaths[0] ?? null);
    },
    async pickSaveFile(title, suggestedName) {
      const request = { title, defaultPath: suggestedName, filters: [{ name: 'Zip', extensions: ['zip'] }] };
      const window = windowNow();
      const result = await (window ? dialog.showSaveDialog(window, request) : dialog.showSaveDialog(request));
      return result.canceled ? null : (result.filePath ?? null);
    },
    showFileInFolder: (path) => shell.showItemInFolder(path),
    openUserGuide: () => void shell.openPath(options.userGuidePath),
    exit: () => app.exit(0),
  };
}

/** Electron's built menu items in the shape the app's menus are written in. */
function ourItems(items: Electron.MenuItem[]): MenuItem[] {
  return items.map((item) => ({
    label: item.label,
    ...(item.role ? { role: String(item.role) } : {}),
    ...(item.submenu ? { submenu: ourItems(item.submenu.items) } : {}),
  }));
}

function electronItems(items: MenuItem[]): MenuItemConstructorOptions[] {
  return items.map((item) => {
    const { submenu, role, ...rest } = item;
    return {
      ...rest,
      ...(role ? { role: role as MenuItemConstructorOptions['role'] } : {}),
      ...(submenu ? { submenu: electronItems(submenu) } : {}),
    } as MenuItemConstructorOptions;
  });
}
