import { z } from 'zod';

/** The kinds of news the app tells the person about with an OS notification, each with its own switch. */
export const NoticeKind = z.enum(['approval', 'failing', 'run_ended', 'credits', 'sign_in']);
export type NoticeKind = z.infer<typeof NoticeKind>;

/**
 * The app's own desktop preferences (`<userData>/desktop.json`), kept by main: which notifications
 * are on, whether a running org goes on when the window is closed (null: not asked yet), and whether
 * a packaged build offers the developer tools.
 */
export const DesktopSettings = z.object({
  notify: z.record(NoticeKind, z.boolean()),
  keepRunningInBackground: z.boolean().nullable(),
  developerTools: z.boolean(),
});
export type DesktopSettings = z.infer<typeof DesktopSettings>;

export const UpdateDesktopSettingsInput = z.strictObject({
  notify: z.partialRecord(NoticeKind, z.boolean()).optional(),
  keepRunningInBackground: z.boolean().optional(),
  developerTools: z.boolean().optional(),
});
export type UpdateDesktopSettingsInput = z.infer<typeof UpdateDesktopSettingsInput>;

/** An org the person opened before, newest first; `missing` when its folder is gone. */
export const RecentOrg = z.object({
  path: z.string(),
  name: z.string(),
  openedAt: z.string(),
  pinned: z.boolean(),
  missing: z.boolean(),
});
export type RecentOrg = z.infer<typeof RecentOrg>;

export const PinRecentOrgInput = z.strictObject({ path: z.string().min(1), pinned: z.boolean() });
export const ForgetRecentOrgInput = z.strictObject({ path: z.string().min(1) });

/** The app's views, as the renderer's navigation knows them. */
export const AppView = z.enum(['org', 'agent', 'timeline', 'tools', 'settings', 'inspector', 'inbox']);
export type AppView = z.infer<typeof AppView>;

/** A place in the app a menu item or a notification leads to: a view, an agent's page, an MCP server's card. */
export const AppPlace = z.object({
  view: AppView,
  agent: z.string().optional(),
  server: z.string().optional(),
  /** A dialog to open there: File → Export Org… opens the bundle export. */
  open: z.enum(['export-bundle']).optional(),
});
export type AppPlace = z.infer<typeof AppPlace>;

/** The views the nav bar and the View menu offer, in order, each with the digit that opens it with Ctrl (Cmd on macOS). */
export const MAIN_VIEWS: readonly { view: AppView; label: string; key: string }[] = [
  { view: 'org', label: 'Org', key: '1' },
  { view: 'timeline', label: 'Timeline', key: '2' },
  { view: 'tools', label: 'Tool Store', key: '3' },
  { view: 'settings', label: 'Settings', key: '4' },
];
