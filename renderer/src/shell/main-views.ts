/** The views the navigation bar offers, in order; Agent opens from the org instead. The View menu offers the same. */
export { MAIN_VIEWS } from '../../../engine/api/desktop-schemas';

export const isMac = typeof navigator !== 'undefined' && /Mac/i.test(navigator.platform);

export function shortcutLabel(key: string): string {
  return isMac ? `⌘${key}` : `Ctrl+${key}`;
}
