import type { View } from '../stores/navigation-store';

export interface MainView {
  view: View;
  label: string;
  /** The digit that opens it with Ctrl (Cmd on macOS). */
  key: string;
}

/** The views the navigation bar offers, in order; Agent opens from the org instead. */
export const MAIN_VIEWS: MainView[] = [
  { view: 'org', label: 'Org', key: '1' },
  { view: 'timeline', label: 'Timeline', key: '2' },
  { view: 'tools', label: 'Tool Store', key: '3' },
  { view: 'settings', label: 'Settings', key: '4' },
];

export const isMac = typeof navigator !== 'undefined' && /Mac/i.test(navigator.platform);

export function shortcutLabel(key: string): string {
  return isMac ? `⌘${key}` : `Ctrl+${key}`;
}
