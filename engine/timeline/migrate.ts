import { createHash } from 'node:crypto';
import type Database from 'better-sqlite3';

/** One step of a database schema. Released steps are never edited; new ones get the next version. */
export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export type SchemaErrorCode = 'not_a_timeline' | 'newer_schema' | 'migration_changed';

export interface SchemaError {
  code: SchemaErrorCode;
  message: string;
}

export type SchemaCheck = { ok: true; pending: Migration[] } | { ok: false; error: SchemaError };
export type MigrateResult = { ok: true; applied: number[] } | { ok: false; error: SchemaError };

interface AppliedMigration {
  version: number;
  name: string;
  checksum: string;
}

const MIGRATIONS_TABLE = 'schema_migrations';

export function migrationChecksum(migration: Migration): string {
  return createHash('sha256').update(migration.sql).digest('hex');
}

/** What the database needs to reach the schema `migrations` describe, without changing anything. */
export function checkSchema(db: Database.Database, migrations: readonly Migration[]): SchemaCheck {
  assertOrdered(migrations);
  if (!hasTable(db, MIGRATIONS_TABLE)) {
    return hasAnyTable(db)
      ? fail(
          'not_a_timeline',
          'the file is an SQLite database but not a LeMMing timeline (it has no schema_migrations table)',
        )
      : { ok: true, pending: [...migrations] };
  }
  const applied = db
    .prepare(`SELECT version, name, checksum FROM ${MIGRATIONS_TABLE} ORDER BY version`)
    .all() as AppliedMigration[];
  const known = new Map(migrations.map((migration) => [migration.version, migration]));
  const newest = migrations.at(-1)?.version ?? 0;
  for (const row of applied) {
    if (row.version > newest) {
      return fail(
        'newer_schema',
        `the timeline was written by a newer version of LeMMing Desktop (schema version ${row.version} "${row.name}"; ` +
          `this app knows up to version ${newest}). Update the app to open it`,
      );
    }
    const migration = known.get(row.version);
    if (!migration || migration.name !== row.name || migrationChecksum(migration) !== row.checksum) {
      return fail(
        'migration_changed',
        `schema step ${row.version} "${row.name}" recorded in the timeline differs from this app's step ` +
          `${row.version}${migration ? ` "${migration.name}"` : ''}; the file was made by an incompatible build`,
      );
    }
  }
  const appliedVersions = new Set(applied.map((row) => row.version));
  return { ok: true, pending: migrations.filter((migration) => !appliedVersions.has(migration.version)) };
}

/** Applies every pending step in one write transaction, so a crash leaves the old schema intact. */
export function migrate(db: Database.Database, migrations: readonly Migration[]): MigrateResult {
  return db
    .transaction((): MigrateResult => {
      const check = checkSchema(db, migrations);
      if (!check.ok) return check;
      if (check.pending.length === 0) return { ok: true, applied: [] };
      db.exec(`CREATE TABLE IF NOT EXISTS ${MIGRATIONS_TABLE} (
        version INTEGER PRIMARY KEY,
        name TEXT NOT NULL,
        checksum TEXT NOT NULL,
        applied_at TEXT NOT NULL
      )`);
      const record = db.prepare(
        `INSERT INTO ${MIGRATIONS_TABLE} (version, name, checksum, applied_at) VALUES (?, ?, ?, ?)`,
      );
      for (const migration of check.pending) {
        db.exec(migration.sql);
        record.run(migration.version, migration.name, migrationChecksum(migration), new Date().toISOString());
      }
      return { ok: true, applied: check.pending.map((migration) => migration.version) };
    })
    .immediate();
}

function assertOrdered(migrations: readonly Migration[]): void {
  migrations.forEach((migration, index) => {
    const previous = index === 0 ? 0 : migrations[index - 1]!.version;
    if (!Number.isInteger(migration.version) || migration.version <= previous) {
      throw new Error(
        `Migration "${migration.name}" has version ${migration.version}; versions must be integers that increase (previous: ${previous}).`,
      );
    }
  });
}

function hasTable(db: Database.Database, name: string): boolean {
  return db.prepare(`SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = ?`).get(name) !== undefined;
}

function hasAnyTable(db: Database.Database): boolean {
  return (
    db
      .prepare(`SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'`)
      .get() !== undefined
  );
}

function fail(code: SchemaErrorCode, message: string): { ok: false; error: SchemaError } {
  return { ok: false, error: { code, message } };
}
