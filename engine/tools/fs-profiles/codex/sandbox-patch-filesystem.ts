import { FsError, fsErrorCode, type AgentFilesystem } from '../../../sandbox/agent-filesystem';
import type { PatchFilesystem, TextRead } from '../../apply-patch/patch-filesystem';
import { decodeExactly } from '../shared/text-content';

export interface SandboxPatchFilesystem extends PatchFilesystem {
  /** Files the patch deleted in the plan that could not be removed at the end (the rest is applied). */
  readonly failedDeletes: readonly string[];
}

interface Backup {
  /** The file's bytes before the patch replaced it; null for a delete, which only happens at the end. */
  bytes: Uint8Array | null;
  /** For a delete: the file to remove once the whole patch has been applied. */
  pendingDelete: string | null;
}

/**
 * apply_patch's file operations on an AgentFilesystem, whose every operation refuses to follow a
 * link, on paths the sandbox has checked. Temp files and backups are kept in memory, so nothing but
 * the patched files themselves is ever created: a new content is written by `writeTextFile` (itself a
 * temp file and a rename in the checked folder) when apply_patch renames its temp file over the target,
 * a backup is the file's bytes, and a delete is postponed until apply_patch discards the backup, which
 * it does only once every file is in place; undoing a delete is then forgetting it.
 */
export function sandboxPatchFilesystem(
  fs: AgentFilesystem,
  limits: { maxReadBytes: number; maxWriteBytes: number },
): SandboxPatchFilesystem {
  const staged = new Map<string, string>();
  const backups = new Map<string, Backup>();
  const failedDeletes: string[] = [];

  const readBytes = (path: string) =>
    fs.readBinaryFile
      ? fs.readBinaryFile(path, { maxBytes: limits.maxReadBytes })
      : fs
          .readTextFile(path, { maxBytes: limits.maxReadBytes })
          .then((text) => new TextEncoder().encode(text));

  return {
    failedDeletes,
    async readText(path): Promise<TextRead> {
      const text = staged.get(path);
      if (text !== undefined) return { kind: 'text', text };
      try {
        const decoded = decodeExactly(await readBytes(path));
        return decoded === null ? { kind: 'binary' } : { kind: 'text', text: decoded };
      } catch (error) {
        return readFailure(error, limits.maxReadBytes);
      }
    },
    async exists(path) {
      return staged.has(path) || backups.has(path) || (await fs.stat(path)) !== null;
    },
    async createDirectory(path) {
      if ((await fs.stat(path)) !== null) throw new FsError('EEXIST', 'mkdir', path);
      await fs.ensureDir(path);
    },
    async removeDirectory(path) {
      throw Object.assign(
        new Error(`ENOTSUP: an agent's file system does not remove folders, rmdir '${path}'`),
        {
          code: 'ENOTSUP',
        },
      );
    },
    async writeNewFile(path, text) {
      if (Buffer.byteLength(text, 'utf8') > limits.maxWriteBytes) throw new FsError('EFBIG', 'write', path);
      staged.set(path, text);
    },
    async copyFile(from, to) {
      backups.set(to, { bytes: await readBytes(from), pendingDelete: null });
    },
    async rename(from, to) {
      const text = staged.get(from);
      if (text !== undefined) {
        await fs.writeTextFile(to, text);
        staged.delete(from);
        return;
      }
      const backup = backups.get(from);
      if (backup) {
        await restore(fs, backup, to);
        backups.delete(from);
        return;
      }
      const info = await fs.stat(from);
      if (!info) throw new FsError('ENOENT', 'rename', from);
      if (info.kind === 'directory') throw new FsError('EISDIR', 'rename', from);
      backups.set(to, { bytes: null, pendingDelete: from });
    },
    async removeFile(path) {
      if (staged.delete(path)) return;
      const backup = backups.get(path);
      if (!backup) return fs.deleteFile(path);
      backups.delete(path);
      if (backup.pendingDelete === null) return;
      await fs.deleteFile(backup.pendingDelete).catch((error: unknown) => {
        failedDeletes.push(backup.pendingDelete as string);
        throw error;
      });
    },
  };
}

async function restore(fs: AgentFilesystem, backup: Backup, to: string): Promise<void> {
  if (backup.pendingDelete === to) return;
  const text = backup.bytes === null ? null : decodeExactly(backup.bytes);
  if (text === null) throw new FsError('EILSEQ', 'restore', to, 'its previous content is not UTF-8 text');
  await fs.writeTextFile(to, text);
}

function readFailure(error: unknown, maxBytes: number): TextRead {
  switch (fsErrorCode(error)) {
    case 'ENOENT':
    case 'ENOTDIR':
      return { kind: 'missing' };
    case 'EISDIR':
      return { kind: 'unreadable', reason: 'Is a directory (os error 21)' };
    case 'EFBIG':
      return { kind: 'unreadable', reason: `the file is larger than ${maxBytes} bytes` };
    case 'ESYMLINK':
    case 'ELOOP':
      return { kind: 'unreadable', reason: 'a symbolic link appeared in the path after it was checked' };
    default:
      return { kind: 'unreadable', reason: fsErrorCode(error) ?? 'the file cannot be read' };
  }
}
