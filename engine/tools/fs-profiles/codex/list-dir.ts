import { join } from 'node:path';
import { z } from 'zod';
import type { AgentFilesystem, FileKind } from '../../../sandbox/agent-filesystem';
import { toolFailure, toolSuccess } from '../../tool-result';
import { checkFolder, type AccessFailure } from '../shared/file-access';
import { defineFsTool, PATH_HELP } from '../shared/fs-tool';
import { compareCodePoints } from '../../../org/schedule';
import { takeCodePoints } from '../shared/text-content';

/** codex-rs's MAX_ENTRY_LENGTH: longer names are cut (here counted in code points). */
export const MAX_NAME_LENGTH = 500;
/** A listing collects no more entries than this, however deep it is asked to go. */
export const MAX_LISTED_ENTRIES = 20_000;
const INDENT = '  ';
const SUFFIX: Readonly<Record<FileKind, string>> = { directory: '/', symlink: '@', other: '?', file: '' };

const positive = (name: string, message: string) =>
  z
    .number()
    .int({ error: `${name} must be a whole number` })
    .min(1, { error: message });

const ListDirArguments = z.strictObject({
  dir_path: z
    .string()
    .min(1, { error: 'dir_path must not be empty' })
    .describe(`Path to the directory to list. ${PATH_HELP}`),
  offset: positive('offset', 'offset must be a 1-indexed entry number')
    .optional()
    .describe('The entry number to start listing from. Must be 1 or greater.'),
  limit: positive('limit', 'limit must be greater than zero')
    .optional()
    .describe('The maximum number of entries to return (default 25).'),
  depth: positive('depth', 'depth must be greater than zero')
    .optional()
    .describe('The maximum directory depth to traverse. Must be 1 or greater (default 2).'),
});

interface ListedEntry {
  /** Relative path with "/" separators: entries are listed in its code-point order, as a tree. */
  sortKey: string;
  name: string;
  depth: number;
  kind: FileKind;
}

/**
 * codex's list_dir: a folder's tree, `depth` levels deep, one entry a line indented two spaces a
 * level, folders marked `/`, links `@` (never followed) and other entries `?`, a window of `limit`
 * entries from `offset`.
 */
export const codexListDirTool = defineFsTool({
  name: 'list_dir',
  title: 'List a folder',
  description: 'Lists entries in a local directory with 1-indexed entry numbers and simple type labels.',
  schema: ListDirArguments,
  async run(args, { sandbox, signal }) {
    const checked = await checkFolder(sandbox, args.dir_path, 'list', 'list_dir');
    if (!checked.ok) return toolFailure(`failed to read directory: ${listProblem(checked.error)}`);
    const folder = checked.value;
    const offset = args.offset ?? 1;
    const limit = args.limit ?? 25;
    const collected = await collectEntries(sandbox.fs, folder.path, args.depth ?? 2, signal);
    const header = `Absolute path: ${folder.display}`;
    if (collected.entries.length === 0) return toolSuccess(header);

    const entries = collected.entries.sort((a, b) => compareCodePoints(a.sortKey, b.sortKey));
    if (offset > entries.length) return toolFailure('offset exceeds directory entry count');
    const shown = entries.slice(offset - 1, offset - 1 + limit);
    const lines = [
      header,
      ...shown.map((entry) => `${INDENT.repeat(entry.depth)}${entry.name}${SUFFIX[entry.kind]}`),
    ];
    if (offset - 1 + shown.length < entries.length) lines.push(`More than ${shown.length} entries found`);
    if (collected.truncated)
      lines.push(
        `(the listing stopped after ${MAX_LISTED_ENTRIES} entries; list a subfolder or use a smaller depth)`,
      );
    return toolSuccess(lines.join('\n'));
  },
});

async function collectEntries(
  fs: AgentFilesystem,
  root: string,
  depth: number,
  signal: AbortSignal | undefined,
): Promise<{ entries: ListedEntry[]; truncated: boolean }> {
  const entries: ListedEntry[] = [];
  const queue = [{ path: root, prefix: '', level: 0, remaining: depth }];
  for (let index = 0; index < queue.length; index += 1) {
    const next = queue[index] as (typeof queue)[number];
    signal?.throwIfAborted();
    const children = await fs.readDir(next.path).catch(() => []);
    for (const child of children) {
      if (entries.length === MAX_LISTED_ENTRIES) return { entries, truncated: true };
      const relative = next.prefix === '' ? child.name : `${next.prefix}/${child.name}`;
      entries.push({
        sortKey: takeCodePoints(relative, MAX_NAME_LENGTH),
        name: takeCodePoints(child.name, MAX_NAME_LENGTH),
        depth: next.level,
        kind: child.kind,
      });
      if (child.kind === 'directory' && next.remaining > 1)
        queue.push({
          path: join(next.path, child.name),
          prefix: relative,
          level: next.level + 1,
          remaining: next.remaining - 1,
        });
    }
  }
  return { entries, truncated: false };
}

function listProblem(failure: AccessFailure): string {
  switch (failure.problem) {
    case 'not_found':
      return 'No such file or directory (os error 2)';
    case 'not_a_directory':
      return 'Not a directory (os error 20)';
    default:
      return failure.message;
  }
}
