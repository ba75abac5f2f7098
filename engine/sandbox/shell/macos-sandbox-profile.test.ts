import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { detectConfinement } from './detect-confinement';
import { macosSandboxProfile, sandboxExecArgs } from './macos-sandbox-profile';
import { runShellCommand } from './run-shell-command';

/** A granted folder at its own path; macOS checks every access by path, so its identity is not used. */
const at = (source: string, writable: boolean) => ({
  source,
  target: source,
  writable,
  device: '1',
  inode: '2',
});

const mounts = [at('/Users/me/org/shared', false), at('/Users/me/org/agents/a/workspace', true)];

describe('the macOS sandbox profile', () => {
  it('denies by default and allows no network', () => {
    const profile = macosSandboxProfile(mounts);
    expect(profile.split('\n').slice(0, 2)).toEqual(['(version 1)', '(deny default)']);
    expect(profile).not.toContain('network');
  });

  it('names granted folders only through parameters, so a path cannot change the profile', () => {
    const hostile = [{ ...at('/x") (allow default) ("', true), target: '/x' }];
    const args = sandboxExecArgs({
      confinement: { kind: 'sandbox-exec', sandboxExecPath: '/usr/bin/sandbox-exec' },
      mounts: hostile,
      command: 'ls',
    });
    expect(args.slice(0, 2)).toEqual(['-D', 'ROOT_0=/x") (allow default) ("']);
    expect(args[3]).not.toContain('allow default');
    expect(args.slice(-3)).toEqual(['/bin/sh', '-c', 'ls']);
  });

  it('lets every granted folder be read and only writable ones be written', () => {
    const profile = macosSandboxProfile(mounts);
    expect(profile).toContain('(allow file-read* (subpath (param "ROOT_0")) (subpath (param "ROOT_1")))');
    expect(profile).toContain('(allow file-write* (subpath (param "ROOT_1")))');
    expect(profile).not.toContain('(deny file-write*');
  });

  it('keeps a protected place read-only inside a writable folder, and a workspace inside it writable', () => {
    const profile = macosSandboxProfile([
      at('/Users/me/org', true),
      at('/Users/me/org/agents', false),
      at('/Users/me/org/agents/a/workspace', true),
    ]);
    expect(profile.split('\n').slice(-3)).toEqual([
      '(allow file-write* (subpath (param "ROOT_0")))',
      '(deny file-write* (subpath (param "ROOT_1")))',
      '(allow file-write* (subpath (param "ROOT_2")))',
    ]);
  });
});

const confinement = process.platform === 'darwin' ? await detectConfinement() : null;
describe.runIf(confinement?.kind === 'sandbox-exec')('under sandbox-exec (runs on macOS only)', () => {
  it('reads and writes the workspace and cannot read a file beside it', async () => {
    const root = await realpath(await mkdtemp(join(tmpdir(), 'lemming-seatbelt-')));
    try {
      const workspace = join(root, 'workspace');
      const outside = join(root, 'outside.txt');
      await writeFile(outside, 'secret');
      await mkdir(workspace);
      const result = await runShellCommand({
        command: `echo made > made.txt; cat ${outside}; curl -sS -m 3 https://example.com >/dev/null`,
        confinement: confinement!,
        places: {
          workingDirectory: workspace,
          mounts: [at(workspace, true)],
        },
        timeoutMs: 20_000,
        maxOutputBytes: 4096,
        stopAfterBytes: 65_536,
      });
      if (!result.ok) throw new Error(result.error);
      expect(await readFile(join(workspace, 'made.txt'), 'utf8')).toBe('made\n');
      expect(result.value.stdout.text).not.toContain('secret');
      expect(result.value.stderr.text).toContain('Operation not permitted');
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});
