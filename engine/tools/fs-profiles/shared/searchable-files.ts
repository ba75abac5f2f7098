import { basename } from 'node:path';
import type { AgentFilesystem } from '../../../sandbox/agent-filesystem';
import type { CheckedFolder } from './file-access';
import { MAX_SEARCHED_FILE_BYTES } from './limits';
import { decodeForDisplay, looksBinary } from './text-content';
import { walkFiles, type Walk, type WalkOptions } from './walk-files';

/**
 * The files a search looks at: every file under the checked folder (see walkFiles), or the checked
 * file itself, named by its last name as the agent wrote it (for include filters).
 */
export async function searchableFiles(
  fs: AgentFilesystem,
  target: CheckedFolder,
  options: WalkOptions,
): Promise<Walk> {
  if (target.info.kind === 'file')
    return {
      files: [
        {
          path: target.path,
          relative: basename(target.display),
          mtimeMs: target.info.mtimeMs,
          size: target.info.size,
        },
      ],
      truncated: false,
    };
  return walkFiles(fs, target.path, options);
}

/**
 * A file's text for searching, or null for a file that is not searched: too large, binary, or
 * unreadable (for example swapped for a link after the walk saw it, which the AgentFilesystem refuses).
 */
export async function searchableText(
  fs: AgentFilesystem,
  path: string,
  size: number,
): Promise<string | null> {
  if (size > MAX_SEARCHED_FILE_BYTES) return null;
  try {
    const bytes = fs.readBinaryFile
      ? await fs.readBinaryFile(path, { maxBytes: MAX_SEARCHED_FILE_BYTES })
      : new TextEncoder().encode(await fs.readTextFile(path, { maxBytes: MAX_SEARCHED_FILE_BYTES }));
    return looksBinary(bytes) ? null : decodeForDisplay(bytes);
  } catch {
    return null;
  }
}
