/**
 * Names already dealt with in each of some folders, as of each folder's last listing. A listing forgets
 * the names it no longer shows, and `keepFolders` forgets folders no longer listed, so this holds no
 * more names than the folders hold files: a long run whose old files are pruned does not grow it.
 */
export class ListedNames {
  private readonly known = new Map<string, Set<string>>();

  /** Takes a new listing of `folder`; returns its names still known, a set to check and add to. */
  relist(folder: string, listing: readonly string[]): Set<string> {
    const before = this.known.get(folder);
    const kept = new Set<string>();
    if (before) for (const name of listing) if (before.has(name)) kept.add(name);
    this.known.set(folder, kept);
    return kept;
  }

  /** Forgets every folder but `folders`. */
  keepFolders(folders: readonly string[]): void {
    const listed = new Set(folders);
    for (const folder of this.known.keys()) if (!listed.has(folder)) this.known.delete(folder);
  }

  /** How many names are held, over all folders. */
  get size(): number {
    let total = 0;
    for (const names of this.known.values()) total += names.size;
    return total;
  }
}
