import { describe, expect, it } from 'vitest';
import { searchQueryOf } from './search-query';

describe('searchQueryOf', () => {
  it('requires every word, each as a quoted phrase', () => {
    expect(searchQueryOf('invoice  budget')).toBe('"invoice" "budget"');
  });

  it('matches a word ending in * as a prefix, anywhere in the query', () => {
    expect(searchQueryOf('invoi* budget dep*')).toBe('"invoi"* "budget" "dep"*');
  });

  it('does not honour a one-letter prefix, which would expand to most of the index', () => {
    expect(searchQueryOf('plan a*')).toBe('"plan" "a*"');
  });

  it('quotes FTS5 operators and syntax so they are searched as text', () => {
    expect(searchQueryOf('NOT budget OR -deploy NEAR(x y) text:foo ^bar *baz')).toBe(
      '"NOT" "budget" "OR" "-deploy" "NEAR(x" "y)" "text:foo" "^bar" "*baz"',
    );
  });

  it('doubles embedded quotes, so input cannot close the quoted string', () => {
    expect(searchQueryOf('say "hi" or" AND *')).toBe('"say" """hi""" "or""" "AND"');
    expect(searchQueryOf('"quoted*')).toBe('"""quoted"*');
  });

  it('returns null when nothing searchable is left', () => {
    for (const text of ['', '   ', '*', '- -', '"', '()', '***"']) expect(searchQueryOf(text)).toBeNull();
  });

  it('treats control characters as spaces, so a NUL cannot cut the query short', () => {
    expect(searchQueryOf('\u0000invoice\u0007budget')).toBe('"invoice" "budget"');
  });

  it('keeps non-Latin words', () => {
    expect(searchQueryOf('Rechnung für Zoë 請求書')).toBe('"Rechnung" "für" "Zoë" "請求書"');
  });
});
