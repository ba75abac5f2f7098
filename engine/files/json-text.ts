import type { Result } from '../api/result';
/** Deeper values are refused before serializing: the serializer recurses, and no agent needs more. */
export const MAX_JSON_DEPTH = 100;

/** A JSON document that could not be parsed, located for a person to fix. */
export interface JsonSyntaxError {
  message: string;
  line: number;
  column: number;
}

export type JsonParseResult = Result<unknown, JsonSyntaxError>;

/** 1-based line and column of a character offset. */
export function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, Math.max(0, Math.min(offset, text.length)));
  const lastNewline = before.lastIndexOf('\n');
  return { line: before.split('\n').length, column: offset - lastNewline };
}

/**
 * Where `text` nests containers more than MAX_JSON_DEPTH deep, as a located problem, or null. Call it
 * on JSON anyone could have written before anything that recurses over the parsed value sees it.
 */
export function jsonNestingProblem(text: string): JsonSyntaxError | null {
  const offset = nestingTooDeepAt(text, MAX_JSON_DEPTH);
  return offset === null
    ? null
    : {
        message: `the JSON nests more than ${MAX_JSON_DEPTH} levels deep here`,
        ...lineAndColumn(text, offset),
      };
}

/**
 * The offset of the first `[` or `{` that opens a container deeper than `maxDepth`, or null. A scan of
 * the characters (strings skipped), so it is safe on any text, however deep, before anything parses it.
 */
function nestingTooDeepAt(text: string, maxDepth: number): number | null {
  let depth = 0;
  for (let pos = 0; pos < text.length; pos += 1) {
    const code = text.charCodeAt(pos);
    if (code === 0x22) {
      pos += 1;
      while (pos < text.length && text.charCodeAt(pos) !== 0x22) pos += text.charCodeAt(pos) === 0x5c ? 2 : 1;
    } else if (code === 0x5b || code === 0x7b) {
      depth += 1;
      if (depth > maxDepth) return pos;
    } else if (code === 0x5d || code === 0x7d) depth -= 1;
  }
  return null;
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
  if (/Unexpected end of JSON input/.test(message)) return lineAndColumn(text, text.length);
  return lineAndColumn(text, firstBadOffset(text));
}

/**
 * V8 reports some errors ("Unexpected token ']'") without a position. The error is where the text
 * stops being the start of some valid JSON: the longest such prefix is found by binary search.
 */
function firstBadOffset(text: string): number {
  let viable = 0;
  let broken = text.length;
  while (broken - viable > 1) {
    const middle = Math.floor((viable + broken) / 2);
    if (isViablePrefix(text.slice(0, middle))) viable = middle;
    else broken = middle;
  }
  return viable;
}

function isViablePrefix(prefix: string): boolean {
  try {
    JSON.parse(prefix);
    return true;
  } catch (error) {
    const message = error instanceof Error ? error.message : '';
    if (/Unexpected end of JSON input/.test(message)) return true;
    const position = /position (\d+)/.exec(message);
    return position !== null && Number(position[1]) >= prefix.length;
  }
}

/** The engine's message without its position, and without the copy of the whole text V8 appends to some. */
function describeSyntaxError(message: string): string {
  const withoutPosition = message
    .replace(/, (\.\.\.)?"[\s\S]*"(\.\.\.)? is not valid JSON$/, '')
    .replace(/\s*(in JSON )?at position \d+.*$/, '')
    .replace(/\s*\(line \d+ column \d+\)/, '');
  return `invalid JSON: ${withoutPosition}`;
}
