import { z } from 'zod';
import type { DirEntry } from '../../../sandbox/agent-filesystem';
import { toolFailure, toolSuccess } from '../../tool-result';
import { checkFolder, fromFsError, type AccessFailure } from '../shared/file-access';
import { defineFsTool, PATH_HELP } from '../shared/fs-tool';
import { globToRegExp } from '../shared/glob-pattern';

const ListDirectoryArguments = z.strictObject({
  dir_path: z
    .string()
    .refine((path) => path.trim() !== '', { error: "The 'dir_path' parameter must be non-empty." })
    .describe(`The path to the directory to list. ${PATH_HELP}`),
  ignore: z
    .array(z.string())
    .optional()
    .describe('List of glob patterns to ignore (matched against entry names).'),
  file_filtering_options: z
    .strictObject({
      respect_git_ignore: z.boolean().optional(),
      respect_gemini_ignore: z.boolean().optional(),
    })
    .optional()
    .describe('Accepted for compatibility with gemini-cli; ignore files are not read.'),
});

const byName = new Intl.Collator('en').compare;

/**
 * gemini-cli's list_directory: one folder's entries, folders first (`[DIR] name`), then files with
 * their size, each group in alphabetical order. Links are shown as links and never followed.
 */
export const geminiListDirectoryTool = defineFsTool({
  name: 'list_directory',
  title: 'List a folder',
  description:
    'Lists the names of files and subdirectories directly within a specified directory path. Can optionally ignore entries matching provided glob patterns.',
  schema: ListDirectoryArguments,
  async run(args, { sandbox }) {
    const checked = await checkFolder(sandbox, args.dir_path, 'list', 'list_directory');
    if (!checked.ok) return toolFailure(listProblem(checked.error));
    const folder = checked.value;
    const ignored: RegExp[] = [];
    for (const pattern of args.ignore ?? []) {
      const compiled = globToRegExp(pattern, { caseSensitive: true });
      if (!compiled.ok) return toolFailure(compiled.error);
      ignored.push(compiled.value);
    }
    let entries: DirEntry[];
    try {
      entries = await sandbox.fs.readDir(folder.path);
    } catch (error) {
      return toolFailure(listProblem(fromFsError(error, args.dir_path, 0)));
    }
    const shown = entries.filter((entry) => !ignored.some((pattern) => pattern.test(entry.name)));
    const ignoredCount = entries.length - shown.length;
    if (shown.length === 0)
      return toolSuccess(
        `Directory ${folder.display} is empty.${ignoredCount > 0 ? ` (${ignoredCount} ignored)` : ''}`,
      );

    const folders = shown
      .filter((entry) => entry.kind === 'directory')
      .sort((a, b) => byName(a.name, b.name));
    const others = shown.filter((entry) => entry.kind !== 'directory').sort((a, b) => byName(a.name, b.name));
    return toolSuccess(
      `Directory listing for ${folder.display}:\n${[...folders, ...others].map(describeEntry).join('\n')}${
        ignoredCount > 0 ? `\n\n(${ignoredCount} ignored)` : ''
      }`,
    );
  },
});

function describeEntry(entry: DirEntry): string {
  switch (entry.kind) {
    case 'directory':
      return `[DIR] ${entry.name}`;
    case 'file':
      return `${entry.name} (${entry.size} bytes)`;
    case 'symlink':
      return `${entry.name} (symbolic link, not followed)`;
    default:
      return `${entry.name} (special file)`;
  }
}

function listProblem(failure: AccessFailure): string {
  switch (failure.problem) {
    case 'not_found':
      return `Error: Directory not found or inaccessible: ${failure.requestedPath}`;
    case 'not_a_directory':
      return `Error: Path is not a directory: ${failure.requestedPath}`;
    default:
      return failure.message;
  }
}
