import {
  chmod,
  link,
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  rm,
  stat,
  symlink,
  writeFile,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeFileAtomic, writeFileAtomicUnflushed, writeJsonAtomic } from './atomic-write';

let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lemming-atomic-'));
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('writeFileAtomic', () => {
  it('creates missing parent folders and writes the file', async () => {
    const target = join(dir, 'lemming', 'config', 'tick.json');
    await writeFileAtomic(target, '{"current_tick": 1}');
    expect(await readFile(target, 'utf8')).toBe('{"current_tick": 1}');
  });

  it('replaces an existing file and leaves no temp file behind', async () => {
    const target = join(dir, 'a.json');
    await writeFile(target, 'old');
    await writeFileAtomic(target, new TextEncoder().encode('new'));
    expect(await readFile(target, 'utf8')).toBe('new');
    expect(await readdir(dir)).toEqual(['a.json']);
  });

  it.skipIf(process.platform === 'win32')('keeps the permission bits of the file it replaces', async () => {
    const target = join(dir, 'private.json');
    await writeFile(target, 'old');
    await chmod(target, 0o600);
    await writeFileAtomic(target, 'new');
    expect((await stat(target)).mode & 0o777).toBe(0o600);
  });

  it('throws, keeps the target and removes its temp file when the rename fails', async () => {
    const target = join(dir, 'occupied');
    await mkdir(join(target, 'inside'), { recursive: true });
    await expect(writeFileAtomic(target, 'data')).rejects.toThrow();
    expect((await stat(target)).isDirectory()).toBe(true);
    expect(await readdir(dir)).toEqual(['occupied']);
  });

  it('never lets a reader see a partly written file', async () => {
    const target = join(dir, 'big.txt');
    const versions = ['a', 'b', 'c'].map((letter) => letter.repeat(2 * 1024 * 1024));
    await writeFileAtomic(target, versions[0] as string);

    let writing = true;
    const writer = (async () => {
      for (let round = 0; round < 12; round += 1)
        await writeFileAtomic(target, versions[round % 3] as string);
      writing = false;
    })();
    const seen = new Set<string>();
    while (writing) {
      const content = await readFile(target, 'utf8');
      expect(versions).toContain(content);
      seen.add(content[0] as string);
    }
    await writer;
    expect(seen.size).toBeGreaterThan(0);
  });

  it('leaves one complete version when many writes race for the same file', async () => {
    const target = join(dir, 'credits.json');
    const contents = Array.from({ length: 20 }, (_, index) =>
      JSON.stringify({ writer: index, pad: 'x'.repeat(10_000) }),
    );
    await Promise.all(contents.map((content) => writeFileAtomic(target, content)));
    expect(contents).toContain(await readFile(target, 'utf8'));
    expect(await readdir(dir)).toEqual(['credits.json']);
  });
});

describe('writeFileAtomicUnflushed', () => {
  it('creates missing parent folders, writes the file and leaves no temp file', async () => {
    const target = join(dir, 'agents', 'a', 'memory', 'seen.json');
    writeFileAtomicUnflushed(target, '{"value": 1}');
    expect(await readFile(target, 'utf8')).toBe('{"value": 1}');
    expect(await readdir(join(dir, 'agents', 'a', 'memory'))).toEqual(['seen.json']);
  });

  it('replaces an existing file, again and again, leaving the last version and at most its spare', async () => {
    const target = join(dir, 'seen.json');
    await writeFile(target, 'the first, longer version');
    for (let round = 0; round < 5; round += 1) writeFileAtomicUnflushed(target, `version ${round}`);
    expect(await readFile(target, 'utf8')).toBe('version 4');
    const expected = process.platform === 'linux' ? ['.seen.json.spare', 'seen.json'] : ['seen.json'];
    expect((await readdir(dir)).sort()).toEqual(expected);
  });

  describe.skipIf(process.platform !== 'linux')('the spare file a replacement reuses (Linux)', () => {
    it('is never written through a link: a link planted as the spare keeps its target intact', async () => {
      const target = join(dir, 'seen.json');
      const outside = join(dir, 'outside.txt');
      await writeFile(target, 'old');
      await writeFile(outside, 'precious');
      await symlink(outside, join(dir, '.seen.json.spare'));
      writeFileAtomicUnflushed(target, 'new');
      expect(await readFile(target, 'utf8')).toBe('new');
      expect(await readFile(outside, 'utf8')).toBe('precious');
    });

    it('is never an inode linked elsewhere too: a hard-linked spare is replaced, not written into', async () => {
      const target = join(dir, 'seen.json');
      const other = join(dir, 'other-name.json');
      await writeFile(target, 'old');
      await writeFile(other, 'kept');
      await link(other, join(dir, '.seen.json.spare'));
      writeFileAtomicUnflushed(target, 'new');
      expect(await readFile(target, 'utf8')).toBe('new');
      expect(await readFile(other, 'utf8')).toBe('kept');
    });

    it('recovers from what a crash between the renames leaves behind', async () => {
      const target = join(dir, 'seen.json');
      await writeFile(join(dir, '.seen.json.previous'), 'old');
      await writeFile(join(dir, '.seen.json.spare'), 'half-done');
      writeFileAtomicUnflushed(target, 'replayed');
      writeFileAtomicUnflushed(target, 'next');
      expect(await readFile(target, 'utf8')).toBe('next');
      expect((await readdir(dir)).sort()).toEqual(['.seen.json.spare', 'seen.json']);
    });
  });

  it.skipIf(process.platform === 'win32')('keeps the permission bits of the file it replaces', async () => {
    const target = join(dir, 'private.json');
    await writeFile(target, 'old');
    await chmod(target, 0o600);
    writeFileAtomicUnflushed(target, 'new');
    expect((await stat(target)).mode & 0o777).toBe(0o600);
  });

  it('throws, keeps the target and removes its temp file when the rename fails', async () => {
    const target = join(dir, 'occupied');
    await mkdir(join(target, 'inside'), { recursive: true });
    expect(() => writeFileAtomicUnflushed(target, 'data')).toThrow();
    expect((await stat(target)).isDirectory()).toBe(true);
    expect(await readdir(dir)).toEqual(['occupied']);
  });
});

describe('writeJsonAtomic', () => {
  it('writes a new file with two-space indentation and a final newline', async () => {
    const target = join(dir, 'new.json');
    await writeJsonAtomic(target, { current_tick: 4, list: [1] });
    expect(await readFile(target, 'utf8')).toBe('{\n  "current_tick": 4,\n  "list": [\n    1\n  ]\n}\n');
  });

  it('ends without a newline when the file it replaces did, as LeMMing writes them', async () => {
    const target = join(dir, 'tick.json');
    await writeFile(target, '{\n  "current_tick": 4\n}');
    await writeJsonAtomic(target, { current_tick: 5 });
    expect(await readFile(target, 'utf8')).toBe('{\n  "current_tick": 5\n}');
  });

  it('keeps CRLF line ends and honours another indent', async () => {
    const target = join(dir, 'windows.json');
    await writeFile(target, '{\r\n    "a": 1\r\n}\r\n');
    await writeJsonAtomic(target, { a: 2, b: 3 }, 4);
    expect(await readFile(target, 'utf8')).toBe('{\r\n    "a": 2,\r\n    "b": 3\r\n}\r\n');
  });

  it('refuses a value that is not JSON', async () => {
    await expect(writeJsonAtomic(join(dir, 'x.json'), undefined)).rejects.toThrow(/not JSON/);
    expect(await readdir(dir)).toEqual([]);
  });
});
