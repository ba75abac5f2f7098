import { describe, expect, it } from 'vitest';
import { searchQueryOf } from './search-query';

describe('searchQueryOf', () => {
  it('requires every word and matches the last one as a prefix while it is being typed', () => {
    expect(searchQueryOf('invoice bud')).toBe('"invoice" "bud"*');
  });

  it('stops treating the last word as a prefix once a space follows it', () => {
    expect(searchQueryOf('invoice bud ')).toBe('"invoice" "bud"');
  });

  it('does not prefix-match a one-letter word, which would expand to most of the index', () => {
    expect(searchQueryOf('plan a')).toBe('"plan" "a"');
  });

  it('quotes FTS5 operators and syntax so they are searched as text', () => {
    expect(searchQueryOf('NOT budget OR -deploy NEAR(x y) text:foo ^bar')).toBe(
      '"NOT" "budget" "OR" "-deploy" "NEAR(x" "y)" "text:foo" "^bar"*',
    );
  });

  it('doubles embedded quotes, so input cannot close the quoted string', () => {
    expect(searchQueryOf('say "hi" or" AND *')).toBe('"say" """hi""" "or""" "AND"*');
  });

  it('returns null when nothing searchable is left', () => {
    for (const text of ['', '   ', '*', '- -', '"', '()', '***"']) expect(searchQueryOf(text)).toBeNull();
  });

  it('treats control characters as spaces, so a NUL cannot cut the query short', () => {
    expect(searchQueryOf('\u0000invoice\u0007budget')).toBe('"invoice" "budget"*');
  });

  it('keeps non-Latin words', () => {
    expect(searchQueryOf('Rechnung für Zoë 請求書')).toBe('"Rechnung" "für" "Zoë" "請求書"*');
  });
});
