import { randomBytes } from 'node:crypto';
import {
  closeSync,
  constants,
  fchmodSync,
  fstatSync,
  ftruncateSync,
  mkdirSync,
  openSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { mkdir, open, readdir, readFile, rename, rm, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { crashPoint } from './crash-points';

const isWindows = process.platform === 'win32';

/**
 * Replaces `path` with `data` so that a reader (or a crash) sees either the old file or the new one,
 * never a truncated mix: the data goes to a uniquely named temp file in the same folder, is flushed to
 * disk, renamed over the target, and the folder entry is flushed where the OS allows it. Parent
 * folders are created. The target keeps its permission bits. On failure the temp file is removed and
 * the error is thrown.
 */
export async function writeFileAtomic(path: string, data: string | Uint8Array): Promise<void> {
  const folder = dirname(path);
  await mkdir(folder, { recursive: true });
  const mode = existingMode(path);
  const temp = tempPathOf(path);

  let handle: FileHandle | null = null;
  try {
    handle = await open(temp, 'wx', mode ?? 0o666);
    if (mode !== null) await handle.chmod(mode);
    await handle.writeFile(data);
    await handle.sync();
    await handle.close();
    handle = null;
    await renameOver(temp, path);
  } catch (error) {
    await handle?.close().catch(() => undefined);
    await rm(temp, { force: true }).catch(() => undefined);
    throw error;
  }
  await syncFolder(folder);
}

/**
 * Like `writeFileAtomic` (temp file, then rename), but synchronous and not flushed to disk. For the small
 * files the engine writes after every turn and tick (outbox entries, memory, credits.json, tick.json),
 * whose content SQLite holds until they are written: a reader still sees the old file or the new one,
 * and a killed process leaves at most a temp file (see removeStaleTempFiles) that the journal replaces
 * on restart. A power cut can lose the newest writes, as it can the timeline's last commits
 * (synchronous = NORMAL), and may leave the newest files empty; the timeline keeps their content.
 * Synchronous because these files are small: a few syscalls cost tens of microseconds, where
 * fs/promises makes a thread-pool round trip of each.
 */
export function writeFileAtomicUnflushed(path: string, data: string | Uint8Array): void {
  const mode = existingMode(path);
  if (mode !== null && process.platform === 'linux') return replaceThroughSpare(path, data, mode);
  const temp = tempPathOf(path);
  let fd: number | null = null;
  try {
    fd = openNewFile(temp, mode ?? 0o666);
    if (mode !== null) fchmodSync(fd, mode);
    writeFileSync(fd, data);
    closeSync(fd);
    fd = null;
    crashPoint(`${basename(path)}:temp-written`);
    renameOverNow(temp, path);
    crashPoint(`${basename(path)}:renamed`);
  } catch (error) {
    if (fd !== null) closeSync(fd);
    rmSync(temp, { force: true });
    throw error;
  }
}

/**
 * Replaces an existing file on Linux without creating or freeing an inode and without renaming onto an
 * existing file: the content goes into a spare file beside the target (`.<name>.spare`, the inode the
 * previous write replaced), the target moves aside, the spare takes its place, and the old target
 * becomes the next spare. On ext4 a new inode costs 20 µs to 0.6 ms depending on how busy the disk is,
 * and a rename onto an existing file starts writeback of the renamed one (auto_da_alloc), both measured
 * on every turn. The target is missing between two renames of one synchronous sequence, which nothing in
 * this process can see; a crash there is repaired by the journal that owns these files.
 */
function replaceThroughSpare(path: string, data: string | Uint8Array, mode: number): void {
  const spare = join(dirname(path), `${tempPrefixOf(path)}spare`);
  const aside = join(dirname(path), `${tempPrefixOf(path)}previous`);
  const fd = openSpare(spare, mode);
  try {
    fchmodSync(fd, mode);
    writeFileSync(fd, data);
    ftruncateSync(fd, typeof data === 'string' ? Buffer.byteLength(data) : data.byteLength);
  } finally {
    closeSync(fd);
  }
  const name = basename(path);
  crashPoint(`${name}:spare-written`);
  renameSync(path, aside);
  crashPoint(`${name}:moved-aside`);
  try {
    renameSync(spare, path);
  } catch (error) {
    renameSync(aside, path);
    throw error;
  }
  crashPoint(`${name}:spare-in-place`);
  renameSync(aside, spare);
}

/**
 * Puts back the file a process killed inside `writeFileAtomicUnflushed` left moved aside (between its
 * two renames the target is missing). Call before reading `path` after a crash, when no write of it is
 * in progress. Returns whether it restored the file.
 */
export function restoreInterruptedReplacement(path: string): boolean {
  const aside = interruptedReplacementOf(path);
  if (statSync(path, { throwIfNoEntry: false }) !== undefined) return false;
  if (statSync(aside, { throwIfNoEntry: false })?.isFile() !== true) return false;
  renameSync(aside, path);
  return true;
}

/** The file `restoreInterruptedReplacement` would put back, for a reader that may not write. */
export function interruptedReplacementOf(path: string): string {
  return join(dirname(path), `${tempPrefixOf(path)}previous`);
}

/** The spare, opened for writing from its start; never through a link, never an inode linked elsewhere too. */
function openSpare(spare: string, mode: number): number {
  try {
    const fd = openSync(spare, constants.O_WRONLY | constants.O_CREAT | constants.O_NOFOLLOW, mode);
    const info = fstatSync(fd);
    if (info.isFile() && info.nlink === 1) return fd;
    closeSync(fd);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ELOOP') throw error;
  }
  rmSync(spare, { force: true });
  return openSync(
    spare,
    constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW,
    mode,
  );
}

/**
 * Writes `value` as JSON with `indent` spaces. The file ends the way the file it replaces ended (with
 * or without a final newline, \n or \r\n); a new file ends with a newline.
 */
export async function writeJsonAtomic(path: string, value: unknown, indent = 2): Promise<void> {
  const body = JSON.stringify(value, null, indent);
  if (body === undefined) throw new TypeError(`cannot write ${path}: the value is not JSON`);
  const previous = await readFile(path, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return null;
    throw error;
  });
  const newline = previous?.includes('\r\n') ? '\r\n' : '\n';
  const ending = previous === null || /\r?\n$/.test(previous) ? newline : '';
  await writeFileAtomic(path, body.replaceAll('\n', newline) + ending);
}

/** Creates and opens `path`, making its folder only when it is missing: most writes go to folders that exist. */
function openNewFile(path: string, mode: number): number {
  try {
    return openSync(path, 'wx', mode);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    mkdirSync(dirname(path), { recursive: true });
    return openSync(path, 'wx', mode);
  }
}

function existingMode(path: string): number | null {
  const info = statSync(path, { throwIfNoEntry: false });
  return info?.isFile() ? info.mode & 0o7777 : null;
}

/** Windows refuses to replace a file another process (an editor, a virus scanner) holds for a moment. */
async function renameOver(from: string, to: string): Promise<void> {
  for (let attempt = 0; ; attempt += 1) {
    try {
      await rename(from, to);
      return;
    } catch (error) {
      if (!isTransientRenameFailure(error) || attempt >= RENAME_ATTEMPTS - 1) throw error;
      await new Promise((resolve) => setTimeout(resolve, renameBackoffMs(attempt)));
    }
  }
}

function renameOverNow(from: string, to: string): void {
  for (let attempt = 0; ; attempt += 1) {
    try {
      renameSync(from, to);
      return;
    } catch (error) {
      if (!isTransientRenameFailure(error) || attempt >= RENAME_ATTEMPTS - 1) throw error;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, renameBackoffMs(attempt));
    }
  }
}

const RENAME_ATTEMPTS = 10;

function renameBackoffMs(attempt: number): number {
  return 20 * (attempt + 1);
}

function isTransientRenameFailure(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException).code;
  return isWindows && (code === 'EPERM' || code === 'EACCES' || code === 'EBUSY');
}

/** Makes the rename itself durable. Windows cannot open a folder for this; some file systems refuse it. */
async function syncFolder(folder: string): Promise<void> {
  if (isWindows) return;
  const handle = await open(folder, 'r').catch(() => null);
  if (!handle) return;
  try {
    await handle.sync();
  } catch {
    // The data is already renamed into place; a file system that cannot sync folders offers nothing more.
  } finally {
    await handle.close();
  }
}

/** A leading dot and a .tmp suffix keep readers that list *.json or skip hidden files away from it. */
function tempPathOf(path: string): string {
  return join(dirname(path), `${tempPrefixOf(path)}${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
}

function tempPrefixOf(path: string): string {
  return `.${basename(path)}.`;
}

/**
 * Removes the temp files a process killed in the middle of `writeFileAtomic(path)` left beside it. Call
 * only when no write of `path` is in progress (at start-up, before writes are replayed).
 */
export async function removeStaleTempFiles(path: string): Promise<number> {
  const folder = dirname(path);
  const prefix = tempPrefixOf(path);
  const names = await readdir(folder).catch(() => [] as string[]);
  const stale = names.filter((name) => name.startsWith(prefix) && name.endsWith('.tmp'));
  await Promise.all(stale.map((name) => rm(join(folder, name), { force: true })));
  return stale.length;
}
