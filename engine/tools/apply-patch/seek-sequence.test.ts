import { describe, expect, it } from 'vitest';
import { lineMatcher } from './seek-sequence';

const seekSequence = (lines: string[], pattern: string[], start: number, endOfFile: boolean) =>
  lineMatcher(lines)(pattern, start, endOfFile);

describe('lineMatcher: the codex-rs matching ladder (seek_sequence)', () => {
  it('finds an exact match first', () => {
    expect(seekSequence(['foo', 'bar', 'baz'], ['bar', 'baz'], 0, false)).toEqual({
      start: 1,
      rung: 'exact',
    });
  });

  it('then ignores trailing whitespace', () => {
    expect(seekSequence(['foo   ', 'bar\t\t'], ['foo', 'bar'], 0, false)).toEqual({
      start: 0,
      rung: 'trailing_whitespace',
    });
  });

  it('then ignores leading and trailing whitespace', () => {
    expect(seekSequence(['    foo   ', '   bar\t'], ['foo', 'bar'], 0, false)).toEqual({
      start: 0,
      rung: 'surrounding_whitespace',
    });
  });

  it('then maps Unicode dashes, quotes and spaces to ASCII', () => {
    const file = ['title \u2014 \u201cquoted\u201d', 'it\u2019s\u00a0here', 'a \u2212 b'];
    expect(seekSequence(file, ['title - "quoted"', "it's here", 'a - b'], 0, false)).toEqual({
      start: 0,
      rung: 'unicode_punctuation',
    });
  });

  it('does not normalise letters (no NFC/NFD folding)', () => {
    expect(seekSequence(['caf\u00e9'], ['cafe\u0301'], 0, false)).toBeNull();
  });

  it('tries each rung over the whole range before a looser one, so a later exact match wins', () => {
    expect(seekSequence(['  x', 'x'], ['x'], 0, false)).toEqual({ start: 1, rung: 'exact' });
  });

  it('takes the earliest match at or after the start when several match (no ambiguity check)', () => {
    const file = ['a', 'dup', 'b', 'dup', 'c'];
    expect(seekSequence(file, ['dup'], 0, false)?.start).toBe(1);
    expect(seekSequence(file, ['dup'], 2, false)?.start).toBe(3);
  });

  it('with end of file, tries only the position that ends at the last line', () => {
    const file = ['end', 'middle', 'end'];
    expect(seekSequence(file, ['end'], 0, true)).toEqual({ start: 2, rung: 'exact' });
    expect(seekSequence(['x', 'y', 'z'], ['x'], 0, true)).toBeNull();
  });

  it('matches an empty pattern at the start and never matches a pattern longer than the file', () => {
    expect(seekSequence(['a'], [], 1, false)).toEqual({ start: 1, rung: 'exact' });
    expect(seekSequence(['just one line'], ['too', 'many', 'lines'], 0, false)).toBeNull();
  });

  it('trims like Rust: U+FEFF is not whitespace, U+0085 is', () => {
    expect(seekSequence(['\ufeffx'], ['x'], 0, false)).toBeNull();
    expect(seekSequence(['x\u0085'], ['x'], 0, false)?.rung).toBe('trailing_whitespace');
  });

  it('reuses its normalised lines across seeks, finding each rung again', () => {
    const seek = lineMatcher(['  a', 'b  ', '  a']);
    expect(seek(['a'], 0, false)).toEqual({ start: 0, rung: 'surrounding_whitespace' });
    expect(seek(['a'], 1, false)).toEqual({ start: 2, rung: 'surrounding_whitespace' });
    expect(seek(['b'], 0, false)).toEqual({ start: 1, rung: 'trailing_whitespace' });
  });
});
