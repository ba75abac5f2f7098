import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Migration } from './migrate';
import { timelineMigrations } from './migrations';
import { openDatabase, type OpenDatabaseResult } from './open-database';
import { openTimeline } from './timeline-store';

const first: Migration = { version: 1, name: 'notes', sql: 'CREATE TABLE notes (id INTEGER PRIMARY KEY)' };
const second: Migration = { version: 2, name: 'tags', sql: 'CREATE TABLE tags (note INTEGER)' };

describe('openDatabase', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'lemming-open-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  function closeIfOpen(result: OpenDatabaseResult): OpenDatabaseResult {
    if (result.ok) result.db.close();
    return result;
  }

  it('creates missing folders and the file, in WAL mode with foreign keys on', () => {
    const file = join(dir, 'org', '.lemming', 'timeline.sqlite');
    const result = openDatabase(file, {}, [first]);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(result.db.pragma('synchronous', { simple: true })).toBe(1);
    expect(result.db.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(result.db.pragma('busy_timeout', { simple: true })).toBeGreaterThan(0);
    result.db.close();
  });

  it('read-only refuses a file that needs migration, and leaves it unmigrated', async () => {
    const file = join(dir, 'db.sqlite');
    closeIfOpen(openDatabase(file, {}, [first]));
    const before = await readFile(file);
    const result = closeIfOpen(openDatabase(file, { readonly: true }, [first, second]));
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error.code).toBe('needs_migration');
      expect(result.error.message).toMatch(
        /^.*db\.sqlite: the timeline was written by an older version .* open it once without read-only to upgrade it\.$/,
      );
    }
    expect(await readFile(file)).toEqual(before);
  });

  it('read-write migrates what read-only refused', () => {
    const file = join(dir, 'db.sqlite');
    closeIfOpen(openDatabase(file, {}, [first]));
    expect(closeIfOpen(openDatabase(file, {}, [first, second])).ok).toBe(true);
    expect(closeIfOpen(openDatabase(file, { readonly: true }, [first, second])).ok).toBe(true);
  });

  it('refuses, in either mode, a timeline written by a newer app', () => {
    const file = join(dir, 'timeline.sqlite');
    const future: Migration = { version: 99, name: 'from the future', sql: 'CREATE TABLE future (x)' };
    closeIfOpen(openDatabase(file, {}, [...timelineMigrations, future]));
    for (const readonly of [false, true]) {
      const result = openTimeline(file, { readonly });
      expect(result.ok).toBe(false);
      if (!result.ok) {
        expect(result.error.code).toBe('newer_schema');
        expect(result.error.message).toContain('schema version 99 "from the future"');
      }
    }
  });

  it('refuses a timeline whose released schema step was changed', () => {
    const file = join(dir, 'timeline.sqlite');
    const [events, ...rest] = timelineMigrations;
    closeIfOpen(
      openDatabase(file, {}, [{ ...events!, sql: `${events!.sql}\nCREATE TABLE extra (x);` }, ...rest]),
    );
    const result = openTimeline(file);
    expect(!result.ok && result.error.code).toBe('migration_changed');
  });
});
