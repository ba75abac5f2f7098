import { describe, expect, it } from 'vitest';
import { canonicalize, lexicalTarget, realPathOf } from './canonicalize';
import { MemoryAgentFilesystem } from './memory-agent-filesystem';
import { agentLayout } from './sandbox-layout';

const layout = agentLayout('/org', '/org/agents/a');

describe('lexicalTarget', () => {
  it.each([
    ['notes.md', '/org/agents/a/workspace/notes.md', 'workspace'],
    ['./notes.md', '/org/agents/a/workspace/notes.md', 'workspace'],
    ['shared/plan.md', '/org/shared/plan.md', 'shared'],
    ['shared', '/org/shared', 'shared'],
    ['shared/', '/org/shared', 'shared'],
    ['./shared/plan.md', '/org/shared/plan.md', 'shared'],
    ['sharedX/plan.md', '/org/agents/a/workspace/sharedX/plan.md', 'workspace'],
    ['sub/shared/plan.md', '/org/agents/a/workspace/sub/shared/plan.md', 'workspace'],
    ['shared/../x', '/org/x', 'shared'],
    ['../resume.json', '/org/agents/a/resume.json', 'workspace'],
    ['link/../x', '/org/agents/a/workspace/x', 'workspace'],
    ['/org/shared/../agents', '/org/agents', 'absolute'],
  ])('reads %j as %s (%s)', (raw, path, base) => {
    expect(lexicalTarget(raw, layout, 'posix')).toEqual({ path, base });
  });
});

describe('canonicalize', () => {
  const world = () =>
    new MemoryAgentFilesystem({
      '/org/agents/a/workspace/notes.md': 'n',
      '/org/agents/a/workspace/sub/inner.md': 'i',
      '/org/shared/readme.md': 'r',
      '/elsewhere/secret.txt': 's',
    });

  it('gives the real path of an existing file, the lexical path and the base', async () => {
    expect(await canonicalize('notes.md', layout, world(), 'posix')).toEqual({
      ok: true,
      value: {
        path: '/org/agents/a/workspace/notes.md',
        lexicalPath: '/org/agents/a/workspace/notes.md',
        base: 'workspace',
      },
    });
  });

  it('appends missing names to the real path of the longest existing part', async () => {
    const fs = world();
    fs.symlink('/org/agents/a/workspace/sub', '/org/agents/a/workspace/alias');
    expect(await canonicalize('alias/new/deeper.md', layout, fs, 'posix')).toMatchObject({
      ok: true,
      value: {
        path: '/org/agents/a/workspace/sub/new/deeper.md',
        lexicalPath: '/org/agents/a/workspace/alias/new/deeper.md',
      },
    });
  });

  it('follows a link to wherever it leads; the policy judges the result', async () => {
    const fs = world();
    fs.symlink('/elsewhere', '/org/agents/a/workspace/out');
    expect(await canonicalize('out/secret.txt', layout, fs, 'posix')).toMatchObject({
      ok: true,
      value: { path: '/elsewhere/secret.txt' },
    });
  });

  it('refuses a dangling link, naming it', async () => {
    const fs = world();
    fs.symlink('/elsewhere/new-dir', '/org/agents/a/workspace/dangling');
    const expected = {
      ok: false,
      error: {
        code: 'dangling_symlink',
        reason: 'goes through the symbolic link "dangling", whose target does not exist',
      },
    };
    expect(await canonicalize('dangling', layout, fs, 'posix')).toEqual(expected);
    expect(await canonicalize('dangling/x.txt', layout, fs, 'posix')).toEqual(expected);
  });

  it('refuses links that point at each other', async () => {
    const fs = world();
    fs.symlink('b', '/org/agents/a/workspace/a');
    fs.symlink('a', '/org/agents/a/workspace/b');
    expect(await canonicalize('a/x.txt', layout, fs, 'posix')).toMatchObject({
      ok: false,
      error: { code: 'symlink_loop' },
    });
  });

  it('refuses a screened path before touching the file system', async () => {
    const untouchable = {
      realpath: () => Promise.reject(new Error('must not be called')),
      stat: () => Promise.reject(new Error('must not be called')),
    };
    expect(await canonicalize('a\0b', layout, untouchable, 'posix')).toEqual({
      ok: false,
      error: { code: 'invalid_path', reason: 'contains a NUL byte' },
    });
  });

  it('refuses a path that is too long once put under the workspace', async () => {
    const deep = agentLayout('/org', `/org/agents/${'d/'.repeat(1000)}a`);
    const raw = `${'n/'.repeat(1100)}x`;
    expect(await canonicalize(raw, deep, world(), 'posix')).toMatchObject({
      ok: false,
      error: { code: 'invalid_path', reason: 'is longer than 4096 bytes once resolved' },
    });
  });

  it('finds the real org when the org folder itself is reached through a link', async () => {
    const fs = world();
    fs.symlink('/org', '/org-alias');
    expect(await realPathOf('/org-alias/shared/new.md', fs)).toEqual({
      ok: true,
      value: '/org/shared/new.md',
    });
  });

  it('resolves a path under a file name to that file plus the rest, for the operation to fail on', async () => {
    expect(await realPathOf('/org/agents/a/workspace/notes.md/x', world())).toEqual({
      ok: true,
      value: '/org/agents/a/workspace/notes.md/x',
    });
  });
});
