import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { FileAccess } from '../access-policy';
import { AgentSandbox, type SandboxResult } from '../agent-sandbox';
import {
  CANARY,
  protectedTree,
  seedOrg,
  WORLDS,
  type SandboxWorld,
  type WorldFactory,
} from './sandbox-world';

export const CASE_CATEGORIES = [
  'parent-escape',
  'absolute',
  'sibling-prefix',
  'shared-prefix',
  'symlink',
  'swap',
  'nul',
  'long',
  'unicode',
  'windows',
  'control',
  'encoding',
  'policy',
] as const;
export type CaseCategory = (typeof CASE_CATEGORIES)[number];

/**
 * `refused`: every operation must fail. `contained`: an operation may succeed (the path is harmless
 * or inside), but like every case it must not read, change or create anything outside.
 */
export type CaseExpectation = 'refused' | 'contained';

export interface AdversarialCase {
  id: string;
  category: CaseCategory;
  /** The path the agent gives, in the world seeded by seedOrg. */
  path: string | ((world: SandboxWorld) => string);
  expect: CaseExpectation;
  setup?: (world: SandboxWorld) => Promise<void>;
  fileAccess?: (world: SandboxWorld) => FileAccess;
  /** The folders the case lets the agent change (default: workspace and shared/). */
  writable?: (world: SandboxWorld) => string[];
  /** Runs once between the access check and the I/O, as a racing attacker would. */
  duringOperation?: (world: SandboxWorld) => Promise<void>;
}

/** One thing a tool suite does with a path, e.g. call its read tool with `{ path }`. */
export interface AdversarialOperation {
  name: string;
  run(path: string, sandbox: AgentSandbox): Promise<unknown>;
  /** Whether the result is a failure (a refusal or any other error). */
  failed(result: unknown): boolean;
}

const WORKSPACE_NOTE = 'WRITTEN-BY-THE-AGENT';
const sandboxFailed = (result: unknown) => !(result as SandboxResult).ok;

/** The raw AgentSandbox operations. */
export const SANDBOX_OPERATIONS: readonly AdversarialOperation[] = [
  { name: 'read', run: (path, sandbox) => sandbox.read(path), failed: sandboxFailed },
  { name: 'write', run: (path, sandbox) => sandbox.write(path, WORKSPACE_NOTE), failed: sandboxFailed },
  { name: 'list', run: (path, sandbox) => sandbox.list(path), failed: sandboxFailed },
  { name: 'delete', run: (path, sandbox) => sandbox.delete(path), failed: sandboxFailed },
  { name: 'mkdir', run: (path, sandbox) => sandbox.mkdir(path), failed: sandboxFailed },
  { name: 'stat', run: (path, sandbox) => sandbox.stat(path), failed: sandboxFailed },
  { name: 'resolve-move', run: (path, sandbox) => sandbox.resolve(path, 'move'), failed: sandboxFailed },
  { name: 'resolve-search', run: (path, sandbox) => sandbox.resolve(path, 'search'), failed: sandboxFailed },
];

const at =
  (...names: string[]) =>
  (world: SandboxWorld) =>
    join(world.root, ...names);
const inOrg =
  (...names: string[]) =>
  (world: SandboxWorld) =>
    join(world.org, ...names);
const inWorkspace =
  (...names: string[]) =>
  (world: SandboxWorld) =>
    join(world.workspace, ...names);
const nothingWritable = () => [];

/**
 * The corpus. Paths are relative to the agent's workspace unless built from the world. The standard
 * links (seedOrg): link-file and l1 → l2 → outside/secret.txt, link-dir → outside/dir, dangling →
 * outside/new-file.txt, dangling-dir → outside/newdir, dangling-rel → ../../../../outside/brand-new.txt,
 * link-rel → ../../b/workspace/secret.txt, loop1 ↔ loop2, link-up → .., link-org → the org, link-ok →
 * sub, link-shared → shared/, shared/link-out → outside/dir, shared/link-b → agent b's workspace.
 */
export const ADVERSARIAL_CASES: readonly AdversarialCase[] = [
  { id: 'parent of the workspace', category: 'parent-escape', path: '..', expect: 'refused' },
  { id: "the agent's own resume", category: 'parent-escape', path: '../resume.json', expect: 'refused' },
  {
    id: "another agent's workspace",
    category: 'parent-escape',
    path: '../../b/workspace/secret.txt',
    expect: 'refused',
  },
  {
    id: 'org config',
    category: 'parent-escape',
    path: '../../../lemming/config/models.json',
    expect: 'refused',
  },
  {
    id: 'out of the org',
    category: 'parent-escape',
    path: '../../../../outside/secret.txt',
    expect: 'refused',
  },
  { id: 'down then up', category: 'parent-escape', path: 'sub/../../resume.json', expect: 'refused' },
  { id: 'dot then up', category: 'parent-escape', path: './../resume.json', expect: 'refused' },
  {
    id: 'far above the root',
    category: 'parent-escape',
    path: `sub/${'../'.repeat(40)}etc/passwd`,
    expect: 'refused',
  },
  {
    id: 'up through missing folders',
    category: 'parent-escape',
    path: 'x/y/z/../../../../resume.json',
    expect: 'refused',
  },
  {
    id: 'up through a file name',
    category: 'parent-escape',
    path: 'notes.md/../../resume.json',
    expect: 'refused',
  },
  {
    id: 'create beside the org',
    category: 'parent-escape',
    path: '../../../../created-outside.txt',
    expect: 'refused',
  },
  { id: 'up and back in', category: 'parent-escape', path: '../workspace/notes.md', expect: 'contained' },
  { id: 'a name starting with ..', category: 'parent-escape', path: '..foo', expect: 'contained' },
  { id: 'three dots is a name', category: 'parent-escape', path: '.../x.txt', expect: 'contained' },
  { id: 'down and up to the workspace', category: 'parent-escape', path: 'sub/..', expect: 'contained' },

  { id: '/etc/passwd', category: 'absolute', path: '/etc/passwd', expect: 'refused' },
  { id: 'outside file', category: 'absolute', path: at('outside', 'secret.txt'), expect: 'refused' },
  {
    id: "other agent's file",
    category: 'absolute',
    path: inOrg('agents', 'b', 'workspace', 'secret.txt'),
    expect: 'refused',
  },
  {
    id: 'org config file',
    category: 'absolute',
    path: inOrg('lemming', 'config', 'models.json'),
    expect: 'refused',
  },
  { id: 'own resume', category: 'absolute', path: inOrg('agents', 'a', 'resume.json'), expect: 'refused' },
  { id: 'the org folder', category: 'absolute', path: inOrg(), expect: 'refused' },
  { id: 'the file system root', category: 'absolute', path: '/', expect: 'refused' },
  {
    id: 'workspace then up',
    category: 'absolute',
    path: (world) => `${world.workspace}/../resume.json`,
    expect: 'refused',
  },
  { id: 'new file beside the org', category: 'absolute', path: at('created-outside.txt'), expect: 'refused' },
  {
    id: 'own file by absolute path',
    category: 'absolute',
    path: inWorkspace('notes.md'),
    expect: 'contained',
  },
  {
    id: 'shared file by absolute path',
    category: 'absolute',
    path: inOrg('shared', 'readme.md'),
    expect: 'contained',
  },

  {
    id: 'shared-evil beside shared',
    category: 'sibling-prefix',
    path: inOrg('shared-evil', 'secret.txt'),
    expect: 'refused',
  },
  {
    id: 'workspace-evil beside workspace',
    category: 'sibling-prefix',
    path: inOrg('agents', 'a', 'workspace-evil', 'secret.txt'),
    expect: 'refused',
  },
  {
    id: 'workspace-evil by ..',
    category: 'sibling-prefix',
    path: '../workspace-evil/secret.txt',
    expect: 'refused',
  },
  {
    id: 'agent ab beside agent a',
    category: 'sibling-prefix',
    path: inOrg('agents', 'ab', 'workspace', 'secret.txt'),
    expect: 'refused',
  },
  {
    id: 'agent ab by ..',
    category: 'sibling-prefix',
    path: '../../ab/workspace/secret.txt',
    expect: 'refused',
  },
  {
    id: 'org-evil beside the org',
    category: 'sibling-prefix',
    path: at('org-evil', 'secret.txt'),
    expect: 'refused',
  },

  {
    id: 'shared then up to shared-evil',
    category: 'shared-prefix',
    path: 'shared/../shared-evil/secret.txt',
    expect: 'refused',
  },
  {
    id: 'shared, dot, up',
    category: 'shared-prefix',
    path: 'shared/./../shared-evil/secret.txt',
    expect: 'refused',
  },
  {
    id: 'shared, double slash, up',
    category: 'shared-prefix',
    path: 'shared//../shared-evil/secret.txt',
    expect: 'refused',
  },
  {
    id: 'shared then into agents',
    category: 'shared-prefix',
    path: 'shared/../agents/b/workspace/secret.txt',
    expect: 'refused',
  },
  {
    id: 'shared then out of the org',
    category: 'shared-prefix',
    path: 'shared/../../outside/secret.txt',
    expect: 'refused',
  },
  { id: 'shared/.. is the org', category: 'shared-prefix', path: 'shared/..', expect: 'refused' },
  {
    id: './shared then up',
    category: 'shared-prefix',
    path: './shared/../lemming/config/models.json',
    expect: 'refused',
  },
  {
    id: 'sharedX is a workspace folder',
    category: 'shared-prefix',
    path: 'sharedX/../../resume.json',
    expect: 'refused',
  },
  {
    id: 'SHARED is a workspace folder',
    category: 'shared-prefix',
    path: 'SHARED/../../resume.json',
    expect: 'refused',
  },
  {
    id: 'shared-evil is a workspace name',
    category: 'shared-prefix',
    path: 'shared-evil/secret.txt',
    expect: 'contained',
  },
  { id: 'shared alone', category: 'shared-prefix', path: 'shared', expect: 'contained' },
  { id: 'shared file', category: 'shared-prefix', path: 'shared/readme.md', expect: 'contained' },

  { id: 'link to an outside file', category: 'symlink', path: 'link-file', expect: 'refused' },
  {
    id: 'file in a linked outside folder',
    category: 'symlink',
    path: 'link-dir/secret.txt',
    expect: 'refused',
  },
  { id: 'linked outside folder', category: 'symlink', path: 'link-dir', expect: 'refused' },
  {
    id: 'new file in a linked outside folder',
    category: 'symlink',
    path: 'link-dir/new.txt',
    expect: 'refused',
  },
  { id: 'dangling link to an outside file', category: 'symlink', path: 'dangling', expect: 'refused' },
  {
    id: 'through a dangling link to an outside folder',
    category: 'symlink',
    path: 'dangling-dir/x.txt',
    expect: 'refused',
  },
  { id: 'dangling relative link', category: 'symlink', path: 'dangling-rel', expect: 'refused' },
  { id: "relative link to another agent's file", category: 'symlink', path: 'link-rel', expect: 'refused' },
  { id: 'chain of links', category: 'symlink', path: 'l1', expect: 'refused' },
  { id: 'loop of links', category: 'symlink', path: 'loop1/x.txt', expect: 'refused' },
  { id: 'link to the parent', category: 'symlink', path: 'link-up/resume.json', expect: 'refused' },
  { id: 'link to the org', category: 'symlink', path: 'link-org/shared-evil/secret.txt', expect: 'refused' },
  {
    id: 'link in shared to outside',
    category: 'symlink',
    path: 'shared/link-out/secret.txt',
    expect: 'refused',
  },
  {
    id: "link in shared to another agent's workspace",
    category: 'symlink',
    path: 'shared/link-b/secret.txt',
    expect: 'refused',
  },
  {
    id: 'absolute path through a link',
    category: 'symlink',
    path: inWorkspace('link-dir', 'secret.txt'),
    expect: 'refused',
  },
  { id: 'link to an inside folder', category: 'symlink', path: 'link-ok/inner.md', expect: 'contained' },
  { id: 'link to shared', category: 'symlink', path: 'link-shared/readme.md', expect: 'contained' },
  // The OS would resolve link-dir/.. to outside/ and find outside/notes.md; the sandbox means ./notes.md.
  {
    id: 'up through a link is collapsed by name',
    category: 'symlink',
    path: 'link-dir/../notes.md',
    expect: 'contained',
  },

  {
    id: 'folder swapped for a link to outside',
    category: 'swap',
    path: 'swapdir/secret.txt',
    expect: 'contained',
    setup: (world) => world.writeFile(join(world.workspace, 'swapdir', 'secret.txt'), 'inside'),
    duringOperation: (world) =>
      world.swapInSymlink(join(world.outside, 'dir'), join(world.workspace, 'swapdir')),
  },
  {
    id: 'file swapped for a link to outside',
    category: 'swap',
    path: 'swapfile.txt',
    expect: 'contained',
    setup: (world) => world.writeFile(join(world.workspace, 'swapfile.txt'), 'inside'),
    duringOperation: (world) =>
      world.swapInSymlink(join(world.outside, 'secret.txt'), join(world.workspace, 'swapfile.txt')),
  },
  {
    id: 'grandparent swapped for a link to outside',
    category: 'swap',
    path: 'deep/er/secret.txt',
    expect: 'contained',
    setup: (world) => world.writeFile(join(world.workspace, 'deep', 'er', 'secret.txt'), 'inside'),
    duringOperation: (world) => world.swapInSymlink(world.outside, join(world.workspace, 'deep')),
  },
  {
    id: 'folder swapped for a dangling link',
    category: 'swap',
    path: 'swapnew/x.txt',
    expect: 'contained',
    setup: (world) => world.mkdir(join(world.workspace, 'swapnew')),
    duringOperation: (world) =>
      world.swapInSymlink(join(world.outside, 'fresh'), join(world.workspace, 'swapnew')),
  },
  {
    id: 'shared folder swapped for a link to outside',
    category: 'swap',
    path: 'shared/swapdir/secret.txt',
    expect: 'contained',
    setup: (world) => world.writeFile(join(world.shared, 'swapdir', 'secret.txt'), 'inside'),
    duringOperation: (world) =>
      world.swapInSymlink(join(world.outside, 'dir'), join(world.shared, 'swapdir')),
  },

  { id: 'NUL inside a name', category: 'nul', path: 'notes.md\0.txt', expect: 'refused' },
  { id: 'NUL alone', category: 'nul', path: '\0', expect: 'refused' },
  { id: 'NUL after ..', category: 'nul', path: '../\0', expect: 'refused' },
  { id: 'NUL in shared', category: 'nul', path: 'shared/\0/../x', expect: 'refused' },
  { id: 'NUL hiding an escape', category: 'nul', path: 'sub\0/../../resume.json', expect: 'refused' },

  { id: 'name of 256 bytes', category: 'long', path: 'a'.repeat(256), expect: 'refused' },
  { id: 'name of 128 two-byte letters', category: 'long', path: 'é'.repeat(128), expect: 'refused' },
  { id: 'path of 4200 bytes', category: 'long', path: 'a/'.repeat(2100), expect: 'refused' },
  { id: 'many parents', category: 'long', path: `${'../'.repeat(1400)}etc/passwd`, expect: 'refused' },
  { id: 'name of exactly 255 bytes', category: 'long', path: 'a'.repeat(255), expect: 'contained' },

  { id: 'fullwidth dots', category: 'unicode', path: '\uff0e\uff0e/resume.json', expect: 'contained' },
  { id: 'two-dot leader', category: 'unicode', path: '\u2025/resume.json', expect: 'contained' },
  { id: 'division slash', category: 'unicode', path: '..\u2215resume.json', expect: 'contained' },
  { id: 'combining dot', category: 'unicode', path: '.\u0307./resume.json', expect: 'contained' },
  { id: 'right-to-left override', category: 'unicode', path: '\u202etxt.exe', expect: 'contained' },
  { id: 'lone surrogate', category: 'unicode', path: '\ud800/x.txt', expect: 'refused' },
  {
    id: 'zero-width space after shared',
    category: 'unicode',
    path: 'shared\u200b/../../resume.json',
    expect: 'refused',
  },
  {
    id: 'Cyrillic s in shared',
    category: 'unicode',
    path: '\u0455hared/../../resume.json',
    expect: 'refused',
  },
  {
    id: 'NFD name of an NFC grant',
    category: 'unicode',
    path: 'shared/cafe\u0301/x.txt',
    expect: 'contained',
    setup: (world) => world.mkdir(join(world.shared, 'caf\u00e9')),
    fileAccess: () => ({ allow_read: ['shared/caf\u00e9'], allow_write: ['shared/caf\u00e9'] }),
    writable: (world) => [join(world.shared, 'caf\u00e9')],
  },

  { id: 'drive path with backslashes', category: 'windows', path: 'C:\\Windows\\win.ini', expect: 'refused' },
  { id: 'drive path with slashes', category: 'windows', path: 'C:/Windows/win.ini', expect: 'refused' },
  { id: 'drive-relative path', category: 'windows', path: 'C:secret.txt', expect: 'refused' },
  {
    id: 'UNC with backslashes',
    category: 'windows',
    path: '\\\\server\\share\\secret.txt',
    expect: 'refused',
  },
  { id: 'UNC with slashes', category: 'windows', path: '//server/share/secret.txt', expect: 'refused' },
  { id: 'long-path prefix', category: 'windows', path: '\\\\?\\C:\\secret.txt', expect: 'refused' },
  { id: 'device namespace', category: 'windows', path: '\\\\.\\pipe\\x', expect: 'refused' },
  { id: 'backslash parents', category: 'windows', path: '..\\..\\resume.json', expect: 'refused' },
  {
    id: 'shared with backslash parents',
    category: 'windows',
    path: 'shared\\..\\..\\resume.json',
    expect: 'refused',
  },
  { id: 'mixed separators', category: 'windows', path: 'sub\\../../resume.json', expect: 'refused' },
  { id: 'device name', category: 'windows', path: 'CON', expect: 'contained' },
  { id: 'alternate data stream', category: 'windows', path: 'notes.md::$DATA', expect: 'contained' },
  { id: 'trailing dot', category: 'windows', path: 'notes.md.', expect: 'contained' },

  { id: 'newline', category: 'control', path: 'notes\n.md', expect: 'refused' },
  { id: 'carriage return', category: 'control', path: 'notes.md\r', expect: 'refused' },
  { id: 'tab', category: 'control', path: '\tnotes.md', expect: 'refused' },
  { id: 'C1 next line', category: 'control', path: 'notes\u0085.md', expect: 'refused' },

  { id: 'percent-encoded dots', category: 'encoding', path: '%2e%2e/resume.json', expect: 'contained' },
  { id: 'percent-encoded slash', category: 'encoding', path: '..%2fresume.json', expect: 'contained' },
  { id: 'file URL', category: 'encoding', path: 'file:///etc/passwd', expect: 'contained' },
  { id: 'home tilde', category: 'encoding', path: '~/.ssh/id_rsa', expect: 'contained' },
  { id: 'environment variable', category: 'encoding', path: '$HOME/.ssh/id_rsa', expect: 'contained' },

  {
    id: 'empty lists allow nothing',
    category: 'policy',
    path: 'notes.md',
    expect: 'refused',
    fileAccess: () => ({ allow_read: [], allow_write: [] }),
    writable: nothingWritable,
  },
  {
    id: 'absolute grant outside the org',
    category: 'policy',
    path: at('outside', 'secret.txt'),
    expect: 'refused',
    fileAccess: (world) => ({ allow_read: [world.outside], allow_write: [world.outside] }),
    writable: nothingWritable,
  },
  {
    id: 'relative grant escaping the org',
    category: 'policy',
    path: '../../../../outside/secret.txt',
    expect: 'refused',
    fileAccess: () => ({ allow_read: ['../outside'], allow_write: ['../outside'] }),
    writable: nothingWritable,
  },
  {
    id: 'grant through a link in shared',
    category: 'policy',
    path: 'shared/link-out/secret.txt',
    expect: 'refused',
    fileAccess: () => ({ allow_read: ['shared/link-out'], allow_write: ['shared/link-out'] }),
    writable: nothingWritable,
  },
  {
    id: 'grant through a link in the workspace',
    category: 'policy',
    path: 'link-dir/secret.txt',
    expect: 'refused',
    fileAccess: () => ({
      allow_read: ['agents/a/workspace/link-dir'],
      allow_write: ['agents/a/workspace/link-dir'],
    }),
    writable: nothingWritable,
  },
  {
    id: 'grant of shared is not shared-evil',
    category: 'policy',
    path: inOrg('shared-evil', 'secret.txt'),
    expect: 'refused',
    fileAccess: () => ({ allow_read: ['shared'], allow_write: ['shared'] }),
    writable: (world) => [world.shared],
  },
  {
    id: 'grant of the org is not org-evil',
    category: 'policy',
    path: at('org-evil', 'secret.txt'),
    expect: 'refused',
    fileAccess: (world) => ({ allow_read: [world.org], allow_write: [world.org] }),
    writable: (world) => [world.org],
  },
  {
    id: 'narrowed to a subfolder',
    category: 'policy',
    path: 'notes.md',
    expect: 'refused',
    fileAccess: () => ({ allow_read: ['agents/a/workspace/sub'], allow_write: ['agents/a/workspace/sub'] }),
    writable: (world) => [join(world.workspace, 'sub')],
  },
  {
    id: 'write narrowed, read default',
    category: 'policy',
    path: 'shared/readme.md',
    expect: 'contained',
    fileAccess: () => ({ allow_write: ['shared/reports'] }),
    writable: (world) => [join(world.shared, 'reports')],
  },
  {
    id: 'read narrowed, write empty',
    category: 'policy',
    path: 'shared/readme.md',
    expect: 'contained',
    fileAccess: () => ({ allow_read: ['shared'], allow_write: [] }),
    writable: nothingWritable,
  },
];

/**
 * Runs `operation` on one case in a fresh world and asserts the invariant: no result carries the
 * canary, nothing outside the case's writable folders changed or appeared, and a `refused` case failed.
 */
export async function runAdversarialCase(
  factory: WorldFactory,
  testCase: AdversarialCase,
  operation: AdversarialOperation,
): Promise<void> {
  const world = await factory.create();
  try {
    await seedOrg(world);
    await testCase.setup?.(world);
    const writable = testCase.writable?.(world) ?? [world.workspace, world.shared];
    const before = await protectedTree(world, writable);
    let pending = testCase.duringOperation;
    const sandbox = new AgentSandbox({
      orgPath: world.org,
      agentDir: world.agentDir,
      fs: world.fs,
      fileAccess: testCase.fileAccess?.(world),
      checkAccess: async () => {
        const attack = pending;
        pending = undefined;
        await attack?.(world);
        return { allowed: true };
      },
    });
    const path = typeof testCase.path === 'string' ? testCase.path : testCase.path(world);
    const result = await operation.run(path, sandbox);
    const shown = JSON.stringify(result);
    const label = `${operation.name} of ${JSON.stringify(path).slice(0, 120)} (${testCase.id})`;
    expect(shown, `${label} leaked outside content`).not.toContain(CANARY);
    if (testCase.expect === 'refused')
      expect(operation.failed(result), `${label} was not refused: ${shown}`).toBe(true);
    expect(await protectedTree(world, writable), `${label} changed something outside`).toEqual(before);
  } finally {
    await world.dispose();
  }
}

/** Declares one test per world and case, each running every operation (each in its own world, at once). */
export function describeAdversarialPaths(
  title: string,
  operations: readonly AdversarialOperation[],
  options: { worlds?: readonly WorldFactory[]; cases?: readonly AdversarialCase[] } = {},
): void {
  describe(title, () => {
    for (const factory of options.worlds ?? WORLDS)
      describe(`${factory.name} file system`, () => {
        for (const testCase of options.cases ?? ADVERSARIAL_CASES)
          it(`${testCase.category}: ${testCase.id} (${testCase.expect})`, async () => {
            await Promise.all(
              operations.map((operation) => runAdversarialCase(factory, testCase, operation)),
            );
          });
      });
  });
}
