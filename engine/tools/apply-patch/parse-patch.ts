import type { Result } from '../../api/result';
import type { ChunkLine, Hunk, UpdateChunk } from './patch-hunks';
import { rustTrim } from './rust-whitespace';

const BEGIN_PATCH = '*** Begin Patch';
const END_PATCH = '*** End Patch';
const ADD_FILE = '*** Add File: ';
const DELETE_FILE = '*** Delete File: ';
const UPDATE_FILE = '*** Update File: ';
const MOVE_TO = '*** Move to: ';
const END_OF_FILE = '*** End of File';
const CONTEXT = '@@ ';
const BARE_CONTEXT = '@@';
const HEREDOC_OPENERS = new Set(['<<EOF', "<<'EOF'", '<<"EOF"']);

export type ParsePatchOutcome = Result<Hunk[], string>;

class PatchSyntaxError extends Error {}

const invalidPatch = (message: string) => new PatchSyntaxError(`invalid patch: ${message}`);
const invalidHunk = (line: number, message: string) =>
  new PatchSyntaxError(`invalid hunk at line ${line}, ${message}`);

/**
 * Parses apply_patch text the way codex-rs does in its (always on) lenient mode: the text is trimmed,
 * CRLF is accepted, the begin/end markers and hunk headers may be padded with whitespace, a `<<EOF`
 * heredoc wrapper is unwrapped, the first chunk of an update may omit `@@`, and an empty line inside a
 * chunk is an empty context line. Error texts and line numbers are codex's (line 1 is `*** Begin
 * Patch`). Beyond codex: consecutive `@@` lines nest (codex's own tool description asks for this but its
 * parser rejects it), and a path has its surrounding whitespace removed.
 */
export function parsePatch(text: string): ParsePatchOutcome {
  try {
    const body = patchBody(rustLines(rustTrim(text)));
    const hunks: Hunk[] = [];
    let lineNumber = 2;
    for (let rest = body; rest.length > 0;) {
      const { hunk, consumed } = parseHunk(rest, lineNumber);
      hunks.push(hunk);
      lineNumber += consumed;
      rest = rest.slice(consumed);
    }
    return { ok: true, value: hunks };
  } catch (error) {
    if (error instanceof PatchSyntaxError) return { ok: false, error: error.message };
    throw error;
  }
}

/** Rust's `str::lines`: split on LF, drop one CR before it, no final empty line. */
function rustLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n').map((line) => (line.endsWith('\r') ? line.slice(0, -1) : line));
  if (lines.at(-1) === '') lines.pop();
  return lines;
}

function patchBody(lines: string[]): string[] {
  const strictError = boundaryError(lines);
  if (strictError === null) return lines.slice(1, -1);
  const first = lines[0];
  const last = lines.at(-1);
  const heredoc =
    lines.length >= 4 && first !== undefined && HEREDOC_OPENERS.has(first) && last?.endsWith('EOF') === true;
  if (!heredoc) throw invalidPatch(strictError);
  const inner = lines.slice(1, -1);
  const innerError = boundaryError(inner);
  if (innerError !== null) throw invalidPatch(innerError);
  return inner.slice(1, -1);
}

function boundaryError(lines: readonly string[]): string | null {
  const first = lines[0] === undefined ? undefined : rustTrim(lines[0]);
  const last = lines.length === 0 ? undefined : rustTrim(lines[lines.length - 1] ?? '');
  if (first === BEGIN_PATCH && last === END_PATCH && lines.length >= 2) return null;
  if (first !== undefined && first !== BEGIN_PATCH)
    return "The first line of the patch must be '*** Begin Patch'";
  return "The last line of the patch must be '*** End Patch'";
}

function parseHunk(lines: readonly string[], lineNumber: number): { hunk: Hunk; consumed: number } {
  const header = rustTrim(lines[0] ?? '');
  if (header.startsWith(ADD_FILE)) {
    const added: string[] = [];
    for (const line of lines.slice(1)) {
      if (!line.startsWith('+')) break;
      added.push(`${line.slice(1)}\n`);
    }
    const path = headerPath(header, ADD_FILE);
    return { hunk: { type: 'add', path, contents: added.join('') }, consumed: 1 + added.length };
  }
  if (header.startsWith(DELETE_FILE)) {
    return { hunk: { type: 'delete', path: headerPath(header, DELETE_FILE) }, consumed: 1 };
  }
  if (header.startsWith(UPDATE_FILE)) return parseUpdate(lines, lineNumber, headerPath(header, UPDATE_FILE));
  throw invalidHunk(
    lineNumber,
    `'${header}' is not a valid hunk header. Valid hunk headers: '*** Add File: {path}', '*** Delete File: {path}', '*** Update File: {path}'`,
  );
}

const headerPath = (header: string, marker: string): string => rustTrim(header.slice(marker.length));

function parseUpdate(
  lines: readonly string[],
  lineNumber: number,
  path: string,
): { hunk: Hunk; consumed: number } {
  let consumed = 1;
  let movePath: string | null = null;
  const moveLine = lines[1];
  // codex matches the Move line unpadded, so an indented one is not a Move.
  if (moveLine?.startsWith(MOVE_TO)) {
    movePath = rustTrim(moveLine.slice(MOVE_TO.length));
    if (movePath === '') throw invalidHunk(lineNumber + 1, `Move to path for '${path}' is empty`);
    consumed += 1;
  }
  const chunks: UpdateChunk[] = [];
  while (consumed < lines.length) {
    const line = lines[consumed] ?? '';
    if (rustTrim(line) === '') {
      consumed += 1;
      continue;
    }
    if (line.startsWith('*')) break;
    const parsed = parseChunk(lines.slice(consumed), lineNumber + consumed, chunks.length === 0);
    chunks.push(parsed.chunk);
    consumed += parsed.consumed;
  }
  const [firstChunk, ...otherChunks] = chunks;
  if (firstChunk === undefined) throw invalidHunk(lineNumber, `Update file hunk for path '${path}' is empty`);
  return { hunk: { type: 'update', path, movePath, chunks: [firstChunk, ...otherChunks] }, consumed };
}

function parseChunk(
  lines: readonly string[],
  lineNumber: number,
  contextMayBeMissing: boolean,
): { chunk: UpdateChunk; consumed: number } {
  const contexts: string[] = [];
  let start = 0;
  for (let line = lines[0]; line !== undefined; line = lines[start]) {
    if (line === BARE_CONTEXT) start += 1;
    else if (line.startsWith(CONTEXT)) {
      contexts.push(line.slice(CONTEXT.length));
      start += 1;
    } else break;
  }
  if (start === 0 && !contextMayBeMissing) {
    throw invalidHunk(
      lineNumber,
      `Expected update hunk to start with a @@ context marker, got: '${lines[0] ?? ''}'`,
    );
  }
  const firstBodyLine = lineNumber + start;
  if (start >= lines.length) throw invalidHunk(firstBodyLine, 'Update hunk does not contain any lines');

  const body: ChunkLine[] = [];
  let endOfFile = false;
  let consumed = start;
  for (const line of lines.slice(start)) {
    if (line === END_OF_FILE) {
      if (body.length === 0) throw invalidHunk(firstBodyLine, 'Update hunk does not contain any lines');
      endOfFile = true;
      consumed += 1;
      break;
    }
    const kind = lineKind(line);
    if (kind === null) {
      if (body.length === 0) {
        throw invalidHunk(
          firstBodyLine,
          `Unexpected line found in update hunk: '${line}'. Every line should start with ' ' (context line), '+' (added line), or '-' (removed line)`,
        );
      }
      break;
    }
    body.push({ kind, text: line.slice(1) });
    consumed += 1;
  }
  return { chunk: { contexts, lines: body, endOfFile }, consumed };
}

function lineKind(line: string): ChunkLine['kind'] | null {
  // codex reads an empty line as an empty context line; slicing its first character off gives "".
  if (line === '' || line.startsWith(' ')) return 'context';
  if (line.startsWith('-')) return 'remove';
  if (line.startsWith('+')) return 'add';
  return null;
}
