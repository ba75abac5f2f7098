import { z } from 'zod';

export const FileKind = z.enum(['file', 'directory', 'symlink', 'other']);
export type FileKind = z.infer<typeof FileKind>;

export const FileInfo = z.object({
  kind: FileKind,
  mtimeMs: z.number(),
  /** Bytes for files; what the file system reports for anything else. */
  size: z.number().int().nonnegative(),
});
export type FileInfo = z.infer<typeof FileInfo>;

export const DirEntry = FileInfo.extend({
  name: z.string(),
  /** The entry's absolute path. */
  path: z.string(),
});
export type DirEntry = z.infer<typeof DirEntry>;

export interface ReadOptions {
  /** Refuse (EFBIG) a file larger than this many bytes instead of reading it. */
  maxBytes?: number;
}

/**
 * The file operations every file tool goes through. Paths are absolute and canonical (from the
 * canonicalizer): their existing part has no symbolic links in it. So every operation except
 * `realpath` follows no link at all: meeting one means the path changed after it was checked, and the
 * operation fails with ESYMLINK instead of going where the link points. Failures throw FsError (or
 * Node's own errors, which carry the same `code`s).
 */
export interface AgentFilesystem {
  readTextFile(path: string, options?: ReadOptions): Promise<string>;
  readBinaryFile?(path: string, options?: ReadOptions): Promise<Uint8Array>;
  /** Replaces the file whole (a reader sees the old or the new content); the parent folder must exist. */
  writeTextFile(path: string, text: string): Promise<void>;
  /** Removes a file; a folder is refused with EISDIR. */
  deleteFile(path: string): Promise<void>;
  /** Creates the folder and any missing parents. */
  ensureDir(path: string): Promise<void>;
  /** The folder's entries in code-point order of their names; links are reported, not followed. */
  readDir(path: string): Promise<DirEntry[]>;
  /** The entry at `path` itself (a link is reported as a link), or null when there is none. */
  stat(path: string): Promise<FileInfo | null>;
  /** Where `path` really is, every link resolved; throws ENOENT, ENOTDIR or ELOOP like realpath(3). */
  realpath(path: string): Promise<string>;
}

/** The part of a file system the canonicalizer needs. */
export type PathResolver = Pick<AgentFilesystem, 'realpath' | 'stat'>;

export type FsErrorCode =
  'ENOENT' | 'ENOTDIR' | 'EISDIR' | 'ENOTFILE' | 'EEXIST' | 'ELOOP' | 'EFBIG' | 'EILSEQ' | 'ESYMLINK';

/** An error shaped like Node's file system errors, for the codes both file systems share. */
export class FsError extends Error {
  constructor(
    readonly code: FsErrorCode,
    readonly syscall: string,
    readonly path: string,
    detail?: string,
  ) {
    super(`${code}: ${detail ?? FS_ERROR_TEXT[code]}, ${syscall} '${path}'`);
    this.name = 'FsError';
  }
}

const FS_ERROR_TEXT: Record<FsErrorCode, string> = {
  ENOENT: 'no such file or directory',
  ENOTDIR: 'not a directory',
  EISDIR: 'illegal operation on a directory',
  ENOTFILE: 'not a regular file',
  EEXIST: 'file already exists',
  ELOOP: 'too many symbolic links encountered',
  EFBIG: 'file too large',
  EILSEQ: 'the file is not UTF-8 text',
  ESYMLINK: 'the path changed after it was checked (a symbolic link or a moved folder is in the way)',
};

/** The `code` of a file system error from either implementation or from Node, if it has one. */
export function fsErrorCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null || !('code' in error)) return undefined;
  return typeof error.code === 'string' ? error.code : undefined;
}

/**
 * UTF-8 decoding that refuses invalid bytes rather than replacing them, and keeps a leading byte-order
 * mark, so that reading a file and writing it back does not change it.
 */
export function decodeUtf8(bytes: Uint8Array, path: string): string {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    throw new FsError('EILSEQ', 'read', path);
  }
}

/** Sorts entries by the code points of their names, the same on every platform. */
export function byName(a: { name: string }, b: { name: string }): number {
  const left = [...a.name];
  const right = [...b.name];
  for (let index = 0; index < Math.min(left.length, right.length); index += 1) {
    const difference = (left[index]?.codePointAt(0) ?? 0) - (right[index]?.codePointAt(0) ?? 0);
    if (difference !== 0) return difference;
  }
  return left.length - right.length;
}
