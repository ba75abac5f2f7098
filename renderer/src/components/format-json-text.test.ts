import { describe, expect, it } from 'vitest';
import { formatJsonText } from './format-json-text';

describe('formatJsonText', () => {
  it('indents objects and arrays like JSON.stringify for ordinary keys', () => {
    const value = { kind: 'x', nested: { list: [1, 'two', { three: null }], empty: {}, none: [] } };
    expect(formatJsonText(JSON.stringify(value))).toBe(JSON.stringify(value, null, 2));
  });

  it('keeps keys in stored order, integer-like keys included', () => {
    const text = '{"b":1,"10":2,"a":3,"2":4}';
    expect(formatJsonText(text)).toBe('{\n  "b": 1,\n  "10": 2,\n  "a": 3,\n  "2": 4\n}');
  });

  it('keeps numbers with every digit', () => {
    expect(formatJsonText('{"n":12345678901234567890123}')).toContain('12345678901234567890123');
  });

  it('leaves brackets, commas, colons and escaped quotes inside strings alone', () => {
    const text = '{"s":"a, {b}: [c] \\"d\\" \\\\"}';
    expect(formatJsonText(text)).toBe('{\n  "s": "a, {b}: [c] \\"d\\" \\\\"\n}');
  });

  it('drops insignificant whitespace between tokens', () => {
    expect(formatJsonText('{ "a" : [ 1 , 2 ] }')).toBe('{\n  "a": [\n    1,\n    2\n  ]\n}');
  });
});
