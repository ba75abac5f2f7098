import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkSchema, migrate, type Migration } from './migrate';
import { openSqlite } from './sqlite';

const first: Migration = {
  version: 1,
  name: 'notes',
  sql: 'CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)',
};
const second: Migration = { version: 2, name: 'tags', sql: 'CREATE TABLE tags (note INTEGER, tag TEXT)' };

describe('migrate', () => {
  let dir: string;
  let file: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'lemming-migrate-'));
    file = join(dir, 'db.sqlite');
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  function withDb<T>(fn: (db: ReturnType<typeof openSqlite>) => T): T {
    const db = openSqlite(file);
    try {
      return fn(db);
    } finally {
      db.close();
    }
  }

  it('applies every step to an empty database and records each with its checksum', () => {
    expect(withDb((db) => migrate(db, [first, second]))).toEqual({ ok: true, applied: [1, 2] });
    withDb((db) => {
      const recorded = db
        .prepare('SELECT version, name, length(checksum) AS checksumLength FROM schema_migrations')
        .all();
      expect(recorded).toEqual([
        { version: 1, name: 'notes', checksumLength: 64 },
        { version: 2, name: 'tags', checksumLength: 64 },
      ]);
      expect(
        db
          .prepare(`SELECT name FROM sqlite_schema WHERE type = 'table' AND name IN ('notes', 'tags')`)
          .pluck()
          .all(),
      ).toHaveLength(2);
    });
  });

  it('applies only the steps added since the last open, and nothing when current', () => {
    withDb((db) => migrate(db, [first]));
    withDb((db) => db.prepare('INSERT INTO notes (body) VALUES (?)').run('kept'));
    expect(withDb((db) => migrate(db, [first, second]))).toEqual({ ok: true, applied: [2] });
    expect(withDb((db) => migrate(db, [first, second]))).toEqual({ ok: true, applied: [] });
    expect(withDb((db) => db.prepare('SELECT body FROM notes').pluck().all())).toEqual(['kept']);
  });

  it('detects a released step whose SQL was edited afterwards', () => {
    withDb((db) => migrate(db, [first]));
    const edited = { ...first, sql: `${first.sql.replace('body TEXT', 'body TEXT NOT NULL')}` };
    const result = withDb((db) => migrate(db, [edited, second]));
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe('migration_changed');
    expect(result.error.message).toContain('schema step 1 "notes"');
    expect(
      withDb((db) => db.prepare(`SELECT count(*) FROM sqlite_schema WHERE name = 'tags'`).pluck().get()),
    ).toBe(0);
  });

  it('refuses a database written by a newer app, naming both versions', () => {
    withDb((db) => migrate(db, [first, second]));
    const result = withDb((db) => migrate(db, [first]));
    expect(result).toEqual({
      ok: false,
      error: {
        code: 'newer_schema',
        message:
          'the timeline was written by a newer version of LeMMing Desktop (schema version 2 "tags"; this app knows up to version 1). Update the app to open it',
      },
    });
  });

  it('refuses to add its tables to an unrelated SQLite database', () => {
    withDb((db) => db.exec('CREATE TABLE customers (id INTEGER PRIMARY KEY)'));
    const result = withDb((db) => migrate(db, [first]));
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.code).toBe('not_a_timeline');
    expect(
      withDb((db) => db.prepare(`SELECT count(*) FROM sqlite_schema WHERE name = 'notes'`).pluck().get()),
    ).toBe(0);
  });

  it('rolls back every step of a run when one fails', () => {
    const broken: Migration = {
      version: 2,
      name: 'broken',
      sql: 'CREATE TABLE tags (x); CREATE TABLE tags (y)',
    };
    expect(() => withDb((db) => migrate(db, [first, broken]))).toThrow(/already exists/);
    expect(
      withDb((db) => db.prepare(`SELECT count(*) FROM sqlite_schema WHERE type = 'table'`).pluck().get()),
    ).toBe(0);
  });

  it('reports pending steps without applying them', () => {
    withDb((db) => migrate(db, [first]));
    const check = withDb((db) => checkSchema(db, [first, second]));
    expect(check.ok && check.pending.map((migration) => migration.name)).toEqual(['tags']);
    expect(
      withDb((db) => db.prepare(`SELECT count(*) FROM sqlite_schema WHERE name = 'tags'`).pluck().get()),
    ).toBe(0);
  });

  it('rejects a migration list that is out of order', () => {
    expect(() => withDb((db) => migrate(db, [second, first]))).toThrow(
      /versions must be integers that increase/,
    );
  });
});
