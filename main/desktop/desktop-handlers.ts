import { ok } from '../../engine/api/result';
import type { DesktopSettings, UpdateDesktopSettingsInput } from '../../engine/api/desktop-schemas';
import type { Handlers } from '../ipc/handlers';
import { desktopSettingsIn } from './desktop-settings';
import { recentOrgsIn, type RecentOrgs } from './recent-orgs';

/** The channels main answers itself about the app on this computer: its desktop preferences and recent orgs. */
export type DesktopChannel =
  'desktop.settings' | 'desktop.updateSettings' | 'recentOrgs.list' | 'recentOrgs.pin' | 'recentOrgs.forget';

export interface DesktopPreferences {
  settings(): Promise<DesktopSettings>;
  updateSettings(change: UpdateDesktopSettingsInput): Promise<DesktopSettings>;
  recent: RecentOrgs;
}

export function desktopHandlers(desktop: DesktopPreferences): Pick<Handlers, DesktopChannel> {
  return {
    'desktop.settings': async () => ok(await desktop.settings()),
    'desktop.updateSettings': async (change) => ok(await desktop.updateSettings(change)),
    'recentOrgs.list': async () => ok(await desktop.recent.list()),
    'recentOrgs.pin': async ({ path, pinned }) => ok(await desktop.recent.pin(path, pinned)),
    'recentOrgs.forget': async ({ path }) => ok(await desktop.recent.forget(path)),
  };
}

/** The preferences as files in `userDataPath`, for what has no DesktopApp (the test harnesses, the benchmark). */
export function desktopPreferencesIn(userDataPath: string): DesktopPreferences {
  const file = desktopSettingsIn(userDataPath);
  return {
    settings: () => file.read(),
    updateSettings: (change) => file.update(change),
    recent: recentOrgsIn(userDataPath),
  };
}
