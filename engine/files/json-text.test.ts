import { describe, expect, it } from 'vitest';
import { lineAndColumn, parseJsonText } from './json-text';

function errorOf(text: string) {
  const result = parseJsonText(text);
  if (result.ok) throw new Error('expected a syntax error');
  return result.error;
}

describe('parseJsonText', () => {
  it('parses JSON and accepts a leading byte-order mark', () => {
    expect(parseJsonText('\uFEFF{"a": [1, 2.5e3]}')).toEqual({ ok: true, value: { a: [1, 2500] } });
  });

  it('points at a trailing comma before a closing brace', () => {
    expect(errorOf('{\n  "a": 1,\n}')).toMatchObject({ line: 3, column: 1 });
  });

  it('points at errors V8 reports without a position, and leaves the text out of the message', () => {
    const text = '{\n  "tools": ["a",],\n  "secret_looking": "do not echo me"\n}';
    const error = errorOf(text);
    expect(error).toEqual({ message: "invalid JSON: Unexpected token ']'", line: 2, column: 17 });
    expect(errorOf('{\n  "ok": tru\n}')).toMatchObject({ line: 2, column: 12 });
  });

  it('points at a missing colon, an unterminated string and the end of cut-off input', () => {
    expect(errorOf('{\n  "a" 1\n}')).toMatchObject({ line: 2, column: 7 });
    expect(errorOf('{"a": "open')).toMatchObject({ line: 1, column: 12 });
    expect(errorOf('{\n  "a": [1,\n')).toMatchObject({ line: 3, column: 1 });
    expect(errorOf('')).toMatchObject({ line: 1, column: 1 });
  });

  it('names what is wrong', () => {
    expect(errorOf('{"a" 1}').message).toBe("invalid JSON: Expected ':' after property name");
    expect(errorOf('[1] x').message).toMatch(/^invalid JSON: Unexpected non-whitespace character after JSON/);
  });
});

describe('lineAndColumn', () => {
  it('counts from 1', () => {
    expect(lineAndColumn('ab\ncd', 0)).toEqual({ line: 1, column: 1 });
    expect(lineAndColumn('ab\ncd', 4)).toEqual({ line: 2, column: 2 });
  });
});
