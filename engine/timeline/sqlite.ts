import Database from 'better-sqlite3';

export interface SqliteOptions {
  readonly?: boolean;
}

export function openSqlite(file: string, options: SqliteOptions = {}): Database.Database {
  return new Database(file, {
    readonly: options.readonly ?? false,
    fileMustExist: options.readonly ?? false,
  });
}

/** How long a statement waits for another connection's write lock before failing with SQLITE_BUSY. */
const BUSY_TIMEOUT_MS = 5000;

/**
 * Page cache per connection, in KiB: enough for the hot index pages of a busy timeline. Pages beyond it
 * are read from the OS's file cache (a system call, not a disk read). It was 64 MiB, which a long run
 * filled: 1,000 agents held ~60 MB more RSS by tick 20 than with 8 MiB (docs/BENCHMARKS.md, issue 14).
 */
const CACHE_KIB = 16 * 1024;

/** Settings every connection to one of the app's databases gets. */
export function applyConnectionPragmas(db: Database.Database, options: { readonly: boolean }): void {
  db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  db.pragma('foreign_keys = ON');
  db.pragma(`cache_size = -${CACHE_KIB}`);
  db.pragma('temp_store = MEMORY');
  if (options.readonly) return;
  db.pragma('journal_mode = WAL');
  // In WAL mode NORMAL syncs at checkpoints, not at every commit. A committed transaction still
  // survives the app crashing or being killed (it is in the WAL file); only a power cut or OS crash
  // can roll back the last few commits, and never corrupts the file. FULL would add an fsync to every
  // agent turn's commit.
  db.pragma('synchronous = NORMAL');
  // A checkpoint copies the WAL back into the database and syncs both files. Every agent turn commits
  // and rewrites the same hot pages (the ends of the indexes), so checkpointing ten times less often
  // writes each hot page back once instead of ten times and syncs ten times less (SQLite's default is
  // 1000 pages, about every 30 turns). The WAL grows to about 40 MB at most before it is reused.
  db.pragma(`wal_autocheckpoint = ${WAL_CHECKPOINT_PAGES}`);
}

/**
 * PLAN_FREE_PARAMETER: write `+?` instead of `?` for a LIMIT, or for a `column = ?` in a query with an
 * ORDER BY, in statements that run every turn. SQLite lets such a bound value steer the query plan, so
 * it marks the statement to be compiled again whenever that parameter is bound anew, and better-sqlite3
 * clears the bindings after every run: the statement was re-prepared (parsed and planned) on every call,
 * ~20–50 µs each. A unary plus keeps the value out of planning; the plan, index and result are the same.
 */

/** Pages (4 KiB) the WAL may hold before a commit checkpoints it. */
const WAL_CHECKPOINT_PAGES = 10_000;

export function sqliteVersion(): string {
  const db = openSqlite(':memory:');
  try {
    return (db.prepare('select sqlite_version() as version').get() as { version: string }).version;
  } finally {
    db.close();
  }
}

/**
 * Statements prepared once per SQL text, for queries whose SQL varies with their filter (a list's
 * length, the filters given). Holds at most `capacity`, starting over when full: callers use a handful
 * of shapes, so the bound only guards against odd ones.
 */
export class StatementCache {
  private readonly statements = new Map<string, Database.Statement>();

  constructor(
    private readonly db: Database.Database,
    private readonly capacity: number,
  ) {}

  get(sql: string): Database.Statement {
    let statement = this.statements.get(sql);
    if (!statement) {
      if (this.statements.size >= this.capacity) this.statements.clear();
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }
}
