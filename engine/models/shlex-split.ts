import type { Result } from '../api/result';

export type ShlexSplitResult = Result<string[], string>;

/**
 * Splits a command line the way Python's `shlex.split` does in POSIX mode (LeMMing splits a
 * string `command` with it): whitespace separates words, single quotes are literal, double quotes
 * let a backslash escape only `"` and `\`, a bare backslash escapes the next character.
 */
export function shlexSplit(line: string): ShlexSplitResult {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  let index = 0;
  while (index < line.length) {
    const char = line[index] as string;
    if (/\s/.test(char)) {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
      index += 1;
    } else if (char === "'") {
      const end = line.indexOf("'", index + 1);
      if (end === -1) return { ok: false, error: 'no closing quotation (a single quote is not closed)' };
      word += line.slice(index + 1, end);
      inWord = true;
      index = end + 1;
    } else if (char === '"') {
      const quoted = readDoubleQuoted(line, index + 1);
      if (!quoted) return { ok: false, error: 'no closing quotation (a double quote is not closed)' };
      word += quoted.text;
      inWord = true;
      index = quoted.next;
    } else if (char === '\\') {
      if (index + 1 >= line.length)
        return { ok: false, error: 'no escaped character (the line ends with a backslash)' };
      word += line[index + 1];
      inWord = true;
      index += 2;
    } else {
      word += char;
      inWord = true;
      index += 1;
    }
  }
  if (inWord) words.push(word);
  return { ok: true, value: words };
}

function readDoubleQuoted(line: string, start: number): { text: string; next: number } | null {
  let text = '';
  let index = start;
  while (index < line.length) {
    const char = line[index] as string;
    if (char === '"') return { text, next: index + 1 };
    const following = line[index + 1];
    if (char === '\\' && (following === '"' || following === '\\')) {
      text += following;
      index += 2;
    } else {
      text += char;
      index += 1;
    }
  }
  return null;
}
