import Database from 'better-sqlite3';

export interface SqliteOptions {
  readonly?: boolean;
  /**
   * Path of a better-sqlite3 addon built for the current runtime. The Electron main process passes
   * its Electron-ABI build here; Node (tests, CLI) uses the build in node_modules.
   */
  nativeBinding?: string;
}

export function openSqlite(file: string, options: SqliteOptions = {}): Database.Database {
  return new Database(file, {
    readonly: options.readonly ?? false,
    fileMustExist: options.readonly ?? false,
    ...(options.nativeBinding ? { nativeBinding: options.nativeBinding } : {}),
  });
}

export function sqliteVersion(options: SqliteOptions = {}): string {
  const db = openSqlite(':memory:', { nativeBinding: options.nativeBinding });
  try {
    return (db.prepare('select sqlite_version() as version').get() as { version: string }).version;
  } finally {
    db.close();
  }
}
