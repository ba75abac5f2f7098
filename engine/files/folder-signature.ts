import { lstatSync, readdirSync, statSync, type BigIntStats } from 'node:fs';
import { join } from 'node:path';

/**
 * What a folder's listing and the files a loader reads from it look like on disk, as a string that
 * changes when any of them is added, removed, renamed, replaced or edited (inode, size, change and
 * modification times in nanoseconds). A loader's result can be kept while the signature stays the same:
 * a few stat calls instead of reading and parsing every file each turn.
 *
 * `filesOf(name)` names, for one entry of the folder, the paths (relative to the folder) the loader reads
 * for it, each with whether the loader follows a link there (`stat`) or not (`lstat`).
 */
export function folderSignature(
  folder: string,
  filesOf: (name: string) => readonly { path: string; follow: boolean }[],
): string {
  const own = lstatSync(folder, { bigint: true, throwIfNoEntry: false });
  if (!own) return 'missing';
  let names: string[];
  try {
    names = readdirSync(folder).sort();
  } catch (error) {
    return `unlisted ${(error as NodeJS.ErrnoException).code ?? ''}`;
  }
  const parts = [statPart(own)];
  for (const name of names)
    for (const file of filesOf(name))
      parts.push(`${file.path}:${pathSignature(join(folder, file.path), file.follow)}`);
  return parts.join('|');
}

/** One path's part of a signature: its stat (its target's when `follow`), or '-' when it is missing. */
export function pathSignature(path: string, follow: boolean): string {
  const stats = (follow ? statSync : lstatSync)(path, { bigint: true, throwIfNoEntry: false });
  return stats ? statPart(stats) : '-';
}

function statPart(stats: BigIntStats): string {
  return `${stats.ino}.${stats.mode}.${stats.size}.${stats.mtimeNs}.${stats.ctimeNs}`;
}

/**
 * Values loaded from files, each kept with the signature of the files it came from and loaded again
 * when the signature changes. Holds at most `capacity` keys (one per agent folder, say), starting over
 * when full.
 */
export class SignatureCache<V> {
  private readonly entries = new Map<string, { signature: string; value: V }>();

  constructor(private readonly capacity = 10_000) {}

  async get(key: string, signature: string, load: () => Promise<V>): Promise<V> {
    const kept = this.entries.get(key);
    if (kept?.signature === signature) return kept.value;
    const value = await load();
    if (this.entries.size >= this.capacity) this.entries.clear();
    this.entries.set(key, { signature, value });
    return value;
  }
}
