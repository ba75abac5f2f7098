import { randomBytes } from 'node:crypto';
import { constants, promises as fsp, type BigIntStats } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import {
  byName,
  decodeUtf8,
  FsError,
  fsErrorCode,
  type AgentFilesystem,
  type DirEntry,
  type FileInfo,
  type FileKind,
  type FsErrorCode,
  type ReadOptions,
} from './agent-filesystem';

const O_NOFOLLOW = constants.O_NOFOLLOW ?? 0;
const O_DIRECTORY = constants.O_DIRECTORY ?? 0;
// A named pipe would block an open for reading until some writer came; a regular file ignores the flag.
const O_NONBLOCK = constants.O_NONBLOCK ?? 0;
const isWindows = process.platform === 'win32';

/** Codes whose Node error we replace by one naming the agent's path rather than a /proc/self/fd path. */
const RENAMED_CODES = new Set<string>(['ENOENT', 'ENOTDIR', 'EISDIR', 'EEXIST']);

/**
 * AgentFilesystem on the real disk, safe against a link swapped in after the path was checked.
 *
 * Node has no openat(), so every operation first opens the containing folder with O_NOFOLLOW and
 * verifies the open handle is the checked folder (same device and inode as the path, and the path's
 * real path is the path itself, so no link on the way). On Linux the operation then goes through
 * /proc/self/fd/<handle>/<name>, which the kernel resolves from the verified handle: race-free, the
 * same as openat(). Elsewhere the operation uses the path and the folder is verified again afterwards;
 * an opened file is checked against the path (device and inode) before a byte is read or written.
 * What is left there is a swap and a swap back between two checks: it can make a delete or a new
 * folder land in the swapped-in folder, or leave an empty temp file there. Windows, where links need
 * privileges, is checked by path only. Files are opened with O_NOFOLLOW and replaced by writing a temp
 * file in the verified folder and renaming it over the target, which replaces a link instead of
 * following it and also unshares a hard link.
 */
export class DiskAgentFilesystem implements AgentFilesystem {
  private readonly useProcFd: boolean;

  /**
   * `useProcFd: false` reaches entries by path and verifies folders again afterwards, as on systems
   * without /proc; it exists so that path is tested on Linux too.
   */
  constructor(options: { useProcFd?: boolean } = {}) {
    this.useProcFd = options.useProcFd ?? true;
  }

  async readTextFile(path: string, options?: ReadOptions): Promise<string> {
    return decodeUtf8(await this.readBinaryFile(path, options), path);
  }

  async readBinaryFile(path: string, options?: ReadOptions): Promise<Uint8Array> {
    const folder = await this.openVerifiedFolder(dirname(path), 'open');
    try {
      const handle = await fsp
        .open(folder.at(basename(path)), constants.O_RDONLY | O_NOFOLLOW | O_NONBLOCK)
        .catch((error: unknown) => rethrowFor(error, 'open', path));
      try {
        const opened = await handle.stat({ bigint: true });
        if (opened.isDirectory()) throw new FsError('EISDIR', 'read', path);
        if (!opened.isFile()) throw new FsError('ENOTFILE', 'read', path);
        if (!folder.raceFree) await sameEntry(path, opened, 'open');
        await folder.recheck();
        return await readAtMost(handle, Number(opened.size), options?.maxBytes, path);
      } finally {
        await handle.close();
      }
    } finally {
      await folder.close();
    }
  }

  async writeTextFile(path: string, text: string): Promise<void> {
    const folder = await this.openVerifiedFolder(dirname(path), 'open');
    const name = basename(path);
    try {
      const existing = await lstatOrNull(folder.at(name), 'open', path);
      if (existing?.isSymbolicLink()) throw new FsError('ESYMLINK', 'open', path);
      if (existing?.isDirectory()) throw new FsError('EISDIR', 'open', path);
      if (existing && !existing.isFile()) throw new FsError('ENOTFILE', 'open', path);

      // A leading dot and a .tmp suffix keep listings that skip hidden files away from it.
      const temp = `.lemming-${randomBytes(6).toString('hex')}.tmp`;
      const handle = await fsp.open(
        folder.at(temp),
        constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | O_NOFOLLOW,
        0o666,
      );
      try {
        // Without /proc the temp file was created by path: nothing is written until it is known to be
        // in the checked folder, so a swap can at worst leave an empty temp file elsewhere.
        if (!folder.raceFree) {
          await sameEntry(join(dirname(path), temp), await handle.stat({ bigint: true }), 'open');
          await folder.recheck();
        }
        if (existing) await handle.chmod(Number(existing.mode & 0o7777n));
        await handle.writeFile(text, 'utf8');
        await handle.sync();
      } catch (error) {
        await handle.close();
        await fsp.rm(folder.at(temp), { force: true });
        throw error;
      }
      await handle.close();
      await fsp.rename(folder.at(temp), folder.at(name)).catch(async (error: unknown) => {
        await fsp.rm(folder.at(temp), { force: true });
        rethrowFor(error, 'rename', path);
      });
      await folder.recheck();
      await folder.sync();
    } finally {
      await folder.close();
    }
  }

  async deleteFile(path: string): Promise<void> {
    const folder = await this.openVerifiedFolder(dirname(path), 'unlink');
    try {
      const existing = await lstatOrNull(folder.at(basename(path)), 'unlink', path);
      if (!existing) throw new FsError('ENOENT', 'unlink', path);
      if (existing.isDirectory()) throw new FsError('EISDIR', 'unlink', path);
      if (existing.isSymbolicLink()) throw new FsError('ESYMLINK', 'unlink', path);
      await fsp
        .unlink(folder.at(basename(path)))
        .catch((error: unknown) => rethrowFor(error, 'unlink', path));
      await folder.recheck();
    } finally {
      await folder.close();
    }
  }

  async ensureDir(path: string): Promise<void> {
    const existing = await this.openVerifiedFolder(path, 'mkdir').catch((error: unknown) => {
      if (fsErrorCode(error) === 'ENOENT') return null;
      throw error;
    });
    if (existing) return existing.close();

    const parentPath = dirname(path);
    if (parentPath === path) throw new FsError('ENOENT', 'mkdir', path);
    await this.ensureDir(parentPath);
    const parent = await this.openVerifiedFolder(parentPath, 'mkdir');
    try {
      await fsp.mkdir(parent.at(basename(path))).catch((error: unknown) => {
        if (fsErrorCode(error) !== 'EEXIST') rethrowFor(error, 'mkdir', path);
      });
      await parent.recheck();
    } finally {
      await parent.close();
    }
    // Whatever is there now (ours, or a folder, file or link made meanwhile) must be a real folder.
    await (await this.openVerifiedFolder(path, 'mkdir')).close();
  }

  async readDir(path: string): Promise<DirEntry[]> {
    const folder = await this.openVerifiedFolder(path, 'scandir');
    try {
      const names = await fsp.readdir(folder.at(''));
      const entries = await Promise.all(
        names.map(async (name) => {
          const info = await lstatOrNull(folder.at(name), 'lstat', join(path, name));
          return info ? { name, path: join(path, name), ...fileInfo(info) } : null;
        }),
      );
      await folder.recheck();
      return entries.filter((entry) => entry !== null).sort(byName);
    } finally {
      await folder.close();
    }
  }

  async stat(path: string): Promise<FileInfo | null> {
    const parentPath = dirname(path);
    if (parentPath === path) return fileInfo(await fsp.lstat(path, { bigint: true }));
    const folder = await this.openVerifiedFolder(parentPath, 'lstat').catch((error: unknown) => {
      const code = fsErrorCode(error);
      if (code === 'ENOENT' || code === 'ENOTDIR') return null;
      throw error;
    });
    if (!folder) return null;
    try {
      const info = await lstatOrNull(folder.at(basename(path)), 'lstat', path);
      await folder.recheck();
      return info ? fileInfo(info) : null;
    } finally {
      await folder.close();
    }
  }

  realpath(path: string): Promise<string> {
    return fsp.realpath(path);
  }

  private async openVerifiedFolder(path: string, syscall: string): Promise<VerifiedFolder> {
    return openVerifiedFolder(path, syscall, this.useProcFd && (await procFdWorks()));
  }
}

interface VerifiedFolder {
  /** True when `at` names entries through the verified handle, so no later swap can redirect them. */
  raceFree: boolean;
  /** Where to reach the entry `name` of this folder (`''`: the folder itself). */
  at(name: string): string;
  /** Fails with ESYMLINK when the folder is no longer the one that was verified. */
  recheck(): Promise<void>;
  sync(): Promise<void>;
  close(): Promise<void>;
}

async function openVerifiedFolder(path: string, syscall: string, raceFree: boolean): Promise<VerifiedFolder> {
  if (isWindows) return verifiedFolderByPath(path, syscall);
  const handle = await fsp
    .open(path, constants.O_RDONLY | O_DIRECTORY | O_NOFOLLOW)
    .catch(async (error: unknown) => {
      const code = fsErrorCode(error);
      // O_DIRECTORY | O_NOFOLLOW on a link gives ENOTDIR on Linux and ELOOP elsewhere.
      if (code === 'ELOOP' || (code === 'ENOTDIR' && (await isLink(path))))
        throw new FsError('ESYMLINK', syscall, path);
      return rethrowFor(error, syscall, path);
    });
  try {
    const opened = await handle.stat({ bigint: true });
    await sameEntry(path, opened, syscall);
    return {
      raceFree,
      at: (name) => (raceFree ? `/proc/self/fd/${handle.fd}${name ? `/${name}` : ''}` : join(path, name)),
      recheck: async () => {
        if (!raceFree) await sameEntry(path, opened, syscall);
      },
      sync: () => handle.sync().catch(() => undefined),
      close: () => handle.close(),
    };
  } catch (error) {
    await handle.close();
    throw error;
  }
}

async function verifiedFolderByPath(path: string, syscall: string): Promise<VerifiedFolder> {
  const opened = await fsp.lstat(path, { bigint: true });
  if (opened.isSymbolicLink()) throw new FsError('ESYMLINK', syscall, path);
  if (!opened.isDirectory()) throw new FsError('ENOTDIR', syscall, path);
  await sameEntry(path, opened, syscall);
  return {
    raceFree: false,
    at: (name) => join(path, name),
    recheck: () => sameEntry(path, opened, syscall),
    sync: async () => undefined,
    close: async () => undefined,
  };
}

/** The path still names the opened entry, and reaches it through no link. */
async function sameEntry(path: string, opened: BigIntStats, syscall: string): Promise<void> {
  const [now, real] = await Promise.all([fsp.lstat(path, { bigint: true }), fsp.realpath(path)]).catch(() => {
    throw new FsError('ESYMLINK', syscall, path);
  });
  if (now.dev !== opened.dev || now.ino !== opened.ino || real !== path)
    throw new FsError('ESYMLINK', syscall, path);
}

async function isLink(path: string): Promise<boolean> {
  const info = await fsp.lstat(path).catch(() => null);
  return info?.isSymbolicLink() ?? false;
}

let procFd: Promise<boolean> | null = null;

/** Whether /proc/self/fd/<n>/<name> reaches entries through an open folder (Linux with /proc mounted). */
function procFdWorks(): Promise<boolean> {
  procFd ??=
    process.platform === 'linux'
      ? fsp.readdir(`/proc/self/fd`).then(
          () => true,
          () => false,
        )
      : Promise.resolve(false);
  return procFd;
}

async function readAtMost(
  handle: fsp.FileHandle,
  size: number,
  maxBytes: number | undefined,
  path: string,
): Promise<Uint8Array> {
  if (maxBytes === undefined) return new Uint8Array(await handle.readFile());
  if (size > maxBytes) throw new FsError('EFBIG', 'read', path);
  // One byte more than allowed tells a file that grew since fstat from one that did not.
  const buffer = Buffer.alloc(Math.min(size, maxBytes) + 1);
  let filled = 0;
  while (filled < buffer.length) {
    const { bytesRead } = await handle.read(buffer, filled, buffer.length - filled, null);
    if (bytesRead === 0) break;
    filled += bytesRead;
  }
  if (filled > maxBytes) throw new FsError('EFBIG', 'read', path);
  return new Uint8Array(buffer.subarray(0, filled));
}

async function lstatOrNull(at: string, syscall: string, path: string): Promise<BigIntStats | null> {
  return fsp.lstat(at, { bigint: true }).catch((error: unknown) => {
    if (fsErrorCode(error) === 'ENOENT') return null;
    return rethrowFor(error, syscall, path);
  });
}

function rethrowFor(error: unknown, syscall: string, path: string): never {
  const code = fsErrorCode(error);
  if (code === 'ELOOP') throw new FsError('ESYMLINK', syscall, path);
  if (code && RENAMED_CODES.has(code)) throw new FsError(code as FsErrorCode, syscall, path);
  throw error;
}

function kindOf(info: BigIntStats): FileKind {
  if (info.isSymbolicLink()) return 'symlink';
  if (info.isFile()) return 'file';
  if (info.isDirectory()) return 'directory';
  return 'other';
}

function fileInfo(info: BigIntStats): FileInfo {
  return { kind: kindOf(info), mtimeMs: Number(info.mtimeMs), size: Number(info.size) };
}
