import type { AppPlace } from '../../engine/api/desktop-schemas';
import type { MenuItem } from './app-menu';

/**
 * What became of a notification: the OS said it was shown, notifications are not supported here, or the
 * OS said nothing either way within a few seconds (some never do). An OS that refuses it rejects.
 */
export type NoticeOutcome = 'shown' | 'not_supported' | 'no_word';

/**
 * What the desktop side of the app asks of the OS and its window, so its rules run and are tested
 * without Electron (electron-desktop-shell.ts is the real one; tests use a stand-in).
 */
export interface DesktopShell {
  /**
   * An OS notification; `click` runs when the person clicks it. With `answers`, it offers Allow once and
   * Deny buttons where the OS has them (macOS); elsewhere a click opens the approval card.
   */
  notify(
    notice: { title: string; body: string },
    handlers: { click: () => void; answers?: { allow: () => void; deny: () => void } },
  ): Promise<NoticeOutcome>;
  /** The count on the dock (macOS), the taskbar overlay (Windows) or the launcher (Linux); 0 clears it. */
  setBadge(count: number): void;
  /** The window's progress bar on the taskbar or dock, from 0 to 1, for long jobs; null removes it. */
  setProgress(fraction: number | null): void;
  setMenu(template: MenuItem[]): void;
  /** The application menu as the OS holds it now (for the smoke test). */
  appliedMenu(): MenuItem[];
  /** The tray or menu-bar icon with its menu; null removes it. */
  setTray(tray: { tooltip: string; menu: MenuItem[] } | null): void;
  /** The tray's menu as the OS holds it now; null when there is no tray (for the smoke test). */
  appliedTray(): { menu: MenuItem[] } | null;
  /** Shows the main window (creating it when there is none), brings it to the front and focuses it. */
  showWindow(): void;
  /** Hides the main window; the app and its run go on. */
  hideWindow(): void;
  windowFocused(): boolean;
  /** Takes the renderer to a place (a view, an agent). */
  navigate(place: AppPlace): void;
  /** Has the renderer offer a new org: the template gallery, over whatever it shows. */
  offerNewOrg(): void;
  /** A question with buttons; the index of the one chosen. */
  ask(question: { message: string; detail: string; buttons: string[]; cancelId: number }): Promise<number>;
  showMessage(message: { title: string; detail: string }): Promise<void>;
  showError(title: string, detail: string): void;
  pickFolder(title: string): Promise<string | null>;
  pickSaveFile(title: string, suggestedName: string): Promise<string | null>;
  showFileInFolder(path: string): void;
  openUserGuide(): void;
  /** Ends the app now, without asking again. */
  exit(): void;
}
