import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AccessRequest } from './access-policy';
import { AgentSandbox, type AgentSandboxOptions } from './agent-sandbox';
import { seedOrg, WORLDS, type SandboxWorld } from './test-support/sandbox-world';

describe.each(WORLDS)('AgentSandbox on the $name', (factory) => {
  let world: SandboxWorld;
  let sandbox: AgentSandbox;
  const make = (options: Partial<AgentSandboxOptions> = {}) =>
    new AgentSandbox({ orgPath: world.org, agentDir: world.agentDir, fs: world.fs, ...options });

  beforeEach(async () => {
    world = await factory.create();
    await seedOrg(world);
    sandbox = make();
  });

  afterEach(async () => {
    await world.dispose();
  });

  describe('read', () => {
    it('reads a workspace file and a shared file, with the real path and the path as the agent writes it', async () => {
      expect(await sandbox.read('notes.md')).toEqual({
        ok: true,
        value: {
          path: join(world.workspace, 'notes.md'),
          display: 'notes.md',
          content: 'workspace notes',
          bytes: 15,
        },
      });
      expect(await sandbox.read('shared/readme.md')).toMatchObject({
        value: { display: 'shared/readme.md', content: 'shared readme' },
      });
      expect(await sandbox.read('link-ok/inner.md')).toMatchObject({
        value: { path: join(world.workspace, 'sub', 'inner.md') },
      });
    });

    it('says what is wrong with a missing file, a folder, a big file and a file that is not text', async () => {
      await world.writeFile(join(world.workspace, 'big.txt'), 'x'.repeat(11));
      await world.writeFile(join(world.workspace, 'latin1.txt'), new Uint8Array([0xe9]));
      const small = make({ maxReadBytes: 10 });
      expect(await small.read('missing.md')).toEqual({
        ok: false,
        error: { code: 'not_found', message: "'missing.md' does not exist", requestedPath: 'missing.md' },
      });
      expect(await small.read('sub')).toMatchObject({
        error: { code: 'not_a_file', message: "'sub' is a folder, not a file" },
      });
      expect(await small.read('big.txt')).toMatchObject({
        error: { code: 'too_large', message: "'big.txt' is 11 bytes; the limit for reading is 10 bytes" },
      });
      expect(await small.read('latin1.txt')).toMatchObject({
        error: { code: 'not_text', message: "'latin1.txt' is not UTF-8 text" },
      });
    });
  });

  describe('refusals name the path as given and say why', () => {
    it.each([
      [
        '../resume.json',
        'outside',
        "'../resume.json' is outside the folders you may read (your workspace, shared/)",
      ],
      [
        'link-dir/secret.txt',
        'symlink_escape',
        "'link-dir/secret.txt' leads through a symbolic link to a place outside the folders you may read (your workspace, shared/)",
      ],
      [
        'dangling',
        'dangling_symlink',
        `'dangling' goes through the symbolic link "dangling", whose target does not exist`,
      ],
      ['loop1', 'symlink_loop', "'loop1' goes through symbolic links that point at each other"],
      ['a\nb', 'invalid_path', '"a\\nb" contains the control character U+000A'],
      [
        'C:\\x',
        'invalid_path',
        "'C:\\x' is a Windows drive path, which does not exist here; use a path relative to your workspace",
      ],
    ])('%j → %s', async (path, code, message) => {
      expect(await sandbox.read(path)).toEqual({ ok: false, error: { code, message, requestedPath: path } });
    });

    it('tells writing from reading', async () => {
      const readOnly = make({ fileAccess: { allow_write: [] } });
      expect(await readOnly.write('notes.md', 'x')).toMatchObject({
        error: {
          code: 'outside',
          message:
            "'notes.md' is outside the folders you may write to (your resume allows no folders for writing)",
        },
      });
      expect(await readOnly.read('notes.md')).toMatchObject({ ok: true });
    });
  });

  describe('write', () => {
    it('creates a file with its folders, then replaces it, saying which it did', async () => {
      expect(await sandbox.write('drafts/2025/plan.md', 'v1')).toEqual({
        ok: true,
        value: {
          path: join(world.workspace, 'drafts', '2025', 'plan.md'),
          display: 'drafts/2025/plan.md',
          bytes: 2,
          created: true,
        },
      });
      expect(await sandbox.write('drafts/2025/plan.md', 'version 2')).toMatchObject({
        value: { created: false, bytes: 9 },
      });
      expect(await world.fs.readTextFile(join(world.workspace, 'drafts', '2025', 'plan.md'))).toBe(
        'version 2',
      );
    });

    it('creates the workspace of a new agent on its first write', async () => {
      await world.mkdir(join(world.org, 'agents', 'fresh'));
      const fresh = new AgentSandbox({
        orgPath: world.org,
        agentDir: join(world.org, 'agents', 'fresh'),
        fs: world.fs,
      });
      expect(await fresh.write('hello.md', 'hi')).toMatchObject({ ok: true, value: { display: 'hello.md' } });
      expect(await world.fs.readTextFile(join(world.org, 'agents', 'fresh', 'workspace', 'hello.md'))).toBe(
        'hi',
      );
    });

    it('refuses content over the limit, counted in UTF-8 bytes, before touching anything', async () => {
      const small = make({ maxWriteBytes: 4 });
      expect(await small.write('new.md', 'éé')).toMatchObject({ ok: true });
      expect(await small.write('new2.md', 'ééé')).toMatchObject({
        error: { code: 'too_large', message: "'new2.md' would be 6 bytes; the limit for writing is 4 bytes" },
      });
      expect(await world.fs.stat(join(world.workspace, 'new2.md'))).toBeNull();
    });

    it('refuses to write over a folder or below a file', async () => {
      expect(await sandbox.write('sub', 'x')).toMatchObject({ error: { code: 'not_a_file' } });
      expect(await sandbox.write('notes.md/x.md', 'x')).toMatchObject({ error: { code: 'not_found' } });
    });
  });

  describe('list, delete, mkdir, stat and resolve', () => {
    it('lists a folder in name order with kinds, links reported and not followed', async () => {
      const listed = await sandbox.list('shared');
      expect(listed).toMatchObject({ ok: true, value: { display: 'shared' } });
      expect(
        listed.ok && listed.value.entries.map(({ name, kind, display }) => [name, kind, display]),
      ).toEqual([
        ['link-b', 'symlink', 'shared/link-b'],
        ['link-out', 'symlink', 'shared/link-out'],
        ['readme.md', 'file', 'shared/readme.md'],
      ]);
      expect(await sandbox.list('notes.md')).toMatchObject({ error: { code: 'not_a_directory' } });
      expect(await sandbox.list('nothing-here')).toMatchObject({ error: { code: 'not_found' } });
    });

    it('deletes a file, not a folder', async () => {
      expect(await sandbox.delete('notes.md')).toMatchObject({ ok: true, value: { display: 'notes.md' } });
      expect(await world.fs.stat(join(world.workspace, 'notes.md'))).toBeNull();
      expect(await sandbox.delete('sub')).toMatchObject({ error: { code: 'not_a_file' } });
      expect(await sandbox.delete('notes.md')).toMatchObject({ error: { code: 'not_found' } });
    });

    it('makes a folder once, and refuses where a file is', async () => {
      expect(await sandbox.mkdir('shared/reports/q3')).toMatchObject({ ok: true, value: { created: true } });
      expect(await sandbox.mkdir('shared/reports/q3')).toMatchObject({ ok: true, value: { created: false } });
      expect(await sandbox.mkdir('notes.md')).toMatchObject({ error: { code: 'not_a_directory' } });
    });

    it('stats what is there and gives null for what is not', async () => {
      expect(await sandbox.stat('notes.md')).toMatchObject({
        ok: true,
        value: { info: { kind: 'file', size: 15 } },
      });
      expect(await sandbox.stat('new.md')).toMatchObject({ ok: true, value: { info: null } });
    });

    it('resolves a path for a tool that does its own I/O, checked for the action it names', async () => {
      expect(await sandbox.resolve('shared/../shared/x.md', 'move')).toEqual({
        ok: true,
        value: { path: join(world.shared, 'x.md'), display: 'shared/x.md' },
      });
      const readOnly = make({ fileAccess: { allow_write: [] } });
      expect(await readOnly.resolve('x.md', 'search')).toMatchObject({ ok: true });
      expect(await readOnly.resolve('x.md', 'delete')).toMatchObject({
        ok: false,
        error: { code: 'outside' },
      });
    });
  });

  describe('the access hook', () => {
    it('is asked with the tool and the path as given, and can refuse', async () => {
      const asked: AccessRequest[] = [];
      const guarded = make({
        checkAccess: (request) => {
          asked.push(request);
          return request.action === 'write' ? { allowed: false, reason: 'read-only day' } : { allowed: true };
        },
      });
      expect(await guarded.read('notes.md', { tool: 'file_read' })).toMatchObject({ ok: true });
      expect(await guarded.write('notes.md', 'x', { tool: 'file_write' })).toMatchObject({
        error: { code: 'denied', message: "'notes.md' was refused by the access check: read-only day" },
      });
      expect(
        asked.map(({ action, tool, requestedPath, path }) => [action, tool, requestedPath, path]),
      ).toEqual([
        ['read', 'file_read', 'notes.md', join(world.workspace, 'notes.md')],
        ['write', 'file_write', 'notes.md', join(world.workspace, 'notes.md')],
      ]);
      expect(await world.fs.readTextFile(join(world.workspace, 'notes.md'))).toBe('workspace notes');
    });
  });
});
