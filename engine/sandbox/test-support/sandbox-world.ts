import {
  lstat,
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  readlink,
  realpath,
  rename,
  rm,
  symlink,
  writeFile,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { AgentFilesystem } from '../agent-filesystem';
import { isWithin } from '../sandbox-layout';
import { DiskAgentFilesystem } from '../disk-agent-filesystem';
import { MemoryAgentFilesystem } from '../memory-agent-filesystem';

/** Text in every file an agent must never read; it must never appear in any result. */
export const CANARY = 'CANARY-5f1e-outside-the-sandbox';

/**
 * A small world with an org in it and things outside it, on the disk or in memory, so the same
 * suite runs against both file systems. Paths are absolute and canonical.
 */
export interface SandboxWorld {
  readonly kind: 'disk' | 'memory';
  readonly root: string;
  readonly org: string;
  /** `<org>/agents/a`: the agent under test. */
  readonly agentDir: string;
  readonly workspace: string;
  readonly shared: string;
  /** `<root>/outside`: a folder next to the org. */
  readonly outside: string;
  readonly fs: AgentFilesystem;
  /** Creates the file and its missing folders. */
  writeFile(path: string, content: string | Uint8Array): Promise<void>;
  mkdir(path: string): Promise<void>;
  symlink(target: string, path: string): Promise<void>;
  /** Moves what is at `path` to `<path>.moved` and puts a link to `target` in its place, as an attacker would. */
  swapInSymlink(target: string, path: string): Promise<void>;
  /** Everything under the root, links not followed: path → `directory`, `file:<text>` or `symlink:<target>`. */
  tree(): Promise<Record<string, string>>;
  dispose(): Promise<void>;
}

export interface WorldFactory {
  name: string;
  create(): Promise<SandboxWorld>;
}

export const diskWorld = diskWorldWith('disk', true);

/** The disk without /proc/self/fd: the checks macOS and other systems get. */
export const portableDiskWorld = diskWorldWith('disk, checked by path (as without /proc)', false);

function diskWorldWith(name: string, useProcFd: boolean): WorldFactory {
  return {
    name,
    async create() {
      // The real path, so that paths built from it are canonical (macOS puts tmpdir behind a link).
      const root = await realpath(await mkdtemp(join(tmpdir(), 'lemming-sandbox-')));
      return {
        ...places('disk', root),
        fs: new DiskAgentFilesystem({ useProcFd }),
        async writeFile(path, text) {
          await mkdir(dirname(path), { recursive: true });
          await writeFile(path, text);
        },
        mkdir: async (path) => void (await mkdir(path, { recursive: true })),
        symlink: (target, path) => symlink(target, path),
        async swapInSymlink(target, path) {
          await rename(path, `${path}.moved`);
          await symlink(target, path);
        },
        tree: () => diskTree(root),
        dispose: () => rm(root, { recursive: true, force: true }),
      };
    },
  };
}

export const memoryWorld: WorldFactory = {
  name: 'memory',
  async create() {
    const fs = new MemoryAgentFilesystem();
    const root = '/world';
    await fs.ensureDir(root);
    return {
      ...places('memory', root),
      fs,
      writeFile: async (path, content) => fs.addFile(path, content),
      mkdir: (path) => fs.ensureDir(path),
      symlink: async (target, path) => fs.symlink(target, path),
      async swapInSymlink(target, path) {
        fs.rename(path, `${path}.moved`);
        fs.symlink(target, path);
      },
      tree: async () =>
        Object.fromEntries(
          Object.entries(fs.tree()).filter(([path]) => isWithin(root, path) && path !== root),
        ),
      dispose: async () => undefined,
    };
  },
};

export const WORLDS: readonly WorldFactory[] = [diskWorld, memoryWorld];

/**
 * The standard org: agent `a` with a workspace, its neighbours, the shared folder, siblings whose
 * names share a prefix with allowed folders, and links from inside to outside. Every file the agent
 * must not read holds CANARY.
 */
export async function seedOrg(world: SandboxWorld): Promise<void> {
  const { org, workspace, shared, outside, root } = world;
  const files: Record<string, string> = {
    [join(workspace, 'notes.md')]: 'workspace notes',
    [join(workspace, 'sub', 'inner.md')]: 'inner notes',
    [join(shared, 'readme.md')]: 'shared readme',
    [join(org, 'agents', 'a', 'resume.json')]: `{"name": "a", "secret": "${CANARY}"}`,
    [join(org, 'agents', 'a', 'workspace-evil', 'secret.txt')]: CANARY,
    [join(org, 'agents', 'b', 'workspace', 'secret.txt')]: CANARY,
    [join(org, 'agents', 'ab', 'workspace', 'secret.txt')]: CANARY,
    [join(org, 'shared-evil', 'secret.txt')]: CANARY,
    [join(org, 'lemming', 'config', 'models.json')]: CANARY,
    [join(outside, 'secret.txt')]: CANARY,
    [join(outside, 'notes.md')]: CANARY,
    [join(outside, 'dir', 'secret.txt')]: CANARY,
    [join(outside, 'er', 'secret.txt')]: CANARY,
    [join(root, 'org-evil', 'secret.txt')]: CANARY,
  };
  await Promise.all(Object.entries(files).map(([path, text]) => world.writeFile(path, text)));

  const links: [string, string][] = [
    [join(outside, 'secret.txt'), join(workspace, 'link-file')],
    [join(outside, 'dir'), join(workspace, 'link-dir')],
    [join(outside, 'new-file.txt'), join(workspace, 'dangling')],
    [join(outside, 'newdir'), join(workspace, 'dangling-dir')],
    ['../../../../outside/brand-new.txt', join(workspace, 'dangling-rel')],
    ['../../b/workspace/secret.txt', join(workspace, 'link-rel')],
    [join(workspace, 'l2'), join(workspace, 'l1')],
    [join(outside, 'secret.txt'), join(workspace, 'l2')],
    ['loop2', join(workspace, 'loop1')],
    ['loop1', join(workspace, 'loop2')],
    ['..', join(workspace, 'link-up')],
    [org, join(workspace, 'link-org')],
    [join(workspace, 'sub'), join(workspace, 'link-ok')],
    ['../../../shared', join(workspace, 'link-shared')],
    [join(outside, 'dir'), join(shared, 'link-out')],
    [join(org, 'agents', 'b', 'workspace'), join(shared, 'link-b')],
  ];
  await Promise.all(links.map(([target, path]) => world.symlink(target, path)));
}

/** The part of the tree a case must leave alone: everything but the folders the agent may write. */
export async function protectedTree(
  world: SandboxWorld,
  writable: readonly string[],
): Promise<Record<string, string>> {
  const tree = await world.tree();
  return Object.fromEntries(
    Object.entries(tree).filter(([path]) => !writable.some((folder) => isWithin(folder, path))),
  );
}

function places(kind: 'disk' | 'memory', root: string) {
  const org = join(root, 'org');
  const agentDir = join(org, 'agents', 'a');
  return {
    kind,
    root,
    org,
    agentDir,
    workspace: join(agentDir, 'workspace'),
    shared: join(org, 'shared'),
    outside: join(root, 'outside'),
  };
}

async function diskTree(root: string): Promise<Record<string, string>> {
  const entries: Record<string, string> = {};
  const visit = async (folder: string): Promise<void> => {
    const names = await readdir(folder);
    await Promise.all(
      names.map(async (name) => {
        const path = join(folder, name);
        const info = await lstat(path);
        if (info.isSymbolicLink()) entries[path] = `symlink:${await readlink(path)}`;
        else if (info.isFile()) entries[path] = `file:${await readFile(path, 'utf8')}`;
        else if (info.isDirectory()) {
          entries[path] = 'directory';
          await visit(path);
        } else entries[path] = 'other';
      }),
    );
  };
  await visit(root);
  return entries;
}
