import { basename, dirname, isAbsolute, join, parse, resolve, sep } from 'node:path';
import {
  byName,
  decodeUtf8,
  FsError,
  type AgentFilesystem,
  type DirEntry,
  type FileInfo,
  type ReadOptions,
} from './agent-filesystem';

type MemoryNode =
  | { kind: 'file'; data: Uint8Array; mtimeMs: number }
  | { kind: 'directory'; children: Map<string, MemoryNode>; mtimeMs: number }
  | { kind: 'symlink'; target: string; mtimeMs: number };
type DirectoryNode = Extract<MemoryNode, { kind: 'directory' }>;

/** Linux's limit on links followed while resolving one path. */
const MAX_LINK_HOPS = 40;

/**
 * AgentFilesystem in memory, for tests and dry runs. It models folders, files and symbolic links and
 * behaves like DiskAgentFilesystem: only `realpath` follows links; every other operation meeting one
 * fails with ESYMLINK. `mtimeMs` is a counter that goes up by one on every change.
 */
export class MemoryAgentFilesystem implements AgentFilesystem {
  private readonly roots = new Map<string, DirectoryNode>();
  private clock = 0;

  /** `files` maps absolute paths to text; their folders are created. */
  constructor(files: Record<string, string> = {}) {
    for (const [path, text] of Object.entries(files)) this.addFile(path, text);
  }

  async readTextFile(path: string, options?: ReadOptions): Promise<string> {
    return decodeUtf8(await this.readBinaryFile(path, options), path);
  }

  async readBinaryFile(path: string, options?: ReadOptions): Promise<Uint8Array> {
    const node = this.entry(path, 'open');
    if (!node) throw new FsError('ENOENT', 'open', path);
    if (node.kind === 'symlink') throw new FsError('ESYMLINK', 'open', path);
    if (node.kind === 'directory') throw new FsError('EISDIR', 'read', path);
    if (options?.maxBytes !== undefined && node.data.length > options.maxBytes)
      throw new FsError('EFBIG', 'read', path);
    return node.data.slice();
  }

  async writeTextFile(path: string, text: string): Promise<void> {
    this.putFile(path, text);
  }

  async deleteFile(path: string): Promise<void> {
    const folder = this.folder(dirname(path), 'unlink');
    const existing = folder.children.get(basename(path));
    if (!existing) throw new FsError('ENOENT', 'unlink', path);
    if (existing.kind === 'directory') throw new FsError('EISDIR', 'unlink', path);
    if (existing.kind === 'symlink') throw new FsError('ESYMLINK', 'unlink', path);
    folder.children.delete(basename(path));
  }

  async ensureDir(path: string): Promise<void> {
    this.makeFolders(path, 'mkdir');
  }

  async readDir(path: string): Promise<DirEntry[]> {
    const folder = this.folder(path, 'scandir');
    return [...folder.children]
      .map(([name, node]) => ({ name, path: join(path, name), ...info(node) }))
      .sort(byName);
  }

  async stat(path: string): Promise<FileInfo | null> {
    const parentPath = dirname(path);
    if (parentPath === path) return info(this.root(path));
    let folder: DirectoryNode;
    try {
      folder = this.folder(parentPath, 'lstat');
    } catch (error) {
      if (error instanceof FsError && (error.code === 'ENOENT' || error.code === 'ENOTDIR')) return null;
      throw error;
    }
    const node = folder.children.get(basename(path));
    return node ? info(node) : null;
  }

  async realpath(path: string): Promise<string> {
    const root = parse(resolve(path)).root;
    const pending = parts(path, true);
    const resolved: string[] = [];
    let hops = 0;
    while (pending.length > 0) {
      const part = pending.shift() as string;
      if (part === '..') {
        resolved.pop();
        continue;
      }
      const node = this.nodeAt(root, resolved)?.get(part);
      if (!node) throw new FsError('ENOENT', 'realpath', path);
      if (node.kind === 'symlink') {
        hops += 1;
        if (hops > MAX_LINK_HOPS) throw new FsError('ELOOP', 'realpath', path);
        if (isAbsolute(node.target)) resolved.length = 0;
        pending.unshift(...parts(node.target, true));
        continue;
      }
      if (node.kind === 'file' && pending.length > 0) throw new FsError('ENOTDIR', 'realpath', path);
      resolved.push(part);
    }
    return join(root, ...resolved);
  }

  /** Creates a file with its missing folders, replacing a file already there (test and dry-run setup). */
  addFile(path: string, content: string | Uint8Array): void {
    this.makeFolders(dirname(path), 'mkdir');
    this.putFile(path, content);
  }

  /** Creates a symbolic link at `path` pointing to `target` (absolute, or relative to the link's folder). */
  symlink(target: string, path: string): void {
    const folder = this.folder(dirname(path), 'symlink');
    if (folder.children.has(basename(path))) throw new FsError('EEXIST', 'symlink', path);
    folder.children.set(basename(path), { kind: 'symlink', target, mtimeMs: this.tick() });
  }

  /** Moves an entry (a link is moved, not followed), replacing a file or link at the destination. */
  rename(from: string, to: string): void {
    const source = this.folder(dirname(from), 'rename');
    const node = source.children.get(basename(from));
    if (!node) throw new FsError('ENOENT', 'rename', from);
    const destination = this.folder(dirname(to), 'rename');
    if (destination.children.get(basename(to))?.kind === 'directory')
      throw new FsError('EISDIR', 'rename', to);
    source.children.delete(basename(from));
    destination.children.set(basename(to), node);
  }

  /** Removes an entry and everything below it; a link is removed, not followed. */
  remove(path: string): void {
    this.folder(dirname(path), 'rm').children.delete(basename(path));
  }

  /** Every file's text by absolute path, in code-point order. */
  snapshot(): Record<string, string> {
    return Object.fromEntries(
      Object.entries(this.tree()).flatMap(([path, entry]) =>
        entry.startsWith('file:') ? [[path, entry.slice('file:'.length)]] : [],
      ),
    );
  }

  /** Every entry by absolute path: `directory`, `file:<text>` or `symlink:<target>`, in code-point order. */
  tree(): Record<string, string> {
    const entries: Record<string, string> = {};
    const visit = (path: string, node: MemoryNode): void => {
      if (node.kind === 'file') entries[path] = `file:${new TextDecoder().decode(node.data)}`;
      if (node.kind === 'symlink') entries[path] = `symlink:${node.target}`;
      if (node.kind !== 'directory') return;
      entries[path] = 'directory';
      for (const [name, child] of [...node.children].sort(([a], [b]) => byName({ name: a }, { name: b })))
        visit(join(path, name), child);
    };
    for (const [root, node] of this.roots) visit(root, node);
    return entries;
  }

  private putFile(path: string, content: string | Uint8Array): void {
    const folder = this.folder(dirname(path), 'open');
    const existing = folder.children.get(basename(path));
    if (existing?.kind === 'symlink') throw new FsError('ESYMLINK', 'open', path);
    if (existing?.kind === 'directory') throw new FsError('EISDIR', 'open', path);
    const data = typeof content === 'string' ? new TextEncoder().encode(content) : content.slice();
    folder.children.set(basename(path), { kind: 'file', data, mtimeMs: this.tick() });
  }

  private tick(): number {
    this.clock += 1;
    return this.clock;
  }

  private root(path: string): DirectoryNode {
    const root = parse(resolve(path)).root;
    let node = this.roots.get(root);
    if (!node) {
      node = { kind: 'directory', children: new Map(), mtimeMs: this.tick() };
      this.roots.set(root, node);
    }
    return node;
  }

  private nodeAt(root: string, names: readonly string[]): Map<string, MemoryNode> | null {
    let folder = this.root(root);
    for (const name of names) {
      const next = folder.children.get(name);
      if (next?.kind !== 'directory') return null;
      folder = next;
    }
    return folder.children;
  }

  /** The folder at `path`, reached without following any link. */
  private folder(path: string, syscall: string): DirectoryNode {
    const node = this.walk(path, syscall);
    if (!node) throw new FsError('ENOENT', syscall, path);
    if (node.kind === 'symlink') throw new FsError('ESYMLINK', syscall, path);
    if (node.kind !== 'directory') throw new FsError('ENOTDIR', syscall, path);
    return node;
  }

  /** The entry at `path` (null when missing), its folders reached without following any link. */
  private entry(path: string, syscall: string): MemoryNode | null {
    if (dirname(path) === path) return this.root(path);
    return this.folder(dirname(path), syscall).children.get(basename(path)) ?? null;
  }

  private walk(path: string, syscall: string): MemoryNode | null {
    let node: MemoryNode = this.root(path);
    for (const name of parts(path)) {
      if (node.kind === 'symlink') throw new FsError('ESYMLINK', syscall, path);
      if (node.kind === 'file') throw new FsError('ENOTDIR', syscall, path);
      const next = node.children.get(name);
      if (!next) return null;
      node = next;
    }
    return node;
  }

  private makeFolders(path: string, syscall: string): void {
    let folder = this.root(path);
    for (const name of parts(path)) {
      const next = folder.children.get(name);
      if (next?.kind === 'symlink') throw new FsError('ESYMLINK', syscall, path);
      if (next?.kind === 'file') throw new FsError('ENOTDIR', syscall, path);
      if (next) {
        folder = next;
        continue;
      }
      const created: DirectoryNode = { kind: 'directory', children: new Map(), mtimeMs: this.tick() };
      folder.children.set(name, created);
      folder = created;
    }
  }
}

/** The names in a path after its root; a link target keeps its `..` (resolved against real folders). */
function parts(path: string, keepDots = false): string[] {
  const absolute = isAbsolute(path);
  const text = keepDots || !absolute ? path : resolve(path);
  const withoutRoot = absolute ? text.slice(parse(text).root.length) : text;
  return withoutRoot.split(sep === '\\' ? /[\\/]/ : '/').filter((name) => name !== '' && name !== '.');
}

function info(node: MemoryNode): FileInfo {
  const size = node.kind === 'file' ? node.data.length : node.kind === 'symlink' ? node.target.length : 0;
  return { kind: node.kind, mtimeMs: node.mtimeMs, size };
}
