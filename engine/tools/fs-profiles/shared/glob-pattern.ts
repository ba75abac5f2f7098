import type { Result } from '../../../api/result';

export interface GlobOptions {
  caseSensitive: boolean;
}

/**
 * A glob as a regular expression over a path relative to the search folder, with "/" between names.
 * `*` and `?` stay within one name, `[...]` is a class (`[!...]` negated), `{a,b}` an alternation
 * (nested allowed), and `**` as a whole name matches any number of names, none included: `**\/*.ts`
 * matches a top-level `x.ts`, and `src/**\/a.ts` matches `src/a.ts` (the defect in @ljoukov/llm's
 * glob). Dot files match like any other (node-glob's `dot: true`, as gemini-cli uses).
 */
export function globToRegExp(pattern: string, options: GlobOptions): CompiledGlob<RegExp> {
  const body = translate(pattern.replace(/^(\.\/)+/, ''));
  try {
    return { ok: true, value: new RegExp(`^${body}$`, options.caseSensitive ? 'u' : 'iu') };
  } catch (error) {
    return {
      ok: false,
      error: `invalid glob pattern "${pattern}": ${error instanceof Error ? error.message : String(error)}`,
    };
  }
}

/** The matcher, or why the pattern is invalid. */
export type CompiledGlob<T> = Result<T, string>;

/**
 * A matcher for file filters such as grep's `include`: a pattern without "/" is matched against the
 * file's name wherever it is (as ripgrep's --glob and grep's --include do), one with "/" against the
 * path relative to the search folder.
 */
export function includeMatcher(
  pattern: string,
  options: GlobOptions,
): CompiledGlob<(relativePath: string) => boolean> {
  const compiled = globToRegExp(pattern, options);
  if (!compiled.ok) return compiled;
  const regex = compiled.value;
  if (pattern.includes('/')) return { ok: true, value: (relativePath) => regex.test(relativePath) };
  return {
    ok: true,
    value: (relativePath) => regex.test(relativePath.slice(relativePath.lastIndexOf('/') + 1)),
  };
}

function translate(pattern: string): string {
  let out = '';
  let index = 0;
  while (index < pattern.length) {
    const char = pattern[index] as string;
    if (char === '\\' && index + 1 < pattern.length) {
      out += escapeRegExp(pattern[index + 1] as string);
      index += 2;
      continue;
    }
    if (char === '*') {
      const run = /^\*+/.exec(pattern.slice(index))?.[0].length ?? 1;
      const startsName = index === 0 || pattern[index - 1] === '/';
      const after = pattern[index + run];
      if (run >= 2 && startsName && after === '/') {
        out += '(?:[^/]*/)*';
        index += run + 1;
        // `**/**/` means the same as `**/`; collapsing it keeps the expression from backtracking.
        while (pattern.startsWith('**/', index)) index += 3;
        continue;
      }
      if (run >= 2 && startsName && after === undefined) {
        out += '.*';
        index += run;
        continue;
      }
      out += '[^/]*';
      index += run;
      continue;
    }
    if (char === '?') {
      out += '[^/]';
      index += 1;
      continue;
    }
    if (char === '[') {
      const end = classEnd(pattern, index);
      if (end !== -1) {
        out += classOf(pattern.slice(index + 1, end));
        index = end + 1;
        continue;
      }
    }
    if (char === '{') {
      const end = braceEnd(pattern, index);
      if (end !== -1) {
        const alternatives = splitTopLevel(pattern.slice(index + 1, end));
        if (alternatives.length > 1) {
          out += `(?:${alternatives.map(translate).join('|')})`;
          index = end + 1;
          continue;
        }
      }
    }
    out += escapeRegExp(char);
    index += 1;
  }
  return out;
}

/** The index of the `]` closing the class opened at `start`, or -1 when there is none. */
function classEnd(pattern: string, start: number): number {
  let index = start + 1;
  if (pattern[index] === '!' || pattern[index] === '^') index += 1;
  if (pattern[index] === ']') index += 1;
  for (; index < pattern.length; index += 1) {
    if (pattern[index] === '/') return -1;
    if (pattern[index] === ']') return index;
  }
  return -1;
}

function classOf(inside: string): string {
  const negated = inside.startsWith('!') || inside.startsWith('^');
  const members = (negated ? inside.slice(1) : inside).replace(/[\\\]^]/g, (char) => `\\${char}`);
  return negated ? `[^/${members}]` : `[${members}]`;
}

function braceEnd(pattern: string, start: number): number {
  let depth = 0;
  for (let index = start; index < pattern.length; index += 1) {
    const char = pattern[index];
    if (char === '\\') index += 1;
    else if (char === '{') depth += 1;
    else if (char === '}' && --depth === 0) return index;
  }
  return -1;
}

/** Splits at commas that are not inside nested braces. */
function splitTopLevel(inside: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let current = '';
  for (let index = 0; index < inside.length; index += 1) {
    const char = inside[index] as string;
    if (char === '\\') {
      current += char + (inside[index + 1] ?? '');
      index += 1;
      continue;
    }
    if (char === '{') depth += 1;
    if (char === '}') depth -= 1;
    if (char === ',' && depth === 0) {
      parts.push(current);
      current = '';
    } else current += char;
  }
  parts.push(current);
  return parts;
}

function escapeRegExp(char: string): string {
  return /[.*+?^${}()|[\]\\/]/.test(char) ? `\\${char}` : char;
}
