import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * One Result shape (engine/api/result.ts): a failure is `{ ok: false; error: E }`, whatever E is. This
 * check keeps a second failure shape (`{ ok: false; problems }`, `{ ok: false; reason }`…) from coming
 * back: every object type in engine/ and main/ that declares `ok: false;` may hold only `ok` and
 * `error` (object literals are checked by the compiler against these types). Extra context that both outcomes carry goes beside the Result (`Result<T, E> & { file }`),
 * extra success fields in `ResultWith`.
 */

const repoRoot = resolve(import.meta.dirname, '..', '..');
const SCANNED = ['engine', 'main'];

interface FailureShapeOffence {
  line: number;
  /** The fields of the object type other than `ok` and `error`. */
  fields: string[];
}

/** Object types in TypeScript source that declare `ok: false;` beside a field other than `error`. */
function failureShapeOffences(source: string): FailureShapeOffence[] {
  const code = blankCommentsAndStrings(source);
  const offences: FailureShapeOffence[] = [];
  for (const match of code.matchAll(/\bok\??\s*:\s*false\s*[;}]/g)) {
    const open = enclosingBrace(code, match.index);
    if (open === -1) continue;
    const close = matchingBrace(code, open);
    const fields = topLevelFields(code.slice(open + 1, close)).filter(
      (field) => field !== 'ok' && field !== 'error',
    );
    if (fields.length > 0) offences.push({ line: lineOf(source, match.index), fields });
  }
  return offences;
}

/** Comments and the insides of string literals become spaces, so their words are not read as fields. */
function blankCommentsAndStrings(source: string): string {
  return source.replace(
    /\/\*[\s\S]*?\*\/|\/\/[^\n]*|'(?:\\.|[^'\\\n])*'|"(?:\\.|[^"\\\n])*"|`(?:\\.|[^`\\])*`/g,
    (text) => text.replace(/[^\n]/g, ' '),
  );
}

function enclosingBrace(code: string, from: number): number {
  let depth = 0;
  for (let index = from - 1; index >= 0; index -= 1) {
    const char = code[index];
    if (char === '}') depth += 1;
    else if (char === '{') {
      if (depth === 0) return index;
      depth -= 1;
    }
  }
  return -1;
}

function matchingBrace(code: string, open: number): number {
  let depth = 0;
  for (let index = open; index < code.length; index += 1) {
    if (code[index] === '{') depth += 1;
    else if (code[index] === '}') {
      depth -= 1;
      if (depth === 0) return index;
    }
  }
  return code.length;
}

/** The member names of an object type's body, ignoring anything nested in brackets of any kind. */
function topLevelFields(body: string): string[] {
  let flat = '';
  let depth = 0;
  for (let index = 0; index < body.length; index += 1) {
    const char = body[index] as string;
    const arrow = char === '>' && body[index - 1] === '=';
    if ('{([<'.includes(char)) depth += 1;
    else if ('})]'.includes(char) || (char === '>' && !arrow)) depth = Math.max(0, depth - 1);
    else if (depth === 0) flat += char;
  }
  return [...flat.matchAll(/(?:^|[;,\n])\s*(?:readonly\s+)?([A-Za-z_$][\w$]*)\s*\??\s*:/g)].map(
    (match) => match[1] as string,
  );
}

function lineOf(source: string, offset: number): number {
  return source.slice(0, offset).split('\n').length;
}

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return entry.name === 'test-support' ? [] : sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

describe('one Result shape: a failure is always { ok: false; error }', () => {
  it('finds a failure branch with its own field, with the line it is on', () => {
    const source = [
      'export type Read =',
      '  | { ok: true; value: string }',
      '  | { ok: false; problems: Problem[] };',
      'type Lock = { ok: true } | { ok: false; holder: Holder | null; message: string };',
      'type Entry = { entry: string; ok: false; reason: string };',
    ].join('\n');
    expect(failureShapeOffences(source)).toEqual([
      { line: 3, fields: ['problems'] },
      { line: 4, fields: ['holder', 'message'] },
      { line: 5, fields: ['entry', 'reason'] },
    ]);
  });

  it('accepts the Result shape, with any error type and nested objects', () => {
    const source = [
      'type A = { ok: true; value: T } | { ok: false; error: E };',
      'type B = { ok: false; error: { reason: string; problems: Problem[] } };',
      'type C = Extract<Result<T, E>, { ok: false }>;',
      'type D = {',
      '  ok: false;',
      '  /** reason: in a comment */',
      '  error: (field: string) => { message: string };',
      '};',
      "const e = { ok: false, error: 'ok: false; reason: in a string' };",
    ].join('\n');
    expect(failureShapeOffences(source)).toEqual([]);
  });

  it('no source file in engine/ or main/ declares another failure shape', () => {
    const offenders = SCANNED.flatMap((folder) => sourceFiles(join(repoRoot, folder)))
      .map((path) => relative(repoRoot, path).split(sep).join('/'))
      .flatMap((file) =>
        failureShapeOffences(readFileSync(join(repoRoot, file), 'utf8')).map(
          (offence) => `${file}:${offence.line}: ok: false with ${offence.fields.join(', ')} (use error)`,
        ),
      );
    expect(offenders).toEqual([]);
  });
});
