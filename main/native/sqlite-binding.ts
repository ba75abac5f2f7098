import { existsSync } from 'node:fs';
import { join } from 'node:path';

export const ELECTRON_SQLITE_FILE = 'better_sqlite3.node';

/**
 * Where the Electron-ABI build of better-sqlite3 lives: in the installed app's resources, or in
 * build/electron-native when running from a checkout (made by `npm run build:electron-sqlite`).
 * node_modules keeps the Node-ABI build for tests and the CLI.
 */
export function electronSqliteBindingPath(options: {
  isPackaged: boolean;
  resourcesPath: string;
  appPath: string;
  arch?: string;
}): string {
  return options.isPackaged
    ? join(options.resourcesPath, 'native', ELECTRON_SQLITE_FILE)
    : join(options.appPath, 'build', 'electron-native', options.arch ?? process.arch, ELECTRON_SQLITE_FILE);
}

export function describeMissingBinding(path: string): string | null {
  return existsSync(path)
    ? null
    : `The SQLite engine for the desktop app is missing (${path}). Run "npm run build:electron-sqlite" and start again.`;
}
