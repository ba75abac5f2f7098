import { constants } from 'node:fs';
import { copyFile, lstat, mkdir, open, readFile, rename, rmdir, stat, unlink } from 'node:fs/promises';
import type { PatchFilesystem, TextRead } from './patch-filesystem';

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** PatchFilesystem on the real disk, for paths the sandbox has already resolved. */
export function diskPatchFilesystem(): PatchFilesystem {
  return {
    readText,
    async exists(path) {
      return (await lstat(path).catch(() => null)) !== null;
    },
    async createDirectory(path) {
      await mkdir(path);
    },
    async removeDirectory(path) {
      await rmdir(path);
    },
    async writeNewFile(path, text, permissionsFrom) {
      const original = await stat(permissionsFrom).catch(() => null);
      const mode = original?.isFile() ? original.mode & 0o7777 : 0o666;
      const handle = await open(path, 'wx', mode);
      try {
        if (original?.isFile()) await handle.chmod(mode);
        await handle.writeFile(text, 'utf8');
        await handle.sync();
      } finally {
        await handle.close();
      }
    },
    async copyFile(from, to) {
      await copyFile(from, to, constants.COPYFILE_EXCL);
    },
    async rename(from, to) {
      await rename(from, to);
    },
    async removeFile(path) {
      await unlink(path);
    },
  };
}

async function readText(path: string): Promise<TextRead> {
  let bytes: Buffer;
  try {
    bytes = await readFile(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { kind: 'missing' };
    if (code === 'EISDIR') return { kind: 'unreadable', reason: 'Is a directory (os error 21)' };
    return { kind: 'unreadable', reason: code ?? 'the file cannot be read' };
  }
  try {
    return { kind: 'text', text: utf8.decode(bytes) };
  } catch {
    return { kind: 'binary' };
  }
}
