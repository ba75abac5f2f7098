import { execFileSync } from 'node:child_process';
import { chmod, link, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { decodeUtf8 } from './agent-filesystem';
import { MemoryAgentFilesystem } from './memory-agent-filesystem';
import { diskWorld, memoryWorld, portableDiskWorld, type SandboxWorld } from './test-support/sandbox-world';

describe.each([diskWorld, portableDiskWorld, memoryWorld])('AgentFilesystem on the $name', (factory) => {
  let world: SandboxWorld;
  let root: string;
  const at = (...names: string[]) => join(root, ...names);

  beforeEach(async () => {
    world = await factory.create();
    root = world.root;
  });

  afterEach(async () => {
    await world.dispose();
  });

  describe('reading and writing text', () => {
    it('writes a file and reads the same text back', async () => {
      await world.fs.writeTextFile(at('notes.md'), 'héllo 👋\nline two');
      expect(await world.fs.readTextFile(at('notes.md'))).toBe('héllo 👋\nline two');
    });

    it('replaces an existing file whole and leaves no temp file behind', async () => {
      await world.fs.writeTextFile(at('notes.md'), 'a much longer first version');
      await world.fs.writeTextFile(at('notes.md'), 'short');
      expect(await world.fs.readTextFile(at('notes.md'))).toBe('short');
      expect((await world.fs.readDir(root)).map((entry) => entry.name)).toEqual(['notes.md']);
    });

    it('reads bytes as they are', async () => {
      await world.writeFile(at('data.bin'), new Uint8Array([0, 255, 10]));
      expect(await world.fs.readBinaryFile?.(at('data.bin'))).toEqual(new Uint8Array([0, 255, 10]));
    });

    it('refuses a file that is not UTF-8 text', async () => {
      await world.writeFile(at('latin1.txt'), new Uint8Array([0x63, 0x61, 0x66, 0xe9]));
      await expect(world.fs.readTextFile(at('latin1.txt'))).rejects.toMatchObject({ code: 'EILSEQ' });
    });

    it('reads a file of exactly maxBytes and refuses one byte more', async () => {
      await world.writeFile(at('ten.txt'), '0123456789');
      expect(await world.fs.readTextFile(at('ten.txt'), { maxBytes: 10 })).toBe('0123456789');
      await expect(world.fs.readTextFile(at('ten.txt'), { maxBytes: 9 })).rejects.toMatchObject({
        code: 'EFBIG',
      });
    });

    it('fails with ENOENT for a missing file and for a file in a missing folder', async () => {
      await expect(world.fs.readTextFile(at('missing.txt'))).rejects.toMatchObject({ code: 'ENOENT' });
      await expect(world.fs.writeTextFile(at('no', 'such', 'folder.txt'), 'x')).rejects.toMatchObject({
        code: 'ENOENT',
      });
    });

    it('fails with EISDIR on a folder', async () => {
      await world.mkdir(at('folder'));
      await expect(world.fs.readTextFile(at('folder'))).rejects.toMatchObject({ code: 'EISDIR' });
      await expect(world.fs.writeTextFile(at('folder'), 'x')).rejects.toMatchObject({ code: 'EISDIR' });
    });

    it('fails with ENOTDIR when a file stands where a folder should be', async () => {
      await world.writeFile(at('file.txt'), 'x');
      await expect(world.fs.readTextFile(at('file.txt', 'inner.txt'))).rejects.toMatchObject({
        code: 'ENOTDIR',
      });
    });
  });

  describe('links are never followed', () => {
    beforeEach(async () => {
      await world.writeFile(at('target', 'secret.txt'), 'behind the link');
      await world.symlink(at('target', 'secret.txt'), at('file-link'));
      await world.symlink(at('target'), at('folder-link'));
    });

    it('refuses to read a link or through a linked folder', async () => {
      await expect(world.fs.readTextFile(at('file-link'))).rejects.toMatchObject({ code: 'ESYMLINK' });
      await expect(world.fs.readTextFile(at('folder-link', 'secret.txt'))).rejects.toMatchObject({
        code: 'ESYMLINK',
      });
    });

    it('refuses to write over a link or into a linked folder, and the target stays as it was', async () => {
      await expect(world.fs.writeTextFile(at('file-link'), 'changed')).rejects.toMatchObject({
        code: 'ESYMLINK',
      });
      await expect(world.fs.writeTextFile(at('folder-link', 'new.txt'), 'x')).rejects.toMatchObject({
        code: 'ESYMLINK',
      });
      expect(await world.fs.readTextFile(at('target', 'secret.txt'))).toBe('behind the link');
      expect((await world.fs.readDir(at('target'))).map((entry) => entry.name)).toEqual(['secret.txt']);
    });

    it('refuses to delete a link, list a linked folder or make a folder through one', async () => {
      await expect(world.fs.deleteFile(at('file-link'))).rejects.toMatchObject({ code: 'ESYMLINK' });
      await expect(world.fs.readDir(at('folder-link'))).rejects.toMatchObject({ code: 'ESYMLINK' });
      await expect(world.fs.ensureDir(at('folder-link', 'sub'))).rejects.toMatchObject({ code: 'ESYMLINK' });
      await expect(world.fs.ensureDir(at('folder-link'))).rejects.toMatchObject({ code: 'ESYMLINK' });
      expect((await world.fs.stat(at('file-link')))?.kind).toBe('symlink');
    });

    it('reports a link as a link, and refuses to look through a linked folder', async () => {
      expect(await world.fs.stat(at('folder-link'))).toMatchObject({ kind: 'symlink' });
      await expect(world.fs.stat(at('folder-link', 'secret.txt'))).rejects.toMatchObject({
        code: 'ESYMLINK',
      });
    });
  });

  describe('realpath', () => {
    it('follows chains of absolute and relative links', async () => {
      await world.writeFile(at('real', 'file.txt'), 'x');
      await world.symlink('real', at('relative'));
      await world.symlink(at('relative'), at('absolute'));
      expect(await world.fs.realpath(at('absolute', 'file.txt'))).toBe(at('real', 'file.txt'));
    });

    it('resolves .. after a link against where the link leads', async () => {
      await world.mkdir(at('a', 'b'));
      await world.writeFile(at('a', 'x.txt'), 'x');
      await world.symlink(at('a', 'b'), at('link'));
      expect(await world.fs.realpath(`${at('link')}/../x.txt`)).toBe(at('a', 'x.txt'));
    });

    it('fails with ENOENT, ENOTDIR and ELOOP like realpath(3)', async () => {
      await world.writeFile(at('file.txt'), 'x');
      await world.symlink('loop-b', at('loop-a'));
      await world.symlink('loop-a', at('loop-b'));
      await world.symlink(at('nowhere'), at('dangling'));
      await expect(world.fs.realpath(at('missing'))).rejects.toMatchObject({ code: 'ENOENT' });
      await expect(world.fs.realpath(at('dangling'))).rejects.toMatchObject({ code: 'ENOENT' });
      await expect(world.fs.realpath(at('file.txt', 'x'))).rejects.toMatchObject({ code: 'ENOTDIR' });
      await expect(world.fs.realpath(at('loop-a'))).rejects.toMatchObject({ code: 'ELOOP' });
    });
  });

  describe('folders', () => {
    it('creates nested folders, and again without complaint', async () => {
      await world.fs.ensureDir(at('a', 'b', 'c'));
      await world.fs.ensureDir(at('a', 'b', 'c'));
      expect(await world.fs.stat(at('a', 'b', 'c'))).toMatchObject({ kind: 'directory' });
    });

    it('refuses to make a folder where a file is', async () => {
      await world.writeFile(at('file.txt'), 'x');
      await expect(world.fs.ensureDir(at('file.txt'))).rejects.toMatchObject({ code: 'ENOTDIR' });
      await expect(world.fs.ensureDir(at('file.txt', 'sub'))).rejects.toMatchObject({ code: 'ENOTDIR' });
    });

    it('lists entries in code-point order with their kind, size and path', async () => {
      await world.writeFile(at('list', 'b.txt'), 'four');
      await world.writeFile(at('list', 'B.txt'), '');
      await world.writeFile(at('list', 'é.txt'), 'x');
      await world.mkdir(at('list', 'a-folder'));
      await world.symlink('b.txt', at('list', 'link'));
      const entries = await world.fs.readDir(at('list'));
      expect(entries.map(({ name, kind }) => [name, kind])).toEqual([
        ['B.txt', 'file'],
        ['a-folder', 'directory'],
        ['b.txt', 'file'],
        ['link', 'symlink'],
        ['é.txt', 'file'],
      ]);
      expect(entries.find((entry) => entry.name === 'b.txt')).toMatchObject({
        size: 4,
        path: at('list', 'b.txt'),
      });
    });

    it('fails to list a missing folder with ENOENT and a file with ENOTDIR', async () => {
      await world.writeFile(at('file.txt'), 'x');
      await expect(world.fs.readDir(at('missing'))).rejects.toMatchObject({ code: 'ENOENT' });
      await expect(world.fs.readDir(at('file.txt'))).rejects.toMatchObject({ code: 'ENOTDIR' });
    });
  });

  describe('stat and delete', () => {
    it('gives null for a missing entry and for one in a missing folder', async () => {
      expect(await world.fs.stat(at('missing'))).toBeNull();
      expect(await world.fs.stat(at('missing', 'deeper'))).toBeNull();
    });

    it('reports a file with its size, and a newer mtime after a write', async () => {
      await world.fs.writeTextFile(at('f.txt'), 'abc');
      const first = await world.fs.stat(at('f.txt'));
      await world.fs.writeTextFile(at('f.txt'), 'abcdef');
      const second = await world.fs.stat(at('f.txt'));
      expect(first).toMatchObject({ kind: 'file', size: 3 });
      expect(second).toMatchObject({ kind: 'file', size: 6 });
      expect(second?.mtimeMs).toBeGreaterThanOrEqual(first?.mtimeMs ?? Infinity);
    });

    it('deletes a file, refuses a folder with EISDIR and a missing file with ENOENT', async () => {
      await world.writeFile(at('gone.txt'), 'x');
      await world.mkdir(at('folder'));
      await world.fs.deleteFile(at('gone.txt'));
      expect(await world.fs.stat(at('gone.txt'))).toBeNull();
      await expect(world.fs.deleteFile(at('folder'))).rejects.toMatchObject({ code: 'EISDIR' });
      await expect(world.fs.deleteFile(at('gone.txt'))).rejects.toMatchObject({ code: 'ENOENT' });
    });
  });
});

describe.each([diskWorld, portableDiskWorld])('DiskAgentFilesystem specifics on the $name', (factory) => {
  let world: SandboxWorld;

  beforeEach(async () => {
    world = await factory.create();
  });

  afterEach(async () => {
    await world.dispose();
  });

  it.skipIf(process.platform === 'win32')('keeps the permission bits of a file it replaces', async () => {
    const path = join(world.root, 'private.txt');
    await world.writeFile(path, 'old');
    await chmod(path, 0o600);
    await world.fs.writeTextFile(path, 'new');
    expect((await stat(path)).mode & 0o777).toBe(0o600);
  });

  it('replaces a hard-linked file instead of writing through the link', async () => {
    const outside = join(world.root, 'outside.txt');
    await world.writeFile(outside, 'original');
    await link(outside, join(world.root, 'hard.txt'));
    await world.fs.writeTextFile(join(world.root, 'hard.txt'), 'replaced');
    expect(await readFile(outside, 'utf8')).toBe('original');
    expect(await readFile(join(world.root, 'hard.txt'), 'utf8')).toBe('replaced');
  });

  it.skipIf(process.platform === 'win32')(
    'refuses a named pipe at once instead of waiting for a writer',
    async () => {
      const pipe = join(world.root, 'pipe');
      execFileSync('mkfifo', [pipe]);
      await expect(world.fs.readTextFile(pipe)).rejects.toMatchObject({ code: 'ENOTFILE' });
      expect(await world.fs.stat(pipe)).toMatchObject({ kind: 'other' });
    },
  );
});

describe('MemoryAgentFilesystem setup helpers', () => {
  it('creates the folders of its initial files and reports files and entries in order', () => {
    const fs = new MemoryAgentFilesystem({ '/org/b.txt': 'b', '/org/sub/a.txt': 'a' });
    fs.symlink('/org/b.txt', '/org/link');
    expect(fs.snapshot()).toEqual({ '/org/b.txt': 'b', '/org/sub/a.txt': 'a' });
    expect(fs.tree()).toEqual({
      '/': 'directory',
      '/org': 'directory',
      '/org/b.txt': 'file:b',
      '/org/link': 'symlink:/org/b.txt',
      '/org/sub': 'directory',
      '/org/sub/a.txt': 'file:a',
    });
  });

  it('moves an entry without following a link, and removes a folder with its contents', () => {
    const fs = new MemoryAgentFilesystem({ '/w/target/x.txt': 'x' });
    fs.symlink('/w/target', '/w/link');
    fs.rename('/w/link', '/w/moved-link');
    fs.remove('/w/target');
    expect(fs.tree()).toEqual({ '/': 'directory', '/w': 'directory', '/w/moved-link': 'symlink:/w/target' });
  });
});

describe('decodeUtf8', () => {
  it('keeps a byte-order mark, so a read-modify-write leaves it in place', () => {
    expect(decodeUtf8(new Uint8Array([0xef, 0xbb, 0xbf, 0x68, 0x69]), '/x')).toBe('\ufeffhi');
  });
});
