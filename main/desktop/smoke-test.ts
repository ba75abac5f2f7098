import type { MenuItem } from './app-menu';
import type { DesktopShell } from './desktop-shell';

/** The menus every OS must show (the standard Edit and Window roles come with them). */
const MENUS_EXPECTED = ['File', 'Run', 'View', 'Help'];
const DEVELOPER_ROLES = ['toggledevtools', 'reload', 'forcereload'];

/** What `--smoke-test` found of the app's menu, a notification and the tray, as the OS holds them. */
export interface SmokeReport {
  passed: boolean;
  menu: { top: string[]; missing: string[]; developerTools: boolean };
  notification: { outcome: string; error: string | null };
  tray: { created: boolean; menu: string[] };
  /** What went wrong opening the org or reading it, if anything did. */
  error: string | null;
}

export interface SmokeTestSteps {
  shell: DesktopShell;
  /** Opens an org (the app's demo), after which the app sets its tray. */
  openOrg(): Promise<void>;
  /** The app reads the org again and sets its menu and tray. */
  refresh(): Promise<void>;
}

/**
 * The packaged app's smoke test on each OS (`--smoke-test=<report.json>`, run by the installers
 * workflow): the menu as the OS holds it has File, Run, View and Help and no developer tools, a
 * notification is shown without an error, and with an org open the tray exists with its menu.
 */
export async function smokeTest({ shell, openOrg, refresh }: SmokeTestSteps): Promise<SmokeReport> {
  const everything = (items: MenuItem[]): MenuItem[] =>
    items.flatMap((item) => [item, ...everything(item.submenu ?? [])]);
  const applied = shell.appliedMenu();
  const top = applied.map((item) => item.label ?? '');
  const menu = {
    top,
    missing: MENUS_EXPECTED.filter((label) => !top.includes(label)),
    developerTools: everything(applied).some((item) =>
      DEVELOPER_ROLES.includes((item.role ?? '').toLowerCase()),
    ),
  };

  const notification = await shell
    .notify(
      { title: 'LeMMing Desktop', body: 'This is how the app tells you when your org needs you.' },
      { click: () => undefined },
    )
    .then(
      (outcome) => ({ outcome, error: null }),
      (error: unknown) => ({
        outcome: 'failed',
        error: error instanceof Error ? error.message : String(error),
      }),
    );

  const error = await openOrg()
    .then(refresh)
    .then(
      () => null,
      (failure: unknown) => (failure instanceof Error ? failure.message : String(failure)),
    );
  const trayNow = shell.appliedTray();
  const tray = {
    created: trayNow !== null,
    menu: (trayNow?.menu ?? []).flatMap((item) => (item.label ? [item.label] : [])),
  };

  return {
    passed:
      error === null &&
      menu.missing.length === 0 &&
      !menu.developerTools &&
      notification.error === null &&
      tray.created &&
      tray.menu.includes('Open LeMMing Desktop'),
    menu,
    notification,
    tray,
    error,
  };
}

/** The switch that asks for the smoke test, and where its report goes. */
export function smokeReportPath(argv: readonly string[]): string | null {
  const value = argv.find((arg) => arg.startsWith('--smoke-test='))?.slice('--smoke-test='.length);
  return value ? value : null;
}
