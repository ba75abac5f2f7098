import { MIN_REDACTED_LENGTH } from './secret-spellings';

/**
 * Cuts text that has already been redacted, so a secret that straddles the cut was replaced whole
 * before it. What is left at the cut edge is then checked once more: a tail that is the first
 * characters of a secret (in any of its spellings) is replaced by `label`, so no prefix of a secret
 * survives in a result, a prompt, a log or the timeline. Runs of MIN_REDACTED_LENGTH (4) characters
 * or more count, which covers every run of 8 and every short secret whole.
 */
export function cutRedacted(
  redacted: string,
  limit: number,
  spellings: readonly string[],
  label: string,
  take: TakeCharacters = takeUnits,
): string {
  const kept = take(redacted, limit);
  if (kept.length === redacted.length) return redacted;
  const leaked = secretPrefixAtEnd(kept, spellings);
  return leaked === 0 ? kept : `${kept.slice(0, kept.length - leaked)}${label}`;
}

/** The first `limit` characters of `text`, as a cut site counts them (UTF-16 units, code points). */
export type TakeCharacters = (text: string, limit: number) => string;

const takeUnits: TakeCharacters = (text, limit) => text.slice(0, limit);

/** How many characters at the end of `text` are the start of one of `spellings` (0 when none, or fewer than 4). */
export function secretPrefixAtEnd(text: string, spellings: readonly string[]): number {
  let longest = 0;
  for (const spelling of spellings) {
    for (
      let length = Math.min(spelling.length - 1, text.length);
      length >= Math.min(MIN_REDACTED_LENGTH, spelling.length) && length > longest;
      length -= 1
    ) {
      if (text.endsWith(spelling.slice(0, length))) {
        longest = length;
        break;
      }
    }
  }
  return longest;
}
