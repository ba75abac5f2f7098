import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { editJsonText, jsonEqual, type JsonEdit } from './json-edit';
import { deepestNodeOn, parseJsonTree } from './json-tree';

const FIXTURES = resolve(import.meta.dirname, '../../../shared/fixtures/lemming-upstream');
const EXAMPLE_AGENTS = join(FIXTURES, 'example-org/agents');
const fixtureResumes = readdirSync(EXAMPLE_AGENTS).map((folder) => ({
  folder,
  text: readFileSync(join(EXAMPLE_AGENTS, folder, 'resume.json'), 'utf8'),
}));

function edit(text: string, edits: JsonEdit[]): string {
  const result = editJsonText(text, edits);
  if (!result.ok) throw new Error(`edit failed: ${result.error.message}`);
  return result.value;
}

function valueOf(text: string): unknown {
  return JSON.parse(text.replace(/^\uFEFF/, ''));
}

/** Splits `after` into the part shared with `before` at each end and the part that differs. */
function changedRegion(before: string, after: string): { prefix: number; removed: string; added: string } {
  let prefix = 0;
  while (prefix < before.length && prefix < after.length && before[prefix] === after[prefix]) prefix += 1;
  let suffix = 0;
  while (
    suffix < before.length - prefix &&
    suffix < after.length - prefix &&
    before[before.length - 1 - suffix] === after[after.length - 1 - suffix]
  ) {
    suffix += 1;
  }
  return {
    prefix,
    removed: before.slice(prefix, before.length - suffix),
    added: after.slice(prefix, after.length - suffix),
  };
}

/** Every path to a scalar in a JSON value. */
function scalarPaths(value: unknown, path: (string | number)[] = []): (string | number)[][] {
  if (Array.isArray(value)) return value.flatMap((item, index) => scalarPaths(item, [...path, index]));
  if (typeof value === 'object' && value !== null) {
    return Object.entries(value).flatMap(([key, child]) => scalarPaths(child, [...path, key]));
  }
  return [path];
}

/** The value at `path`, for tests that walk documents they built. */
function valueAt(value: unknown, path: readonly (string | number)[]): unknown {
  return path.reduce<unknown>((node, step) => (node as Record<string | number, unknown>)[step], value);
}

/** What `change` does to a parsed document, done on a copy of the data. */
function applyToValue(document: unknown, change: JsonEdit): unknown {
  const copy = structuredClone(document);
  const parent = valueAt(copy, change.path.slice(0, -1)) as Record<string | number, unknown>;
  const last = change.path.at(-1)!;
  if (!('remove' in change)) parent[last] = change.value;
  else if (Array.isArray(parent)) parent.splice(last as number, 1);
  else delete parent[last];
  return copy;
}

function replacementFor(value: unknown): unknown {
  if (typeof value === 'number') return value + 7;
  if (typeof value === 'string') return `${value}-changed`;
  if (typeof value === 'boolean') return !value;
  return 'was null';
}

describe('editJsonText on LeMMing fixture resumes', () => {
  it.each(fixtureResumes)('leaves $folder byte-identical when nothing is edited', ({ text }) => {
    expect(editJsonText(text, [])).toEqual({ ok: true, value: text, changed: false });
  });

  it.each(fixtureResumes)(
    'leaves $folder byte-identical when every value is set to what it already is',
    ({ text }) => {
      const value = valueOf(text);
      const edits = scalarPaths(value).map((path) => ({
        path,
        value: valueAt(value, path),
      }));
      expect(editJsonText(text, [...edits, { path: [], value }])).toEqual({
        ok: true,
        value: text,
        changed: false,
      });
    },
  );

  it.each(fixtureResumes)(
    'changes only the span of one nested value in $folder, for every scalar',
    ({ text }) => {
      const value = valueOf(text);
      for (const path of scalarPaths(value)) {
        const old = valueAt(value, path);
        const next = replacementFor(old);
        const after = edit(text, [{ path, value: next }]);

        const region = changedRegion(text, after);
        const tree = parseJsonTree(text);
        if (!tree.ok) throw new Error('fixture must parse');
        const { node } = deepestNodeOn(tree.root, path);
        expect(region.prefix).toBeGreaterThanOrEqual(node.start);
        expect(region.prefix + region.removed.length).toBeLessThanOrEqual(node.end);

        expect(valueOf(after)).toEqual(applyToValue(value, { path, value: next }));
      }
    },
  );

  it('keeps number spellings like 0.0 and 1000.0 while another field changes', () => {
    const echo = fixtureResumes.find((resume) => resume.folder === 'echo_cli')!.text;
    const after = edit(echo, [{ path: ['permissions', 'tools'], value: ['file_read'] }]);
    expect(after).toContain('"temperature": 0.0,');
    expect(after).toContain('"max_credits": 1000.0,');
    expect(after.endsWith('}')).toBe(true);
  });
});

describe('editJsonText keeps what it does not touch', () => {
  it('keeps unicode escapes, unknown fields at every depth and key order', () => {
    const text =
      '{\n  "z_first": "caf\\u00e9",\n  "model": {"key": "m", "x_unknown": {"deep": [1.50, 1e3]}},\n  "a": 1\n}\n';
    const after = edit(text, [{ path: ['model', 'key'], value: 'other' }]);
    expect(after).toBe(
      '{\n  "z_first": "caf\\u00e9",\n  "model": {"key": "other", "x_unknown": {"deep": [1.50, 1e3]}},\n  "a": 1\n}\n',
    );
  });

  it('keeps a byte-order mark, CRLF line ends and a missing final newline', () => {
    const text = '\uFEFF{\r\n  "a": 1\r\n}';
    expect(edit(text, [{ path: ['b'], value: { c: [true] } }])).toBe(
      '\uFEFF{\r\n  "a": 1,\r\n  "b": {\r\n    "c": [\r\n      true\r\n    ]\r\n  }\r\n}',
    );
  });

  it('keeps an all-ASCII document all ASCII, and writes raw text into one that has raw text', () => {
    const text = '{"name": "Ren\\u00e9"}';
    expect(edit(text, [{ path: ['title'], value: 'Café ☕' }])).toBe(
      '{"name": "Ren\\u00e9", "title": "Caf\\u00e9 \\u2615"}',
    );
    expect(edit('{"name": "Rene"}', [{ path: ['title'], value: '☕' }])).toBe(
      '{"name": "Rene", "title": "\\u2615"}',
    );
    expect(edit('\uFEFF{"name": "Rene"}', [{ path: ['title'], value: '☕' }])).toBe(
      '\uFEFF{"name": "Rene", "title": "\\u2615"}',
    );
    expect(edit('{"name": "René"}', [{ path: ['title'], value: 'Café' }])).toBe(
      '{"name": "René", "title": "Café"}',
    );
  });
});

describe('editJsonText reads every JSON spelling', () => {
  it('finds spans past escaped quotes and backslashes, empty keys and odd whitespace', () => {
    const text = '{"we\\"ird\\\\": "x\\\\", "": [ ], "b"\t:\r\n 1e-2 , "c": [true,false,null]}';
    expect(valueOf(text)).toEqual({ 'we"ird\\': 'x\\', '': [], b: 0.01, c: [true, false, null] });
    expect(edit(text, [{ path: ['b'], value: 2 }])).toBe(text.replace('1e-2', '2'));
    expect(edit(text, [{ path: ['we"ird\\'], value: 'y' }])).toBe(text.replace('"x\\\\"', '"y"'));
    expect(edit(text, [{ path: ['c', 1], value: true }])).toBe(text.replace('true,false', 'true,true'));
  });
});

describe('editJsonText adds fields', () => {
  it('appends a new key at the end of a multi-line object with its indentation', () => {
    const text = '{\n    "a": 1,\n    "b": {\n        "c": 2\n    }\n}';
    expect(edit(text, [{ path: ['b', 'd'], value: [1, 2] }])).toBe(
      '{\n    "a": 1,\n    "b": {\n        "c": 2,\n        "d": [\n            1,\n            2\n        ]\n    }\n}',
    );
  });

  it('appends inline to an object written on one line, with its separators', () => {
    expect(edit('{"key": "none", "temperature": 0}', [{ path: ['max_tokens'], value: 10 }])).toBe(
      '{"key": "none", "temperature": 0, "max_tokens": 10}',
    );
    expect(edit('{"a":1,"b":2}', [{ path: ['c'], value: { d: 1 } }])).toBe('{"a":1,"b":2,"c":{"d":1}}');
  });

  it('creates missing parent objects for a nested path', () => {
    const text = '{\n  "permissions": {\n    "tools": []\n  }\n}\n';
    expect(edit(text, [{ path: ['permissions', 'file_access', 'allow_read'], value: ['shared'] }])).toBe(
      '{\n  "permissions": {\n    "tools": [],\n    "file_access": {\n      "allow_read": [\n        "shared"\n      ]\n    }\n  }\n}\n',
    );
  });

  it('fills an empty object or list in the layout of its neighbours', () => {
    const text = '{\n  "read_outboxes": ["*"],\n  "tools": []\n}';
    expect(edit(text, [{ path: ['tools'], value: ['file_read', 'shell'] }])).toBe(
      '{\n  "read_outboxes": ["*"],\n  "tools": ["file_read", "shell"]\n}',
    );
    expect(edit('{\n  "m": {}\n}', [{ path: ['m', 'k'], value: 1 }])).toBe('{\n  "m": {\n    "k": 1\n  }\n}');
  });

  it('appends and inserts list items with the list separator', () => {
    const multi = '{\n  "tools": [\n    "a",\n    "c"\n  ]\n}';
    expect(edit(multi, [{ path: ['tools'], value: ['a', 'b', 'c', 'd'] }])).toBe(
      '{\n  "tools": [\n    "a",\n    "b",\n    "c",\n    "d"\n  ]\n}',
    );
    expect(edit('{"tools": ["a"]}', [{ path: ['tools', 1], value: 'b' }])).toBe('{"tools": ["a", "b"]}');
  });
});

describe('editJsonText removes fields', () => {
  it('takes the comma with a removed key, wherever the key is', () => {
    const text = '{\n  "a": 1,\n  "b": 2,\n  "c": 3\n}';
    expect(edit(text, [{ path: ['a'], remove: true }])).toBe('{\n  "b": 2,\n  "c": 3\n}');
    expect(edit(text, [{ path: ['b'], remove: true }])).toBe('{\n  "a": 1,\n  "c": 3\n}');
    expect(edit(text, [{ path: ['c'], remove: true }])).toBe('{\n  "a": 1,\n  "b": 2\n}');
    expect(
      edit(text, [
        { path: ['a'], remove: true },
        { path: ['b'], remove: true },
        { path: ['c'], remove: true },
      ]),
    ).toBe('{}');
  });

  it('removes every copy of a duplicated key', () => {
    expect(edit('{"a": 1, "b": 0, "a": 2}', [{ path: ['a'], remove: true }])).toBe('{"b": 0}');
  });

  it('removes list items when a shorter list is set', () => {
    const text = '["a", "b", "c", "d"]';
    expect(edit(text, [{ path: [], value: ['a', 'd'] }])).toBe('["a", "d"]');
    expect(edit(text, [{ path: [2], remove: true }])).toBe('["a", "b", "d"]');
  });

  it('treats removing something that is not there as done', () => {
    const text = '{"a": {"b": 1}}';
    expect(editJsonText(text, [{ path: ['a', 'zzz'], remove: true }])).toEqual({
      ok: true,
      value: text,
      changed: false,
    });
    expect(editJsonText(text, [{ path: ['x', 'y'], remove: true }])).toEqual({
      ok: true,
      value: text,
      changed: false,
    });
  });
});

describe('editJsonText replaces values', () => {
  it('rewrites only the changed member when a whole object is set', () => {
    const text =
      '{\n  "schedule": {\n    "run_every_n_ticks": 1,\n    "phase_offset": 0,\n    "note": "keep"\n  }\n}';
    expect(
      edit(text, [{ path: ['schedule'], value: { run_every_n_ticks: 3, phase_offset: 0, note: 'keep' } }]),
    ).toBe(text.replace('"run_every_n_ticks": 1', '"run_every_n_ticks": 3'));
  });

  it('replaces a scalar with an object laid out like its parent', () => {
    const text = '{\n  "model": "gpt-4o",\n  "x": 1\n}';
    expect(edit(text, [{ path: ['model'], value: { key: 'gpt-4o', temperature: 0.2 } }])).toBe(
      '{\n  "model": {\n    "key": "gpt-4o",\n    "temperature": 0.2\n  },\n  "x": 1\n}',
    );
  });

  it('keeps keys whose names could clash with object internals', () => {
    const text = '{"__proto__": {"a": 1}, "constructor": 2}';
    const after = edit(text, [{ path: ['__proto__', 'b'], value: 3 }]);
    expect(after).toBe('{"__proto__": {"a": 1, "b": 3}, "constructor": 2}');
  });
});

describe('editJsonText reports what it cannot do', () => {
  it('reports invalid JSON with its line and column', () => {
    const result = editJsonText('{\n  "a": 1,\n}', [{ path: ['a'], value: 2 }]);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toMatchObject({ line: 3, column: 1 });
  });

  it('refuses a path through a value that is not an object or list, naming it and its place', () => {
    const result = editJsonText('{\n  "model": "gpt"\n}', [{ path: ['model', 'key'], value: 'x' }]);
    expect(result).toEqual({
      ok: false,
      error: { message: 'model is not an object or list', path: ['model', 'key'], line: 2, column: 12 },
    });
  });

  it('refuses a list position past the end and a number used as an object key', () => {
    const past = editJsonText('{"tools": ["a"]}', [{ path: ['tools', 5], value: 'b' }]);
    expect(past.ok || past.error.message).toBe('tools[5] is past the end of a list of 1');
    const wrongStep = editJsonText('{"a": {}}', [{ path: ['a', 0], value: 1 }]);
    expect(wrongStep.ok || wrongStep.error.message).toBe('a[0]: a field of an object must be named by text');
  });

  it('refuses values JSON cannot hold', () => {
    for (const value of [undefined, Number.NaN, Infinity, () => 1, new Date(0), 10n]) {
      const result = editJsonText('{}', [{ path: ['a'], value: { nested: [value] } }]);
      expect(result.ok).toBe(false);
    }
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(editJsonText('{}', [{ path: ['a'], value: cyclic }]).ok).toBe(false);
  });

  it('refuses to remove the whole document', () => {
    expect(editJsonText('{}', [{ path: [], remove: true }]).ok).toBe(false);
  });
});

describe('editJsonText on deep documents', () => {
  it('edits a document nested far deeper than the call stack allows for recursion', () => {
    const depth = 20_000;
    const text = `${'['.repeat(depth)}1${']'.repeat(depth)}`;
    const path = Array.from({ length: depth }, () => 0);
    const result = editJsonText(text, [{ path, value: 2 }]);
    expect(result.ok && result.value).toBe(`${'['.repeat(depth)}2${']'.repeat(depth)}`);
  });
});

describe('jsonEqual', () => {
  it('compares JSON data regardless of key order', () => {
    expect(jsonEqual({ a: 1, b: [1, { c: null }] }, { b: [1, { c: null }], a: 1 })).toBe(true);
    expect(jsonEqual({ a: 1 }, { a: 1, b: undefined })).toBe(false);
    expect(jsonEqual([1, 2], [2, 1])).toBe(false);
  });
});

describe('editJsonText agrees with editing the parsed value', () => {
  /** A small seeded generator, so a failure can be replayed. */
  function random(seed: number): () => number {
    let state = seed;
    return () => {
      state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
      return state / 2 ** 31;
    };
  }

  function pick<T>(next: () => number, items: readonly T[]): T {
    return items[Math.floor(next() * items.length)] as T;
  }

  function containerPaths(value: unknown, path: (string | number)[] = []): (string | number)[][] {
    if (typeof value !== 'object' || value === null) return [];
    const children = Array.isArray(value)
      ? value.map((item, index) => [index, item] as const)
      : Object.entries(value);
    return [path, ...children.flatMap(([step, child]) => containerPaths(child, [...path, step]))];
  }

  const newValues = [
    0,
    -1.5,
    'text',
    'é ☕',
    true,
    null,
    [],
    {},
    ['a', 'b'],
    { nested: { list: [1, { x: 'y' }] } },
  ];

  it.each(fixtureResumes)(
    'stays equal to the value model over 300 random edits of $folder',
    ({ folder, text }) => {
      const next = random(folder.length * 7919);
      let current = text;
      for (let round = 0; round < 300; round += 1) {
        const value = valueOf(current);
        const containers = containerPaths(value);
        const parentPath = pick(next, containers);
        const parent = valueAt(value, parentPath);
        const existing: (string | number)[] = Array.isArray(parent)
          ? parent.map((_, index) => index)
          : Object.keys(parent as object);
        const action = next();
        let change: JsonEdit;
        if (action < 0.3 && existing.length > 0)
          change = { path: [...parentPath, pick(next, existing)], remove: true };
        else if (action < 0.65 && existing.length > 0)
          change = { path: [...parentPath, pick(next, existing)], value: pick(next, newValues) };
        else
          change = {
            path: [...parentPath, Array.isArray(parent) ? parent.length : `k${round}`],
            value: pick(next, newValues),
          };

        const after = edit(current, [change]);
        expect(valueOf(after), JSON.stringify(change)).toEqual(applyToValue(value, change));
        current = after;
      }
    },
  );
});

describe('many edits in one call (the single-parse path)', () => {
  const oneByOne = (text: string, edits: JsonEdit[]) =>
    edits.reduce((current, edit) => {
      const result = editJsonText(current, [edit]);
      if (!result.ok) throw new Error(result.error.message);
      return result.value;
    }, text);

  const credits =
    '{\n  "a": {\n    "model": "m",\n    "credits_left": 1.0,\n    "extra": {"kept": "\\u00e9"}\n  },\n  "b": {"model": "m", "credits_left": 2}\n}\n';

  it('replacing many values equals replacing them one at a time, and keeps every other byte', () => {
    const edits: JsonEdit[] = [
      { path: ['b', 'credits_left'], value: 1.5 },
      { path: ['a', 'credits_left'], value: 0.25 },
    ];
    const result = editJsonText(credits, edits);
    expect(result).toEqual({ ok: true, value: oneByOne(credits, edits), changed: true });
    if (result.ok) expect(result.value).toContain('"extra": {"kept": "\\u00e9"}');
  });

  it('adding entries (several fields each) equals adding them one at a time, into empty and non-empty objects', () => {
    const adds: JsonEdit[] = [
      { path: ['c', 'model'], value: 'm' },
      { path: ['c', 'credits_left'], value: 3 },
      { path: ['a', 'credits_left'], value: 9 },
      { path: ['d', 'model'], value: 'n' },
    ];
    expect(editJsonText(credits, adds)).toEqual({ ok: true, value: oneByOne(credits, adds), changed: true });
    for (const empty of ['{}', '{}\n', '{\n}\n']) {
      expect(
        editJsonText(
          empty,
          adds.filter((edit) => edit.path[0] !== 'a'),
        ),
      ).toEqual({
        ok: true,
        value: oneByOne(
          empty,
          adds.filter((edit) => edit.path[0] !== 'a'),
        ),
        changed: true,
      });
    }
  });

  it('additions that create nested objects under one new key keep every sibling', () => {
    const edits: JsonEdit[] = [
      { path: ['m', 'provider'], value: 'openai' },
      { path: ['m', 'cfg', 'base'], value: 'http://x' },
      { path: ['m', 'cfg', 'key'], value: 'K' },
    ];
    const result = editJsonText(credits, edits);
    expect(result).toEqual({ ok: true, value: oneByOne(credits, edits), changed: true });
    if (result.ok)
      expect(JSON.parse(result.value).m).toEqual({ provider: 'openai', cfg: { base: 'http://x', key: 'K' } });
  });

  it('falls back to one edit at a time when edits overlap or remove', () => {
    const edits: JsonEdit[] = [
      { path: ['a'], value: { model: 'x' } },
      { path: ['a', 'credits_left'], value: 4 },
      { path: ['b'], remove: true },
    ];
    expect(editJsonText(credits, edits)).toEqual({
      ok: true,
      value: oneByOne(credits, edits),
      changed: true,
    });
  });
});

describe('editJsonText on a big object (credits.json of many agents)', () => {
  const entries = (count: number) =>
    Array.from({ length: count }, (_, index) => `"agent_${index}": {"credits_left": ${index}}`);

  it('edits the last of duplicate keys in a big object, as JSON.parse reads it', () => {
    const text = `{${[...entries(40), '"agent_3": {"credits_left": -1}'].join(', ')}}`;
    const edited = editJsonText(text, [{ path: ['agent_3', 'credits_left'], value: 7 }]);
    expect(edited).toMatchObject({ ok: true });
    const result = edited as { value: string };
    expect(JSON.parse(result.value).agent_3.credits_left).toBe(7);
    expect(result.value).toContain('"agent_3": {"credits_left": 3}');
  });

  it('sets one balance per agent in a one-line file of 2,000 agents, touching nothing else', () => {
    const text = `{${entries(2000).join(', ')}}`;
    const edits: JsonEdit[] = Array.from({ length: 2000 }, (_, index) => ({
      path: [`agent_${index}`, 'credits_left'],
      value: index + 0.5,
    }));
    const edited = editJsonText(text, edits) as { ok: true; value: string };
    expect(edited.value).toBe(
      text.replace(/"credits_left": (\d+)/g, (_, n: string) => `"credits_left": ${n}.5`),
    );
  });
});
