import type { Redaction } from '../../../secrets/redactor';
import { z } from 'zod';
import { toolFailure, toolSuccess } from '../../tool-result';
import { checkFolder } from '../shared/file-access';
import { defineFsTool, PATH_HELP } from '../shared/fs-tool';
import { includeMatcher } from '../shared/glob-pattern';
import { renameLegacyArguments } from '../shared/legacy-arguments';
import { searchableFiles, searchableText } from '../shared/searchable-files';
import { longerThan, takeCodePoints } from '../shared/text-content';
import { displayUnder, MAX_SCANNED_FILES } from '../shared/walk-files';

export const DEFAULT_TOTAL_MAX_MATCHES = 100;
/** Matched lines longer than this (in code points) are shown cut, ending in `... [truncated]`. */
export const MAX_MATCH_LINE_CHARACTERS = 2000;
/** Folders gemini-cli leaves out of every search by default. */
export const SKIPPED_FOLDERS: ReadonlySet<string> = new Set(['.git', 'node_modules']);

const atLeastOne = (name: string) =>
  z
    .number()
    .int({ error: `${name} must be a whole number` })
    .min(1, { error: `${name} must be at least 1` });

const GrepSearchArguments = z.strictObject({
  pattern: z
    .string()
    .refine((pattern) => pattern.trim() !== '', { error: "The 'pattern' parameter cannot be empty." })
    .describe(
      "The regular expression (regex) pattern to search for within file contents (e.g., 'function\\s+myFunction', 'import\\s+\\{.*\\}\\s+from\\s+.*').",
    ),
  dir_path: z
    .string()
    .optional()
    .describe(`Optional: The directory to search within (default: your workspace). ${PATH_HELP}`),
  include_pattern: z
    .string()
    .optional()
    .describe(
      "Optional: A glob pattern to filter which files are searched (e.g., '*.js', '*.{ts,tsx}', 'src/**').",
    ),
  exclude_pattern: z
    .string()
    .optional()
    .describe('Optional: A regular expression; matching lines that also match it are left out.'),
  names_only: z
    .boolean()
    .optional()
    .describe('Optional: If true, only the paths of files with matches are returned.'),
  max_matches_per_file: atLeastOne('max_matches_per_file')
    .optional()
    .describe('Optional: Maximum number of matches to return per file.'),
  total_max_matches: atLeastOne('total_max_matches')
    .optional()
    .describe(`Optional: Maximum number of total matches to return (default ${DEFAULT_TOTAL_MAX_MATCHES}).`),
});

interface FileMatches {
  display: string;
  lines: string[];
  /** 1-based numbers of the matching lines. */
  numbers: number[];
}

/**
 * gemini-cli's grep_search: the lines matching a case-insensitive regular expression, grouped by
 * file (`File: <path>`, then `L<n>: <line>`). With one to three matches the lines around them come
 * too (50 lines around one match, 15 otherwise), written `L<n>- <line>`. The older `include` name of
 * `include_pattern` still works.
 */
export const geminiGrepSearchTool = defineFsTool({
  name: 'grep_search',
  title: 'Search file contents',
  description:
    'Searches for a regular expression pattern within the content of files in a specified directory (or your workspace). Can filter files by a glob pattern. Returns the lines containing matches, along with their file paths and line numbers.',
  schema: GrepSearchArguments,
  upgradeArguments: (args) => renameLegacyArguments(args, { include: 'include_pattern' }),
  async run(args, { sandbox, signal, redaction }) {
    const regex = compile(args.pattern);
    if (typeof regex === 'string') return toolFailure(regex);
    const exclude = args.exclude_pattern ? compile(args.exclude_pattern) : null;
    if (typeof exclude === 'string') return toolFailure(exclude);
    const searchPath = args.dir_path ?? '.';
    const checked = await checkFolder(sandbox, searchPath, 'search', 'grep_search');
    if (!checked.ok) {
      if (checked.error.problem === 'not_found') return toolFailure(`Path does not exist: ${searchPath}`);
      if (checked.error.problem === 'not_a_directory')
        return toolFailure(`Path is not a directory: ${searchPath}`);
      return toolFailure(checked.error.message);
    }
    const target = checked.value;
    const include = args.include_pattern?.trim()
      ? includeMatcher(args.include_pattern.trim(), { caseSensitive: false })
      : null;
    if (include && !include.ok) return toolFailure(include.error);
    const totalMax = args.total_max_matches ?? DEFAULT_TOTAL_MAX_MATCHES;
    const perFile = args.max_matches_per_file ?? Number.POSITIVE_INFINITY;

    const walk = await searchableFiles(sandbox.fs, target, { skipFolders: SKIPPED_FOLDERS, signal });
    const files = walk.files.sort((a, b) => (a.relative < b.relative ? -1 : a.relative > b.relative ? 1 : 0));
    const found: FileMatches[] = [];
    let matchCount = 0;
    for (const file of files) {
      if (matchCount >= totalMax) break;
      signal?.throwIfAborted();
      if (include && !include.value(file.relative)) continue;
      const text = await searchableText(sandbox.fs, file.path, file.size);
      if (text === null) continue;
      const lines = text.split(/\r?\n/);
      if (lines.at(-1) === '') lines.pop();
      const numbers: number[] = [];
      lines.forEach((line, index) => {
        if (matchCount >= totalMax || numbers.length >= perFile) return;
        if (!regex.test(line) || exclude?.test(line)) return;
        numbers.push(index + 1);
        matchCount += 1;
      });
      if (numbers.length > 0)
        found.push({ display: displayUnder(target.display, file.relative), lines, numbers });
    }

    const location =
      args.dir_path === undefined ? 'in the workspace directory' : `in path "${args.dir_path}"`;
    const filter = args.include_pattern ? ` (filter: "${args.include_pattern}")` : '';
    const scanNote = walk.truncated
      ? `\n(the search stopped after ${MAX_SCANNED_FILES} files; give a narrower dir_path or include_pattern to search the rest)`
      : '';
    if (matchCount === 0)
      return toolSuccess(`No matches found for pattern "${args.pattern}" ${location}${filter}.${scanNote}`);
    const limited = matchCount >= totalMax ? ` (results limited to ${totalMax} matches for performance)` : '';
    if (args.names_only) {
      const paths = found.map((file) => file.display).sort();
      return toolSuccess(
        `Found ${paths.length} files with matches for pattern "${args.pattern}" ${location}${filter}${limited}:\n${paths.join('\n')}${scanNote}`,
      );
    }
    const context = matchCount === 1 ? 50 : matchCount <= 3 ? 15 : 0;
    const blocks = found.map(
      (file) => `File: ${file.display}\n${shownLines(file, context, redaction).join('\n')}\n---`,
    );
    return toolSuccess(
      `Found ${matchCount} ${matchCount === 1 ? 'match' : 'matches'} for pattern "${args.pattern}" ${location}${filter}${limited}:\n---\n${blocks.join('\n')}${scanNote}`,
    );
  },
});

/** The matching lines (`L<n>: `) and, when `context` > 0, the lines around them (`L<n>- `). */
function shownLines(file: FileMatches, context: number, redaction: Redaction): string[] {
  const matching = new Set(file.numbers);
  const numbers = new Set<number>();
  for (const number of file.numbers)
    for (
      let line = Math.max(1, number - context);
      line <= Math.min(file.lines.length, number + context);
      line += 1
    )
      numbers.add(line);
  return [...numbers]
    .sort((a, b) => a - b)
    .map(
      (number) =>
        `L${number}${matching.has(number) ? ':' : '-'} ${shortened(file.lines[number - 1] ?? '', redaction)}`,
    );
}

function shortened(line: string, redaction: Redaction): string {
  const trimmed = line.trimEnd();
  return longerThan(trimmed, MAX_MATCH_LINE_CHARACTERS)
    ? `${redaction.cutText(trimmed, MAX_MATCH_LINE_CHARACTERS, takeCodePoints)}... [truncated]`
    : trimmed;
}

function compile(pattern: string): RegExp | string {
  try {
    return new RegExp(pattern, 'i');
  } catch (error) {
    return `Invalid regular expression pattern provided: ${pattern}. Error: ${error instanceof Error ? error.message : String(error)}`;
  }
}
