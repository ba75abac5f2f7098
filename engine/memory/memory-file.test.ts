import { cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  countMemoryKeys,
  deleteMemory,
  listMemory,
  memoryFilePath,
  memoryFileText,
  readMemory,
  updateMemory,
  writeMemory,
} from './memory-file';
import { DEFAULT_MEMORY_LIMITS } from './memory-ops';

const HAPPY_PATH = resolve(
  import.meta.dirname,
  '../../../shared/fixtures/lemming-upstream/engine-output/happy_path/agents',
);
const MICROS = Date.UTC(2026, 10, 21, 19, 11, 22, 818) * 1000 + 919;

let org: string;
beforeEach(async () => {
  org = await mkdtemp(join(tmpdir(), 'lemming-memory-'));
  await cp(HAPPY_PATH, join(org, 'agents'), { recursive: true });
});
afterEach(async () => {
  await rm(org, { recursive: true, force: true });
});
const agentDir = (name: string) => join(org, 'agents', name);

describe('LeMMing memory files', () => {
  it('reads every fixture memory file back with its value and metadata', async () => {
    const manager = await readMemory(agentDir('manager'), 'open_tasks');
    expect(manager).toMatchObject({
      ok: true,
      value: {
        record: {
          key: 'open_tasks',
          value: ['login spec'],
          timestamp_utc: '2026-11-21T19:11:22.818919+00:00',
          agent: 'manager',
          operation: 'set',
          tick: 3,
          extra: {},
        },
      },
    });
    expect(await readMemory(agentDir('spec_writer'), 'snapshot')).toMatchObject({
      ok: true,
      value: { record: { value: { decisions: ['login spec drafted'] } } },
    });
    expect(await readMemory(agentDir('log_summarizer'), 'digest')).toMatchObject({
      ok: true,
      value: { record: { value: 'quiet tick' } },
    });
  });

  it('writes the same bytes LeMMing wrote for the same record', async () => {
    const text = await readFile(memoryFilePath(agentDir('manager'), 'open_tasks'), 'utf8');
    const read = await readMemory(agentDir('manager'), 'open_tasks');
    if (!read.ok || !read.value) throw new Error('fixture unreadable');
    const { extra: _extra, ...record } = read.value.record;
    expect(memoryFileText(record)).toBe(text);
  });

  it("writes a new key with the six fields in LeMMing's order", async () => {
    await writeMemory(
      agentDir('manager'),
      { key: 'notes', value: { a: 'é' }, agent: 'manager', operation: 'set', tick: 4 },
      MICROS,
    );
    expect(await readFile(memoryFilePath(agentDir('manager'), 'notes'), 'utf8')).toBe(
      '{\n  "key": "notes",\n  "value": {\n    "a": "\\u00e9"\n  },\n  "timestamp_utc": "2026-11-21T19:11:22.818919+00:00",\n' +
        '  "agent": "manager",\n  "operation": "set",\n  "tick": 4\n}',
    );
  });

  it('accepts legacy files with `timestamp`, a missing key and extra fields, and keeps the extras', async () => {
    const dir = agentDir('legacy');
    await mkdir(join(dir, 'memory'), { recursive: true });
    await writeFile(
      join(dir, 'memory', 'old.json'),
      '{"value": 7, "timestamp": "2025-12-01T00:00:00+00:00", "source": "import"}',
    );
    expect(await readMemory(dir, 'old')).toMatchObject({
      ok: true,
      value: {
        record: {
          key: 'old',
          value: 7,
          timestamp_utc: '2025-12-01T00:00:00+00:00',
          agent: null,
          operation: null,
          tick: null,
          extra: { source: 'import' },
        },
      },
    });
  });

  it('reports a broken file with its path, line and column instead of throwing', async () => {
    const dir = agentDir('manager');
    await writeFile(memoryFilePath(dir, 'broken'), '{\n  "key": "broken",\n  "value": [1,\n}');
    const read = await readMemory(dir, 'broken');
    expect(read).toMatchObject({
      ok: false,
      error: {
        file: memoryFilePath(dir, 'broken'),
        line: 4,
        message: expect.stringMatching(/^invalid JSON/),
      },
    });
    await writeFile(memoryFilePath(dir, 'list'), '[1]');
    expect(await readMemory(dir, 'list')).toMatchObject({
      ok: false,
      error: { message: 'expected a JSON object, found a list' },
    });
  });

  it('answers a missing key as not found and refuses an invalid key without touching the disk', async () => {
    expect(await readMemory(agentDir('manager'), 'nothing')).toEqual({ ok: true, value: null });
    expect(await readMemory(agentDir('manager'), '../resume')).toMatchObject({
      ok: false,
      error: { message: expect.stringContaining('is invalid') },
    });
  });
});

describe('updateMemory', () => {
  const context = { agent: 'manager', tick: 5, nowMicros: MICROS };

  it('appends to the stored list and records the operation (LeMMing would store only "review")', async () => {
    const outcome = await updateMemory(
      agentDir('manager'),
      { key: 'open_tasks', op: 'append', value: 'review' },
      context,
    );
    expect(outcome).toMatchObject({
      ok: true,
      effect: 'write',
      record: { value: ['login spec', 'review'], operation: 'append', tick: 5 },
    });
    expect(await readMemory(agentDir('manager'), 'open_tasks')).toMatchObject({
      value: { record: { value: ['login spec', 'review'] } },
    });
  });

  it('merges into the stored object', async () => {
    await updateMemory(
      agentDir('spec_writer'),
      { key: 'snapshot', op: 'merge', value: { owner: 'spec_writer' } },
      context,
    );
    expect(await readMemory(agentDir('spec_writer'), 'snapshot')).toMatchObject({
      value: {
        record: { value: { decisions: ['login spec drafted'], owner: 'spec_writer' }, operation: 'merge' },
      },
    });
  });

  it('deletes, and warns when there is nothing to delete', async () => {
    expect(
      await updateMemory(agentDir('manager'), { key: 'open_tasks', op: 'delete', value: undefined }, context),
    ).toEqual({ ok: true, effect: 'delete' });
    expect(await readMemory(agentDir('manager'), 'open_tasks')).toEqual({ ok: true, value: null });
    expect(
      await updateMemory(agentDir('manager'), { key: 'open_tasks', op: 'delete', value: undefined }, context),
    ).toMatchObject({
      ok: true,
      effect: 'none',
      warning: { code: 'delete_missing' },
    });
  });

  it('refuses over-limit writes and leaves the stored file as it was', async () => {
    const before = await readFile(memoryFilePath(agentDir('manager'), 'open_tasks'), 'utf8');
    const limits = { ...DEFAULT_MEMORY_LIMITS, maxValueBytes: 25 };
    const outcome = await updateMemory(
      agentDir('manager'),
      { key: 'open_tasks', op: 'append', value: 'a longer task' },
      { ...context, limits },
    );
    expect(outcome).toMatchObject({ ok: false, error: { code: 'value_too_large' } });
    expect(await readFile(memoryFilePath(agentDir('manager'), 'open_tasks'), 'utf8')).toBe(before);
  });

  it('counts the keys on disk to refuse a new key past the limit', async () => {
    const limits = { ...DEFAULT_MEMORY_LIMITS, maxKeysPerAgent: 2 };
    const dir = agentDir('manager');
    expect(
      await updateMemory(dir, { key: 'second', op: 'set', value: 1 }, { ...context, limits }),
    ).toMatchObject({ ok: true });
    expect(
      await updateMemory(dir, { key: 'third', op: 'set', value: 1 }, { ...context, limits }),
    ).toMatchObject({ ok: false, error: { code: 'too_many_keys' } });
    expect(
      await updateMemory(dir, { key: 'second', op: 'set', value: 2 }, { ...context, limits }),
    ).toMatchObject({ ok: true });
    expect(await countMemoryKeys(dir)).toBe(2);
  });

  it('refuses to append into an unreadable file but lets set replace it', async () => {
    const dir = agentDir('manager');
    await writeFile(memoryFilePath(dir, 'open_tasks'), '{"value": [');
    expect(await updateMemory(dir, { key: 'open_tasks', op: 'append', value: 1 }, context)).toMatchObject({
      ok: false,
      error: { code: 'stored_value_unreadable', message: expect.stringContaining('open_tasks.json') },
    });
    expect(await updateMemory(dir, { key: 'open_tasks', op: 'set', value: [] }, context)).toMatchObject({
      ok: true,
      effect: 'write',
    });
  });

  it('leaves no temp files behind', async () => {
    const dir = agentDir('manager');
    for (let i = 0; i < 5; i += 1)
      await updateMemory(dir, { key: 'counter', op: 'append', value: i }, context);
    expect((await readdir(join(dir, 'memory'))).sort()).toEqual(['counter.json', 'open_tasks.json']);
    expect(await readMemory(dir, 'counter')).toMatchObject({ value: { record: { value: [0, 1, 2, 3, 4] } } });
  });
});

describe('listMemory', () => {
  it('lists the fixture memory for the prompt', async () => {
    expect(await listMemory(agentDir('manager'))).toEqual({
      entries: [{ key: 'open_tasks', value: ['login spec'] }],
      truncated: false,
      problems: [],
      files: ['open_tasks.json'],
    });
    expect(await listMemory(agentDir('human'))).toEqual({
      entries: [],
      truncated: false,
      problems: [],
      files: [],
    });
  });

  it('lists at most 20 keys and says when there are more, ignoring files that are not *.json', async () => {
    const dir = agentDir('busy');
    for (let i = 0; i < 23; i += 1)
      await writeMemory(dir, { key: `k${i}`, value: i, agent: 'busy', operation: 'set', tick: 1 });
    await writeFile(join(dir, 'memory', 'notes.txt'), 'not memory');
    const listing = await listMemory(dir);
    expect(listing.entries).toHaveLength(20);
    expect(listing.truncated).toBe(true);
    expect(new Set(listing.entries.map((entry) => entry.key)).size).toBe(20);
    for (const entry of listing.entries) expect(entry.value).toBe(Number(entry.key.slice(1)));
    expect(await listMemory(dir, 23)).toMatchObject({ truncated: false });
    expect((await listMemory(dir, 23)).entries).toHaveLength(23);
  });

  it('reports unreadable files and still lists the others', async () => {
    const dir = agentDir('manager');
    await writeFile(join(dir, 'memory', 'bad.json'), 'not json');
    const listing = await listMemory(dir);
    expect(listing.entries).toEqual([{ key: 'open_tasks', value: ['login spec'] }]);
    expect(listing.problems).toMatchObject([
      { file: join(dir, 'memory', 'bad.json'), message: expect.stringMatching(/^invalid JSON/) },
    ]);
  });

  it('deleteMemory removes a key and reports whether it existed', async () => {
    expect(await deleteMemory(agentDir('manager'), 'open_tasks')).toBe(true);
    expect(await deleteMemory(agentDir('manager'), 'open_tasks')).toBe(false);
    expect(await countMemoryKeys(agentDir('manager'))).toBe(0);
  });
});
