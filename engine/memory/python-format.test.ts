import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { exceedsJsonDepth, pythonJsonDumps, pythonUtcIsoFormat, utcNowMicros } from './python-format';

const HAPPY_PATH = resolve(
  import.meta.dirname,
  '../../../shared/fixtures/lemming-upstream/engine-output/happy_path/agents',
);

// Expected texts below were printed by CPython 3.11's json.dumps / datetime.isoformat.
const MIXED = {
  text: 'café ☕ 😀 \u007f \u0001 \t\n"\\/',
  n: [1, -2, 0.5, 1.5e-7, 123456.789, null, true, false],
  empty: {},
  list: [],
  nested: { a: [{ b: [] }] },
};

describe('pythonJsonDumps', () => {
  it('writes indent=2 text byte for byte like json.dump, escaping non-ASCII as UTF-16 units', () => {
    expect(pythonJsonDumps(MIXED, 2)).toBe(
      '{\n  "text": "caf\\u00e9 \\u2615 \\ud83d\\ude00 \\u007f \\u0001 \\t\\n\\"\\\\/",\n  "n": [\n    1,\n    -2,\n    0.5,\n' +
        '    1.5e-07,\n    123456.789,\n    null,\n    true,\n    false\n  ],\n  "empty": {},\n  "list": [],\n' +
        '  "nested": {\n    "a": [\n      {\n        "b": []\n      }\n    ]\n  }\n}',
    );
  });

  it('writes json.dumps default separators without an indent', () => {
    expect(pythonJsonDumps(MIXED)).toBe(
      '{"text": "caf\\u00e9 \\u2615 \\ud83d\\ude00 \\u007f \\u0001 \\t\\n\\"\\\\/", "n": [1, -2, 0.5, 1.5e-07, 123456.789, null, true, false], ' +
        '"empty": {}, "list": [], "nested": {"a": [{"b": []}]}}',
    );
  });

  it('prints floats like Python repr', () => {
    const floats = [
      0.5,
      1.5e-7,
      123456.789,
      1e16,
      2.5e16,
      1e-4,
      1e-5,
      -0.001,
      1e15 + 0.5,
      0.1 + 0.2,
      1e300,
      -1.5e-300,
      5e-324,
      1.7976931348623157e308,
      12345678.9,
    ];
    expect(pythonJsonDumps(floats)).toBe(
      '[0.5, 1.5e-07, 123456.789, 1e+16, 2.5e+16, 0.0001, 1e-05, -0.001, 1000000000000000.5, 0.30000000000000004, 1e+300, -1.5e-300, 5e-324, 1.7976931348623157e+308, 12345678.9]',
    );
  });

  it('reproduces LeMMing memory files exactly', async () => {
    const file = join(HAPPY_PATH, 'spec_writer/memory/snapshot.json');
    const text = await readFile(file, 'utf8');
    expect(pythonJsonDumps(JSON.parse(text), 2)).toBe(text);
  });

  it('leaves out members JSON cannot hold and writes null for missing array items', () => {
    expect(pythonJsonDumps({ a: undefined, b: () => 1, c: [undefined, Number.NaN], d: new Date(0) })).toBe(
      '{"c": [null, null], "d": "1970-01-01T00:00:00.000Z"}',
    );
  });

  it('refuses values nested deeper than it can write, with a clear message', () => {
    let deep: unknown = 1;
    for (let i = 0; i < 150; i += 1) deep = [deep];
    expect(() => pythonJsonDumps(deep)).toThrow(/nests deeper than 100 levels/);
  });
});

describe('pythonUtcIsoFormat', () => {
  it('prints microseconds and +00:00 like datetime.isoformat', () => {
    const micros = Date.UTC(2026, 4, 11, 19, 11, 12, 913) * 1000 + 992;
    expect(pythonUtcIsoFormat(micros)).toBe('2026-05-11T19:11:12.913992+00:00');
    expect(pythonUtcIsoFormat(Date.UTC(2026, 0, 1) * 1000)).toBe('2026-01-01T00:00:00.000000+00:00');
  });

  it('reads back with Date to within a millisecond of now', () => {
    const now = Date.now();
    expect(Math.abs(Date.parse(pythonUtcIsoFormat(utcNowMicros())) - now)).toBeLessThan(1000);
  });
});

describe('exceedsJsonDepth', () => {
  it('counts nesting of arrays and objects, not scalars', () => {
    expect(exceedsJsonDepth('text', 0)).toBe(false);
    expect(exceedsJsonDepth({ a: [1] }, 2)).toBe(false);
    expect(exceedsJsonDepth({ a: [[1]] }, 2)).toBe(true);
  });

  it('handles a million levels without overflowing the stack', () => {
    const deep = JSON.parse('['.repeat(1_000_000) + ']'.repeat(1_000_000));
    expect(exceedsJsonDepth(deep)).toBe(true);
  });
});
