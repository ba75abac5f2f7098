/** Shortest last word that is also matched as a prefix; shorter prefixes expand to too many terms. */
const MIN_PREFIX_CHARS = 2;

const WORD_CHAR = /[\p{L}\p{N}]/u;
const ENDS_WITH_WORD_CHARS = /[\p{L}\p{N}]+$/u;

/**
 * Turns what a person typed into an FTS5 query: every whitespace-separated word must appear (as a
 * phrase of its tokens, so `tool_call` finds "tool call"), and the last word also matches as a prefix
 * while it is still being typed. Each word is a quoted FTS5 string, so quotes, operators, `-`, `*`,
 * `NEAR`, `OR` and column filters in the input are plain text. Returns null when nothing searchable
 * remains (only spaces or punctuation).
 */
export function searchQueryOf(text: string): string | null {
  // Control characters separate words too: a NUL would end the query string inside SQLite.
  const words = text.split(/[\s\p{Cc}]+/u).filter((word) => WORD_CHAR.test(word));
  if (words.length === 0) return null;
  const stillTyping = !/[\s\p{Cc}]$/u.test(text);
  return words
    .map((word, index) => {
      const phrase = `"${word.replaceAll('"', '""')}"`;
      const lastToken = ENDS_WITH_WORD_CHARS.exec(word)?.[0] ?? '';
      const isPrefix = stillTyping && index === words.length - 1 && [...lastToken].length >= MIN_PREFIX_CHARS;
      return isPrefix ? `${phrase}*` : phrase;
    })
    .join(' ');
}
