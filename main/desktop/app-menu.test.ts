import { describe, expect, it } from 'vitest';
import { aboutText, appMenuTemplate, type MenuActions, type MenuItem, type MenuState } from './app-menu';

function recordingActions() {
  const calls: string[] = [];
  const record =
    (name: string) =>
    (...args: unknown[]) =>
      calls.push([name, ...args].join(' '));
  const actions: MenuActions = {
    openOrg: record('openOrg'),
    openRecent: record('openRecent'),
    newOrg: record('newOrg'),
    closeOrg: record('closeOrg'),
    exportOrg: record('exportOrg'),
    importBundle: record('importBundle'),
    importIntoOrg: record('importIntoOrg'),
    run: record('run'),
    step: record('step'),
    stop: record('stop'),
    go: record('go'),
    openUserGuide: record('openUserGuide'),
    showLogs: record('showLogs'),
    copyDiagnostics: record('copyDiagnostics'),
    about: record('about'),
  };
  return { actions, calls };
}

const state: MenuState = {
  platform: 'linux',
  appName: 'LeMMing Desktop',
  developerTools: false,
  orgOpen: true,
  running: false,
  recent: [
    { path: '/orgs/acme', name: 'acme', openedAt: '2026-11-27T10:00:00Z', pinned: true, missing: false },
    { path: '/orgs/gone', name: 'gone', openedAt: '2026-11-26T10:00:00Z', pinned: false, missing: true },
  ],
};

function everyItem(items: MenuItem[]): MenuItem[] {
  return items.flatMap((item) => [item, ...everyItem(item.submenu ?? [])]);
}

function find(items: MenuItem[], path: string[]): MenuItem {
  const [first, ...rest] = path;
  const item = items.find((candidate) => candidate.label === first);
  if (!item) throw new Error(`no menu item ${first}`);
  return rest.length === 0 ? item : find(item.submenu ?? [], rest);
}

describe('the application menu', () => {
  it('has File, Edit, Run, View, Window and Help, and the app menu first on macOS', () => {
    const { actions } = recordingActions();
    expect(appMenuTemplate(state, actions).map((item) => item.label)).toEqual([
      'File',
      'Edit',
      'Run',
      'View',
      'Window',
      'Help',
    ]);
    expect(appMenuTemplate({ ...state, platform: 'darwin' }, actions)[0]?.label).toBe('LeMMing Desktop');
  });

  it('offers no developer tools unless the person turned them on', () => {
    const { actions } = recordingActions();
    const roles = (developerTools: boolean) =>
      everyItem(appMenuTemplate({ ...state, developerTools }, actions)).map((item) => item.role);
    expect(roles(false)).not.toContain('toggleDevTools');
    expect(roles(false)).not.toContain('reload');
    expect(roles(true)).toContain('toggleDevTools');
  });

  it('has no link to electronjs.org or any other site', () => {
    const { actions } = recordingActions();
    const labels = everyItem(appMenuTemplate(state, actions)).map((item) => item.label ?? '');
    expect(labels.filter((label) => /electron|learn more|documentation/i.test(label))).toEqual([]);
  });

  it('runs what each item says', () => {
    const { actions, calls } = recordingActions();
    const menu = appMenuTemplate(state, actions);
    for (const path of [
      ['File', 'Open Org…'],
      ['File', 'Open Recent', 'acme'],
      ['File', 'New Org…'],
      ['File', 'Import Org from Bundle…'],
      ['File', 'Import Bundle into This Org…'],
      ['File', 'Export Org…'],
      ['File', 'Close Org'],
      ['Run', 'Run'],
      ['Run', 'Step One Tick'],
      ['View', 'Timeline'],
      ['File', 'Settings…'],
      ['Help', 'Show Logs'],
      ['Help', 'Copy Diagnostics…'],
      ['Help', 'About LeMMing Desktop'],
    ])
      find(menu, path).click?.();
    expect(calls).toEqual([
      'openOrg',
      'openRecent /orgs/acme',
      'newOrg',
      'importBundle',
      'importIntoOrg',
      'exportOrg',
      'closeOrg',
      'run',
      'step',
      'go timeline',
      'go settings',
      'showLogs',
      'copyDiagnostics',
      'about',
    ]);
  });

  it('offers Settings with Cmd+, in the app menu on macOS', () => {
    const { actions, calls } = recordingActions();
    const settings = find(appMenuTemplate({ ...state, platform: 'darwin' }, actions), [
      'LeMMing Desktop',
      'Settings…',
    ]);
    expect(settings.accelerator).toBe('CmdOrCtrl+,');
    settings.click?.();
    expect(calls).toEqual(['go settings']);
  });

  it('enables Run and Step while stopped, Stop while running, and nothing of a run without an org', () => {
    const { actions } = recordingActions();
    const enabled = (over: Partial<MenuState>) =>
      ['Run', 'Step One Tick', 'Stop'].map(
        (label) => find(appMenuTemplate({ ...state, ...over }, actions), ['Run', label]).enabled,
      );
    expect(enabled({})).toEqual([true, true, false]);
    expect(enabled({ running: true })).toEqual([false, false, true]);
    expect(enabled({ orgOpen: false })).toEqual([false, false, false]);
  });

  it('shows a recent org whose folder is gone as such, and cannot open it', () => {
    const { actions } = recordingActions();
    const gone = find(appMenuTemplate(state, actions), ['File', 'Open Recent', 'gone (folder not found)']);
    expect(gone.enabled).toBe(false);
  });
});

describe('the About box', () => {
  it('names the versions the app is built on and the open org', () => {
    const about = aboutText(
      {
        name: 'LeMMing Desktop',
        version: '1.4.0',
        platform: 'linux',
        runtime: { node: '22.20.0', electron: '39.2.0', chrome: '142.0', sqlite: '3.50.4' },
      },
      '/home/ann/orgs/acme',
    );
    expect(about.title).toBe('LeMMing Desktop');
    expect(about.detail).toBe(
      [
        'Version 1.4.0',
        '',
        'Electron 39.2.0',
        'Node 22.20.0',
        'Chrome 142.0',
        'SQLite 3.50.4',
        '',
        'Open org: /home/ann/orgs/acme',
      ].join('\n'),
    );
  });
});
