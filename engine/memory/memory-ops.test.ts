import { describe, expect, it } from 'vitest';
import {
  applyMemoryOp,
  checkMemoryKey,
  DEFAULT_MEMORY_LIMITS,
  memoryValueBytes,
  type MemoryOpOutcome,
  type MemoryUpdate,
} from './memory-ops';

function written(outcome: MemoryOpOutcome): unknown {
  if (!outcome.ok || outcome.effect !== 'write')
    throw new Error(`expected a write, got ${JSON.stringify(outcome)}`);
  return outcome.value;
}

/** Applies updates in order to one key, starting absent, the way a sequence of turns would. */
function run(...updates: Omit<MemoryUpdate, 'key'>[]): unknown {
  let current: unknown = undefined;
  for (const update of updates) current = written(applyMemoryOp(current, { key: 'k', ...update }));
  return current;
}

describe('set', () => {
  it('replaces whatever was there, and stores null when no value is given', () => {
    expect(run({ op: 'set', value: [1] }, { op: 'set', value: 'two' })).toBe('two');
    expect(run({ op: 'set', value: undefined })).toBeNull();
  });
});

describe('append (LeMMing stores only the last value)', () => {
  it('appending 1 twice gives [1, 1]', () => {
    expect(run({ op: 'append', value: 1 }, { op: 'append', value: 1 })).toEqual([1, 1]);
  });

  it('wraps a non-list value before appending, and appends a list as one item', () => {
    expect(run({ op: 'set', value: 'first' }, { op: 'append', value: 'second' })).toEqual([
      'first',
      'second',
    ]);
    expect(run({ op: 'set', value: null }, { op: 'append', value: 2 })).toEqual([null, 2]);
    expect(run({ op: 'append', value: [1, 2] })).toEqual([[1, 2]]);
  });

  it('does not change the stored list in place', () => {
    const stored = [1];
    applyMemoryOp(stored, { key: 'k', op: 'append', value: 2 });
    expect(stored).toEqual([1]);
  });
});

describe('merge (LeMMing stores only the update)', () => {
  it('set {a:1} then merge {b:2} gives {a:1, b:2}', () => {
    expect(run({ op: 'set', value: { a: 1 } }, { op: 'merge', value: { b: 2 } })).toEqual({ a: 1, b: 2 });
  });

  it('merges nested objects and replaces lists and scalars, keeping existing keys in place', () => {
    const merged = run(
      { op: 'set', value: { tasks: { open: ['spec'], done: 1 }, owner: 'manager', tags: ['a'] } },
      { op: 'merge', value: { tasks: { done: 2, blocked: [] }, tags: ['b'], extra: null } },
    );
    expect(merged).toEqual({
      tasks: { open: ['spec'], done: 2, blocked: [] },
      owner: 'manager',
      tags: ['b'],
      extra: null,
    });
    expect(Object.keys(merged as object)).toEqual(['tasks', 'owner', 'tags', 'extra']);
  });

  it('merges into an absent key as if it were {}', () => {
    expect(run({ op: 'merge', value: { a: 1 } })).toEqual({ a: 1 });
  });

  it('returns an error value, not a throw, when either side is not an object', () => {
    expect(applyMemoryOp([1], { key: 'k', op: 'merge', value: { a: 1 } })).toMatchObject({
      ok: false,
      error: { code: 'merge_target_not_object', message: expect.stringContaining('a list') },
    });
    expect(applyMemoryOp({ a: 1 }, { key: 'k', op: 'merge', value: 'b' })).toMatchObject({
      ok: false,
      error: { code: 'merge_value_not_object', message: expect.stringContaining('a string') },
    });
    expect(applyMemoryOp(undefined, { key: 'k', op: 'merge', value: null })).toMatchObject({
      ok: false,
      error: { code: 'merge_value_not_object' },
    });
  });

  it('keeps a "__proto__" key as data instead of changing the prototype', () => {
    const merged = written(
      applyMemoryOp(
        { a: 1 },
        { key: 'k', op: 'merge', value: JSON.parse('{"__proto__": {"polluted": true}}') },
      ),
    );
    expect(Object.getPrototypeOf(merged)).toBe(Object.prototype);
    expect(Object.keys(merged as object)).toEqual(['a', '__proto__']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('delete', () => {
  it('deletes an existing key', () => {
    expect(applyMemoryOp('x', { key: 'k', op: 'delete', value: undefined })).toEqual({
      ok: true,
      effect: 'delete',
    });
  });

  it('answers a delete of an absent key with a warning value', () => {
    expect(applyMemoryOp(undefined, { key: 'gone', op: 'delete', value: undefined })).toEqual({
      ok: true,
      effect: 'none',
      warning: { code: 'delete_missing', message: "Memory key 'gone' does not exist; nothing to delete." },
    });
  });
});

describe('limits, on every operation', () => {
  const limits = {
    ...DEFAULT_MEMORY_LIMITS,
    maxValueBytes: 20,
    maxKeysPerAgent: 2,
    maxKeyLength: 8,
    maxDepth: 3,
  };

  it('measures size like LeMMing: the length of json.dumps(value) with ", " and ": " separators', () => {
    expect(memoryValueBytes({ a: [1, 2] })).toBe('{"a": [1, 2]}'.length);
    expect(memoryValueBytes('é')).toBe('"\\u00e9"'.length);
  });

  it("refuses a value over the size limit with LeMMing's message", () => {
    expect(applyMemoryOp(undefined, { key: 'k', op: 'set', value: 'x'.repeat(30) }, { limits })).toEqual({
      ok: false,
      error: { code: 'value_too_large', message: 'Memory value too large (32 bytes). Max size is 20 bytes.' },
    });
  });

  it('checks the combined value of append and merge, not only the update', () => {
    expect(
      applyMemoryOp(['aaaaaaaaaa'], { key: 'k', op: 'append', value: 'bbbbbbbb' }, { limits }),
    ).toMatchObject({ ok: false, error: { code: 'value_too_large' } });
    expect(
      applyMemoryOp({ a: 'aaaaaaaa' }, { key: 'k', op: 'merge', value: { b: 1 } }, { limits }),
    ).toMatchObject({ ok: false, error: { code: 'value_too_large' } });
    expect(applyMemoryOp({ a: [[1]] }, { key: 'k', op: 'append', value: 2 }, { limits })).toMatchObject({
      ok: false,
      error: { code: 'value_too_deep' },
    });
  });

  it('refuses values nested deeper than the limit', () => {
    expect(applyMemoryOp(undefined, { key: 'k', op: 'set', value: [[[[1]]]] }, { limits })).toMatchObject({
      ok: false,
      error: { code: 'value_too_deep' },
    });
    expect(written(applyMemoryOp(undefined, { key: 'k', op: 'set', value: [[[1]]] }, { limits }))).toEqual([
      [[1]],
    ]);
  });

  it('refuses a new key past the per-agent key limit but still updates and deletes existing keys', () => {
    expect(
      applyMemoryOp(undefined, { key: 'new', op: 'set', value: 1 }, { limits, existingKeyCount: 2 }),
    ).toMatchObject({ ok: false, error: { code: 'too_many_keys' } });
    expect(
      applyMemoryOp(1, { key: 'old', op: 'set', value: 2 }, { limits, existingKeyCount: 2 }),
    ).toMatchObject({ ok: true, effect: 'write' });
    expect(
      applyMemoryOp(1, { key: 'old', op: 'delete', value: undefined }, { limits, existingKeyCount: 2 }),
    ).toMatchObject({ ok: true, effect: 'delete' });
  });

  it('refuses bad keys on every operation, delete included', () => {
    for (const op of ['set', 'append', 'merge', 'delete'] as const) {
      expect(applyMemoryOp(undefined, { key: '../x', op, value: {} }, { limits })).toMatchObject({
        ok: false,
        error: { code: 'invalid_key' },
      });
      expect(applyMemoryOp(undefined, { key: 'toolongkey', op, value: {} }, { limits })).toMatchObject({
        ok: false,
        error: { code: 'key_too_long' },
      });
    }
  });
});

describe('checkMemoryKey', () => {
  it('accepts LeMMing keys and refuses the rest with the reason', () => {
    expect(checkMemoryKey('open_tasks-2')).toBeNull();
    expect(checkMemoryKey('')?.code).toBe('invalid_key');
    expect(checkMemoryKey('a.b')?.message).toBe(
      "Memory key 'a.b' is invalid. Only alphanumeric characters, underscores, and hyphens are allowed.",
    );
    expect(checkMemoryKey('a/b')?.code).toBe('invalid_key');
    expect(checkMemoryKey('x'.repeat(101))?.code).toBe('key_too_long');
  });

  it('refuses Windows device names, which cannot be files there', () => {
    expect(checkMemoryKey('CON')?.code).toBe('reserved_key');
    expect(checkMemoryKey('lpt1')?.code).toBe('reserved_key');
    expect(checkMemoryKey('console')).toBeNull();
  });
});
