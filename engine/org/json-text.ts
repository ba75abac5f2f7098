/** A JSON document that could not be parsed, located for a person to fix. */
export interface JsonSyntaxError {
  message: string;
  line: number;
  column: number;
}

export type JsonParseResult = { ok: true; value: unknown } | { ok: false; error: JsonSyntaxError };

/** 1-based line and column of a character offset. */
export function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, Math.max(0, Math.min(offset, text.length)));
  const lastNewline = before.lastIndexOf('\n');
  return { line: before.split('\n').length, column: offset - lastNewline };
}

/** JSON.parse that reports where the text is wrong instead of throwing. Accepts a leading BOM. */
export function parseJsonText(text: string): JsonParseResult {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  try {
    return { ok: true, value: JSON.parse(body) };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { ok: false, error: { message: describeSyntaxError(message), ...locate(body, message) } };
  }
}

function locate(text: string, message: string): { line: number; column: number } {
  const lineColumn = /line (\d+) column (\d+)/.exec(message);
  if (lineColumn) return { line: Number(lineColumn[1]), column: Number(lineColumn[2]) };
  const position = /position (\d+)/.exec(message);
  if (position) return lineAndColumn(text, Number(position[1]));
  // "Unexpected end of JSON input" carries no position: the problem is at the end.
  return lineAndColumn(text, text.length);
}

function describeSyntaxError(message: string): string {
  const withoutPosition = message
    .replace(/\s*(in JSON )?at position \d+.*$/, '')
    .replace(/\s*\(line \d+ column \d+\)/, '');
  return `invalid JSON: ${withoutPosition}`;
}
