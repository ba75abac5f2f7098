import { z } from 'zod';
import { toolFailure, toolSuccess } from '../../tool-result';
import { checkFolder } from '../shared/file-access';
import { defineFsTool, PATH_HELP } from '../shared/fs-tool';
import { includeMatcher } from '../shared/glob-pattern';
import { searchableFiles, searchableText } from '../shared/searchable-files';
import { byNewestFirst, displayUnder, MAX_SCANNED_FILES } from '../shared/walk-files';

export const DEFAULT_GREP_LIMIT = 100;
export const MAX_GREP_LIMIT = 2000;

const GrepFilesArguments = z.strictObject({
  pattern: z.string().describe('Regular expression pattern to search for.'),
  include: z
    .string()
    .optional()
    .describe('Optional glob that limits which files are searched (e.g. "*.rs" or "*.{ts,tsx}").'),
  path: z
    .string()
    .optional()
    .describe(`Directory or file path to search. Defaults to your workspace. ${PATH_HELP}`),
  limit: z
    .number()
    .int({ error: 'limit must be a whole number' })
    .min(1, { error: 'limit must be greater than zero' })
    .optional()
    .describe(
      `Maximum number of file paths to return (defaults to ${DEFAULT_GREP_LIMIT}, at most ${MAX_GREP_LIMIT}).`,
    ),
});

/**
 * codex's grep_files: the paths of files whose content matches a regular expression, most recently
 * modified first. Like ripgrep it is case-sensitive and skips hidden files and folders; the regular
 * expression is JavaScript's, tried against each whole file with `^`/`$` matching at line breaks.
 */
export const codexGrepFilesTool = defineFsTool({
  name: 'grep_files',
  title: 'Find files containing a pattern',
  description: 'Finds files whose contents match the pattern and lists them by modification time.',
  schema: GrepFilesArguments,
  async run(args, { sandbox, signal }) {
    const pattern = args.pattern.trim();
    if (pattern === '') return toolFailure('pattern must not be empty');
    let regex: RegExp;
    try {
      regex = new RegExp(args.pattern, 'm');
    } catch (error) {
      return toolFailure(`invalid regex pattern: ${error instanceof Error ? error.message : String(error)}`);
    }
    const searchPath = args.path ?? '.';
    const checked = await checkFolder(sandbox, searchPath, 'search', 'grep_files', { allowFile: true });
    if (!checked.ok)
      return toolFailure(
        `unable to access \`${searchPath}\`: ${checked.error.problem === 'not_found' ? 'No such file or directory (os error 2)' : checked.error.message}`,
      );
    const target = checked.value;
    const include = args.include?.trim()
      ? includeMatcher(args.include.trim(), { caseSensitive: true })
      : null;
    if (include && !include.ok) return toolFailure(include.error);
    const limit = Math.min(args.limit ?? DEFAULT_GREP_LIMIT, MAX_GREP_LIMIT);

    const walk = await searchableFiles(sandbox.fs, target, { skipHidden: true, signal });
    const matching = [];
    for (const file of walk.files) {
      signal?.throwIfAborted();
      if (include && !include.value(file.relative)) continue;
      const text = await searchableText(sandbox.fs, file.path, file.size);
      if (text !== null && regex.test(text)) matching.push(file);
    }
    if (matching.length === 0)
      return toolFailure(walk.truncated ? `No matches found.\n${scanNote()}` : 'No matches found.');
    const lines = matching
      .sort(byNewestFirst)
      .slice(0, limit)
      .map((file) =>
        target.info.kind === 'file' ? target.display : displayUnder(target.display, file.relative),
      );
    if (walk.truncated) lines.push(scanNote());
    return toolSuccess(lines.join('\n'));
  },
});

function scanNote(): string {
  return `(the search stopped after ${MAX_SCANNED_FILES} files; give a narrower path or include to search the rest)`;
}
