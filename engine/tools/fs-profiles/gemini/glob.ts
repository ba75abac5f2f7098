import { z } from 'zod';
import { toolFailure, toolSuccess } from '../../tool-result';
import { checkFolder } from '../shared/file-access';
import { defineFsTool, PATH_HELP } from '../shared/fs-tool';
import { globToRegExp } from '../shared/glob-pattern';
import { displayUnder, MAX_SCANNED_FILES, walkFiles, type WalkedFile } from '../shared/walk-files';
import { SKIPPED_FOLDERS } from './grep-search';

/** Files changed within this long come first, newest first; older ones follow in path order. */
export const RECENT_FILE_MS = 24 * 60 * 60 * 1000;

const GlobArguments = z.strictObject({
  pattern: z
    .string()
    .refine((pattern) => pattern.trim() !== '', { error: "The 'pattern' parameter cannot be empty." })
    .describe("The glob pattern to match against (e.g., '**/*.py', 'docs/*.md')."),
  dir_path: z
    .string()
    .optional()
    .describe(`Optional: The directory to search within (default: your workspace). ${PATH_HELP}`),
  case_sensitive: z
    .boolean()
    .optional()
    .describe('Optional: Whether the search should be case-sensitive. Defaults to false.'),
  respect_git_ignore: z
    .boolean()
    .optional()
    .describe('Accepted for compatibility with gemini-cli; ignore files are not read.'),
  respect_gemini_ignore: z
    .boolean()
    .optional()
    .describe('Accepted for compatibility with gemini-cli; ignore files are not read.'),
});

/**
 * gemini-cli's glob: the files under a folder whose path relative to it matches the pattern
 * (node-glob rules: `*` within a name, `**` any number of folders, none included, dot files too),
 * recently changed files first. `**\/*.ts` matches top-level files, unlike @ljoukov/llm's glob.
 */
export const geminiGlobTool = defineFsTool({
  name: 'glob',
  title: 'Find files by name',
  description:
    'Efficiently finds files matching specific glob patterns (e.g., `src/**/*.ts`, `**/*.md`), returning their paths sorted by modification time (newest first).',
  schema: GlobArguments,
  async run(args, { sandbox, signal }) {
    const searchPath = args.dir_path ?? '.';
    const checked = await checkFolder(sandbox, searchPath, 'search', 'glob');
    if (!checked.ok) {
      if (checked.error.problem === 'not_found')
        return toolFailure(`Search path does not exist ${searchPath}`);
      if (checked.error.problem === 'not_a_directory')
        return toolFailure(`Search path is not a directory: ${searchPath}`);
      return toolFailure(checked.error.message);
    }
    const folder = checked.value;
    const matcher = globToRegExp(args.pattern.trim(), { caseSensitive: args.case_sensitive ?? false });
    if (!matcher.ok) return toolFailure(matcher.error);
    const walk = await walkFiles(sandbox.fs, folder.path, { skipFolders: SKIPPED_FOLDERS, signal });
    const matches = walk.files.filter((file) => matcher.value.test(file.relative));
    const scanNote = walk.truncated
      ? `\n(the search stopped after ${MAX_SCANNED_FILES} files; give a narrower dir_path or pattern to search the rest)`
      : '';
    if (matches.length === 0)
      return toolSuccess(
        `No files found matching pattern "${args.pattern}" within ${folder.display}${scanNote}`,
      );
    const paths = sortByRecency(matches, Date.now()).map((file) =>
      displayUnder(folder.display, file.relative),
    );
    return toolSuccess(
      `Found ${matches.length} file(s) matching "${args.pattern}" within ${folder.display}, sorted by modification time (newest first):\n${paths.join('\n')}${scanNote}`,
    );
  },
});

/** gemini-cli's order: files changed in the last 24 hours, newest first, then the rest by path. */
export function sortByRecency(files: readonly WalkedFile[], now: number): WalkedFile[] {
  const recent = (file: WalkedFile) => now - file.mtimeMs < RECENT_FILE_MS;
  return [...files].sort((a, b) => {
    if (recent(a) && recent(b)) return b.mtimeMs - a.mtimeMs || compare(a.relative, b.relative);
    if (recent(a) !== recent(b)) return recent(a) ? -1 : 1;
    return compare(a.relative, b.relative);
  });
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
