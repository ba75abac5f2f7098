/**
 * Shortest prefix a trailing `*` may ask for: a prefix query merges the postings of every term that
 * starts with it, and one-letter prefixes match most of the index.
 */
const MIN_PREFIX_CHARS = 2;

const WORD_CHAR = /[\p{L}\p{N}]/u;
const PREFIX_WORD = /[\p{L}\p{N}]+\*$/u;

/**
 * Turns what a person typed into an FTS5 query: every whitespace-separated word must appear (as a
 * phrase of its tokens, so `tool_call` finds "tool call"), and a word ending in `*` also matches as a
 * prefix (`invoi*`). Prefixes are asked for, never implied: a prefix query costs far more than a word.
 * Each word is a quoted FTS5 string, so quotes, operators, `-`, other `*`, `NEAR`, `OR` and column
 * filters in the input are plain text. Returns null when nothing searchable remains.
 */
export function searchQueryOf(text: string): string | null {
  // Control characters separate words too: a NUL would end the query string inside SQLite.
  const words = text.split(/[\s\p{Cc}]+/u).filter((word) => WORD_CHAR.test(word));
  if (words.length === 0) return null;
  return words
    .map((word) => {
      const prefix = PREFIX_WORD.exec(word);
      const isPrefix = prefix !== null && [...prefix[0]].length - 1 >= MIN_PREFIX_CHARS;
      const body = isPrefix ? word.slice(0, -1) : word;
      const phrase = `"${body.replaceAll('"', '""')}"`;
      return isPrefix ? `${phrase}*` : phrase;
    })
    .join(' ');
}
