import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MemoryAgentFilesystem } from './memory-agent-filesystem';
import { previewAccessPath } from './preview-access-path';

describe('previewAccessPath on the disk', () => {
  let root: string;
  let org: string;

  beforeEach(async () => {
    root = await realpath(await mkdtemp(join(tmpdir(), 'lemming-preview-')));
    org = join(root, 'org');
    await mkdir(join(org, 'shared', 'reports'), { recursive: true });
    await mkdir(join(org, 'agents', 'writer', 'workspace'), { recursive: true });
    await mkdir(join(root, 'outside'));
    await writeFile(join(org, 'shared', 'reports', 'q1.md'), 'q1');
  });

  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('shows an existing folder relative to the org, and its real path', async () => {
    expect(await previewAccessPath(org, 'shared/reports')).toEqual({
      ok: true,
      value: { canonical: join(org, 'shared', 'reports'), display: 'shared/reports', exists: true },
    });
  });

  it('accepts a folder that does not exist yet, and says so', async () => {
    expect(await previewAccessPath(org, 'agents/writer/workspace/drafts')).toEqual({
      ok: true,
      value: {
        canonical: join(org, 'agents', 'writer', 'workspace', 'drafts'),
        display: 'agents/writer/workspace/drafts',
        exists: false,
      },
    });
  });

  it('normalizes what the user typed: dots, double slashes, an absolute path inside the org', async () => {
    for (const entry of ['./shared//reports/', 'shared/x/../reports', join(org, 'shared', 'reports')])
      expect(await previewAccessPath(org, entry), entry).toMatchObject({
        ok: true,
        value: { display: 'shared/reports' },
      });
    expect(await previewAccessPath(org, '.')).toMatchObject({ ok: true, value: { display: '.' } });
  });

  it('refuses what a person would not mean: a blank path, spaces around it, and ~ for a home folder', async () => {
    for (const [entry, reason] of [
      ['   ', 'The path is blank'],
      [' shared/reports', 'has spaces at its start or end'],
      ['~/Documents', 'starts with "~", but variables are not expanded'],
      ['~', 'pick a folder inside the org'],
      ['C:/Users', 'use a path relative to the org folder'],
    ] as const)
      expect(await previewAccessPath(org, entry), entry).toMatchObject({
        ok: false,
        error: expect.stringContaining(reason),
      });
  });

  it('refuses variables, "~", addresses and patterns, which a path here never expands', async () => {
    for (const [entry, reason] of [
      [
        '$HOME/Documents',
        "'$HOME/Documents' names $HOME, but variables are not expanded; pick a folder inside the org",
      ],
      ['${HOME}', "'${HOME}' names ${HOME}, but variables are not expanded; pick a folder inside the org"],
      [
        '%USERPROFILE%',
        "'%USERPROFILE%' names %USERPROFILE%, but variables are not expanded; pick a folder inside the org",
      ],
      ['~/x', '\'~/x\' starts with "~", but variables are not expanded; pick a folder inside the org'],
      [
        'file:///etc/passwd',
        "'file:///etc/passwd' is an address (a URL), not a folder; pick a folder inside the org",
      ],
      [
        'https://example.com/reports',
        "'https://example.com/reports' is an address (a URL), not a folder; pick a folder inside the org",
      ],
      [
        'shared/*',
        '\'shared/*\' is a pattern ("*"), but patterns are not expanded; name one folder, e.g. shared',
      ],
      [
        'shared/report?',
        '\'shared/report?\' is a pattern ("?"), but patterns are not expanded; name one folder, e.g. shared',
      ],
    ] as const)
      expect(await previewAccessPath(org, entry), entry).toEqual({ ok: false, error: reason });
    // A dollar or percent sign inside a name is only a character.
    for (const entry of ['shared/costs in $', 'shared/100% done'])
      expect(await previewAccessPath(org, entry), entry).toMatchObject({ ok: true });
  });

  it('says that a write grant of an agent’s folder only reaches its workspace', async () => {
    expect(await previewAccessPath(org, 'agents/writer', { kind: 'write' })).toMatchObject({
      ok: true,
      value: {
        readOnly:
          'Agents can never change anything here except in the workspace (agents/writer/workspace): the app keeps resumes, outboxes, memory and logs',
        writesOnlyInWorkspaces: true,
      },
    });
    expect(await previewAccessPath(org, 'agents', { kind: 'write' })).toMatchObject({
      ok: true,
      value: { writesOnlyInWorkspaces: true },
    });
    expect(await previewAccessPath(org, 'agents/writer/workspace', { kind: 'write' })).not.toHaveProperty(
      'value.writesOnlyInWorkspaces',
    );
    expect(await previewAccessPath(org, 'agents/writer', { kind: 'read' })).not.toHaveProperty(
      'value.writesOnlyInWorkspaces',
    );
  });

  it('refuses a protected place as a grant to write, and allows it to read', async () => {
    await mkdir(join(org, 'lemming', 'config'), { recursive: true });
    for (const entry of ['agents/writer/resume.json', 'agents/writer/outbox', 'lemming/config', '.lemming']) {
      expect(await previewAccessPath(org, entry, { kind: 'write' }), entry).toMatchObject({
        ok: false,
        error: expect.stringContaining('it cannot be given for writing'),
      });
      expect(await previewAccessPath(org, entry, { kind: 'read' }), entry).toMatchObject({ ok: true });
    }
    for (const entry of ['.', 'agents', 'agents/writer', 'agents/writer/workspace', 'shared'])
      expect(await previewAccessPath(org, entry, { kind: 'write' }), entry).toMatchObject({ ok: true });
  });

  it('says what stays read-only whatever the grant: the protected places in or around the folder', async () => {
    expect(await previewAccessPath(org, '.')).toMatchObject({
      ok: true,
      value: {
        readOnly:
          "Agents can never change lemming/, .lemming/, tools/ or agents/ in it (except each agent's workspace)",
      },
    });
    expect(await previewAccessPath(org, 'agents/writer/outbox')).toMatchObject({
      ok: true,
      value: {
        readOnly:
          'Agents can read here if allowed, but never change anything here: the app keeps these files',
      },
    });
    expect(await previewAccessPath(org, 'shared/reports')).not.toHaveProperty('value.readOnly');
  });

  it('refuses a link, even to a folder inside the org, and names where it leads (a grant names a real folder)', async () => {
    await symlink(join(org, 'shared', 'reports'), join(org, 'shared', 'latest'));
    expect(await previewAccessPath(org, 'shared/latest')).toEqual({
      ok: false,
      error:
        "'shared/latest' is a symbolic link (to 'shared/reports'); a grant must name a real folder, so grant the folder it leads to instead",
    });
  });

  it('refuses what leads outside the org: parents, absolute paths, links, a sibling sharing the prefix', async () => {
    await symlink(join(root, 'outside'), join(org, 'shared', 'out'));
    await mkdir(join(root, 'org-evil'));
    for (const entry of ['..', '../outside', join(root, 'outside'), join(root, 'org-evil')]) {
      const preview = await previewAccessPath(org, entry);
      expect(preview, entry).toMatchObject({ ok: false });
      expect(preview.ok ? '' : preview.error, entry).toContain('leads outside the organization folder');
    }
    expect(await previewAccessPath(org, 'shared/out/x')).toMatchObject({
      ok: false,
      error: expect.stringContaining("goes through 'shared/out', which is a symbolic link"),
    });
  });

  it('refuses forms the sandbox refuses, with the same reason', async () => {
    expect(await previewAccessPath(org, 'shared\\reports')).toEqual({
      ok: false,
      error: `'shared\\reports' contains a backslash; use "/" to separate folders`,
    });
    expect(await previewAccessPath(org, 'shared/\0')).toEqual({
      ok: false,
      error: '"shared/\\u0000" contains a NUL byte',
    });
    await symlink(join(root, 'missing'), join(org, 'shared', 'dangling'));
    expect(await previewAccessPath(org, 'shared/dangling')).toEqual({
      ok: false,
      error: `'shared/dangling' is a symbolic link; a grant must name a real folder, so grant the folder it leads to instead`,
    });
  });
});

describe('previewAccessPath with an agent and another file system', () => {
  it('admits a folder inside the agent’s workspace even when the workspace is linked to another disk', async () => {
    const fs = new MemoryAgentFilesystem({ '/disk2/ws/drafts/a.md': 'a', '/org/shared/x.md': 'x' });
    await fs.ensureDir('/org/agents/writer');
    fs.symlink('/disk2/ws', '/org/agents/writer/workspace');
    expect(
      await previewAccessPath('/org', 'agents/writer/workspace/drafts', {
        fs,
        agentDir: '/org/agents/writer',
      }),
    ).toEqual({
      ok: true,
      value: { canonical: '/disk2/ws/drafts', display: 'agents/writer/workspace/drafts', exists: true },
    });
    expect(await previewAccessPath('/org', 'agents/writer/workspace/drafts', { fs })).toMatchObject({
      ok: false,
    });
  });
});
