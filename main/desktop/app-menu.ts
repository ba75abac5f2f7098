import type { AppInfo } from '../../engine/api/schemas';
import { MAIN_VIEWS, type AppView, type RecentOrg } from '../../engine/api/desktop-schemas';

/** What the menu's own items do; the Edit and Window items are the OS's standard roles. */
export interface MenuActions {
  openOrg(): void;
  openRecent(path: string): void;
  newOrg(): void;
  closeOrg(): void;
  exportOrg(): void;
  importBundle(): void;
  importIntoOrg(): void;
  run(): void;
  step(): void;
  stop(): void;
  go(view: AppView): void;
  openUserGuide(): void;
  showLogs(): void;
  copyDiagnostics(): void;
  about(): void;
}

export interface MenuState {
  platform: NodeJS.Platform;
  appName: string;
  /** A packaged build offers the developer tools only when the person turned them on in Settings. */
  developerTools: boolean;
  orgOpen: boolean;
  running: boolean;
  recent: RecentOrg[];
}

/** The structure of Electron's `MenuItemConstructorOptions` this menu uses, so it is built and tested without Electron. */
export interface MenuItem {
  label?: string;
  role?: string;
  type?: 'separator' | 'submenu';
  accelerator?: string;
  enabled?: boolean;
  click?: () => void;
  submenu?: MenuItem[];
}

const separator: MenuItem = { type: 'separator' };

/** The application menu on every OS: File, Edit, Run, View, Window, Help (and the app menu on macOS). */
export function appMenuTemplate(state: MenuState, actions: MenuActions): MenuItem[] {
  const mac = state.platform === 'darwin';
  const about: MenuItem = { label: `About ${state.appName}`, click: actions.about };
  const settings: MenuItem = {
    label: 'Settings…',
    accelerator: 'CmdOrCtrl+,',
    click: () => actions.go('settings'),
  };
  const appMenu: MenuItem = {
    label: state.appName,
    submenu: [
      about,
      separator,
      settings,
      separator,
      { role: 'services' },
      separator,
      { role: 'hide' },
      { role: 'hideOthers' },
      { role: 'unhide' },
      separator,
      { role: 'quit' },
    ],
  };
  const file: MenuItem = {
    label: 'File',
    submenu: [
      { label: 'Open Org…', accelerator: 'CmdOrCtrl+O', click: actions.openOrg },
      { label: 'Open Recent', submenu: recentItems(state.recent, actions) },
      { label: 'New Org…', accelerator: 'CmdOrCtrl+N', click: actions.newOrg },
      separator,
      { label: 'Import Org from Bundle…', click: actions.importBundle },
      { label: 'Import Bundle into This Org…', enabled: state.orgOpen, click: actions.importIntoOrg },
      { label: 'Export Org…', enabled: state.orgOpen, click: actions.exportOrg },
      separator,
      { label: 'Close Org', enabled: state.orgOpen, click: actions.closeOrg },
      ...(mac ? [] : [separator, settings, separator, { role: 'quit', label: 'Quit' }]),
    ],
  };
  const run: MenuItem = {
    label: 'Run',
    submenu: [
      {
        label: 'Run',
        accelerator: 'CmdOrCtrl+R',
        enabled: state.orgOpen && !state.running,
        click: actions.run,
      },
      {
        label: 'Step One Tick',
        accelerator: 'CmdOrCtrl+T',
        enabled: state.orgOpen && !state.running,
        click: actions.step,
      },
      {
        label: 'Stop',
        accelerator: 'CmdOrCtrl+.',
        enabled: state.orgOpen && state.running,
        click: actions.stop,
      },
    ],
  };
  const view: MenuItem = {
    label: 'View',
    submenu: [
      ...MAIN_VIEWS.map((item): MenuItem => ({
        label: item.label,
        accelerator: `CmdOrCtrl+${item.key}`,
        enabled: state.orgOpen,
        click: () => actions.go(item.view),
      })),
      separator,
      { role: 'resetZoom' },
      { role: 'zoomIn' },
      { role: 'zoomOut' },
      separator,
      { role: 'togglefullscreen' },
      ...(state.developerTools ? [separator, { role: 'reload' }, { role: 'toggleDevTools' }] : []),
    ],
  };
  const help: MenuItem = {
    role: 'help',
    label: 'Help',
    submenu: [
      { label: 'User Guide', click: actions.openUserGuide },
      separator,
      { label: 'Show Logs', click: actions.showLogs },
      { label: 'Copy Diagnostics…', click: actions.copyDiagnostics },
      ...(mac ? [] : [separator, about]),
    ],
  };
  return [
    ...(mac ? [appMenu] : []),
    file,
    { label: 'Edit', role: 'editMenu' },
    run,
    view,
    { label: 'Window', role: 'windowMenu' },
    help,
  ];
}

function recentItems(recent: RecentOrg[], actions: MenuActions): MenuItem[] {
  if (recent.length === 0) return [{ label: 'No orgs opened yet', enabled: false }];
  return recent.map((org) => ({
    label: org.missing ? `${org.name} (folder not found)` : org.name,
    enabled: !org.missing,
    click: () => actions.openRecent(org.path),
  }));
}

/** What the About box says: the app's version and what it is built on, and the open org's folder. */
export function aboutText(info: AppInfo, orgPath: string | null): { title: string; detail: string } {
  const lines = [
    `Version ${info.version}`,
    '',
    ...(info.runtime.electron ? [`Electron ${info.runtime.electron}`] : []),
    `Node ${info.runtime.node}`,
    ...(info.runtime.chrome ? [`Chrome ${info.runtime.chrome}`] : []),
    `SQLite ${info.runtime.sqlite}`,
    '',
    orgPath ? `Open org: ${orgPath}` : 'No org is open.',
  ];
  return { title: info.name, detail: lines.join('\n') };
}
