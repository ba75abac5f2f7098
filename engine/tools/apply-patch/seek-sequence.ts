import { rustTrim, rustTrimEnd } from './rust-whitespace';

/** The rungs of codex-rs's matching ladder, strictest first. */
export type MatchRung = 'exact' | 'trailing_whitespace' | 'surrounding_whitespace' | 'unicode_punctuation';

export interface SequenceMatch {
  start: number;
  rung: MatchRung;
}

const PUNCTUATION_TO_ASCII: ReadonlyMap<string, string> = new Map([
  ...[...'\u2010\u2011\u2012\u2013\u2014\u2015\u2212'].map((c) => [c, '-'] as const),
  ...[...'\u2018\u2019\u201a\u201b'].map((c) => [c, "'"] as const),
  ...[...'\u201c\u201d\u201e\u201f'].map((c) => [c, '"'] as const),
  ...[...'\u00a0\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u202f\u205f\u3000'].map(
    (c) => [c, ' '] as const,
  ),
]);

const asciiPunctuation = (text: string): string =>
  [...rustTrim(text)].map((c) => PUNCTUATION_TO_ASCII.get(c) ?? c).join('');

const RUNGS: readonly { rung: MatchRung; normalise: (text: string) => string }[] = [
  { rung: 'exact', normalise: (text) => text },
  { rung: 'trailing_whitespace', normalise: rustTrimEnd },
  { rung: 'surrounding_whitespace', normalise: rustTrim },
  { rung: 'unicode_punctuation', normalise: asciiPunctuation },
];

export type SeekSequence = (
  pattern: readonly string[],
  start: number,
  endOfFile: boolean,
) => SequenceMatch | null;

/**
 * codex-rs `seek_sequence` over `lines`: the first position at or after `start` where `pattern`
 * matches, trying each rung over the whole range before the next, looser one. With `endOfFile` only the
 * position that ends at the last line is tried (codex's code, not its doc comment). An empty pattern
 * matches at `start`. There is no ambiguity check: the earliest match wins, as in codex. Each rung's
 * normalised lines are computed once, on first need, and reused by every later seek.
 */
export function lineMatcher(lines: readonly string[]): SeekSequence {
  const normalised = new Map<MatchRung, readonly string[]>([['exact', lines]]);
  const linesFor = (rung: MatchRung, normalise: (text: string) => string) => {
    let cached = normalised.get(rung);
    if (cached === undefined) {
      cached = lines.map(normalise);
      normalised.set(rung, cached);
    }
    return cached;
  };
  return (pattern, start, endOfFile) => {
    if (pattern.length === 0) return { start, rung: 'exact' };
    if (pattern.length > lines.length) return null;
    const last = lines.length - pattern.length;
    const first = endOfFile ? last : start;
    for (const { rung, normalise } of RUNGS) {
      const wanted = pattern.map(normalise);
      const candidates = linesFor(rung, normalise);
      for (let at = first; at <= last; at += 1) {
        if (wanted.every((text, offset) => candidates[at + offset] === text)) return { start: at, rung };
      }
    }
    return null;
  };
}
