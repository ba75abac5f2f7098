import { existsSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type Database from 'better-sqlite3';
import { checkSchema, migrate, type Migration, type SchemaErrorCode } from './migrate';
import { applyConnectionPragmas, openSqlite, type SqliteOptions } from './sqlite';
import { storageFailure } from './storage-failure';

export type OpenDatabaseErrorCode =
  SchemaErrorCode | 'not_found' | 'empty' | 'not_a_database' | 'damaged' | 'needs_migration' | 'cannot_open';

export interface OpenDatabaseError {
  code: OpenDatabaseErrorCode;
  /** A sentence for a person, starting with the file's path. */
  message: string;
}

export type OpenDatabaseResult =
  { ok: true; db: Database.Database } | { ok: false; error: OpenDatabaseError };

/**
 * Opens one of the app's SQLite databases with the shared connection settings and brings its schema
 * to `migrations`. Read-only never creates, migrates or writes: it refuses a file that is missing,
 * not a database of this schema, or in need of migration.
 *
 * No ANALYZE, ever: the page queries pick their indexes by shape, and statistics taken while a table
 * is small mislead the plans of FTS5's own statements once it is large (measured: ingest CPU doubled
 * past 400k events with statistics taken on the empty tables).
 */
export function openDatabase(
  file: string,
  options: SqliteOptions,
  migrations: readonly Migration[],
): OpenDatabaseResult {
  const readonly = options.readonly ?? false;
  const fail = (code: OpenDatabaseErrorCode, message: string): OpenDatabaseResult => ({
    ok: false,
    error: { code, message: `${file}: ${message}` },
  });
  const inMemory = file === ':memory:';
  if (readonly && !inMemory && !existsSync(file)) return fail('not_found', 'there is no timeline file here.');

  let db: Database.Database;
  try {
    if (!readonly && !inMemory) mkdirSync(dirname(file), { recursive: true });
    db = openSqlite(file, options);
  } catch (error) {
    return fail('cannot_open', `the file could not be opened (${messageOf(error)}).`);
  }
  try {
    applyConnectionPragmas(db, { readonly });
    const problem = readonly ? readonlyProblem(db, migrations) : migrateProblem(db, migrations);
    if (problem) {
      db.close();
      return fail(problem.code, problem.message);
    }
    return { ok: true, db };
  } catch (error) {
    db.close();
    const code = (error as { code?: string }).code;
    if (code === 'SQLITE_NOTADB') return fail('not_a_database', 'the file is not an SQLite database.');
    if (code === 'SQLITE_CORRUPT') return fail('damaged', `the file is damaged (${messageOf(error)}).`);
    const storage = storageFailure(error);
    if (storage && !readonly && !storage.reading)
      return fail('cannot_open', `the file could not be written: ${storage.reason}.`);
    return fail('cannot_open', `the file could not be read (${storage?.reason ?? messageOf(error)}).`);
  }
}

type Problem = { code: OpenDatabaseErrorCode; message: string } | null;

function migrateProblem(db: Database.Database, migrations: readonly Migration[]): Problem {
  const result = migrate(db, migrations);
  return result.ok ? null : { code: result.error.code, message: `${result.error.message}.` };
}

function readonlyProblem(db: Database.Database, migrations: readonly Migration[]): Problem {
  const check = checkSchema(db, migrations);
  if (!check.ok) return { code: check.error.code, message: `${check.error.message}.` };
  if (check.pending.length === 0) return null;
  if (check.pending.length === migrations.length) {
    // A first open that failed before the schema was written (the -shm file could not be made, say)
    // leaves an SQLite file with nothing in it: no history yet, not a damaged one.
    const entries = db.prepare('SELECT count(*) FROM sqlite_master').pluck().get() as number;
    if (entries === 0) return { code: 'empty', message: 'the timeline has nothing in it yet.' };
    return { code: 'not_a_timeline', message: 'the file is empty or is not a LeMMing timeline.' };
  }
  return {
    code: 'needs_migration',
    message:
      'the timeline was written by an older version of LeMMing Desktop and must be upgraded before it can be read; ' +
      'open it once without read-only to upgrade it.',
  };
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
