export type LineEnding = '\n' | '\r\n';

export interface SourceLine {
  text: string;
  /** null only for a last line that has no newline. */
  ending: LineEnding | null;
}

export interface SourceText {
  byteOrderMark: boolean;
  lines: SourceLine[];
  /** The file's first line ending (LF for a file without one): what new lines get, as in codex. */
  preferredEnding: LineEnding;
}

const BYTE_ORDER_MARK = '\ufeff';

/**
 * Splits a file into lines that remember their own endings, so that an edit rewrites only the lines it
 * touches and a CRLF (or mixed) file keeps its endings. A byte order mark is set aside, so the first
 * line can be matched, and put back on join.
 */
export function splitSourceText(text: string): SourceText {
  const byteOrderMark = text.startsWith(BYTE_ORDER_MARK);
  const body = byteOrderMark ? text.slice(BYTE_ORDER_MARK.length) : text;
  const lines: SourceLine[] = [];
  let lineStart = 0;
  for (let newline = body.indexOf('\n'); newline !== -1; newline = body.indexOf('\n', lineStart)) {
    const line = body.slice(lineStart, newline);
    lines.push(
      line.endsWith('\r') ? { text: line.slice(0, -1), ending: '\r\n' } : { text: line, ending: '\n' },
    );
    lineStart = newline + 1;
  }
  if (lineStart < body.length) lines.push({ text: body.slice(lineStart), ending: null });
  return { byteOrderMark, lines, preferredEnding: lines[0]?.ending ?? '\n' };
}

export function joinSourceText(source: SourceText): string {
  const body = source.lines.map((line) => line.text + (line.ending ?? '')).join('');
  return source.byteOrderMark ? BYTE_ORDER_MARK + body : body;
}
