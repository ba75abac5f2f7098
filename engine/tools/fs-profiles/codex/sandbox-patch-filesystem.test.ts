import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WORLDS } from '../../../sandbox/test-support/sandbox-world';
import { openToolWorld, type ToolWorld } from '../test-support/tool-world';
import { sandboxPatchFilesystem, type SandboxPatchFilesystem } from './sandbox-patch-filesystem';

describe.each(WORLDS)('the PatchFilesystem over an AgentFilesystem ($name)', (factory) => {
  let tools: ToolWorld;
  let fs: SandboxPatchFilesystem;
  const at = (name: string) => tools.inWorkspace(name);
  beforeEach(async () => {
    tools = await openToolWorld(factory);
    await tools.put('a.txt', 'alpha\n');
    fs = sandboxPatchFilesystem(tools.world.fs, { maxReadBytes: 1024, maxWriteBytes: 1024 });
  });
  afterEach(() => tools.dispose());

  it('keeps temp files in memory and writes the target only when the temp is renamed over it', async () => {
    await fs.writeNewFile(at('.a.tmp'), 'beta\n', at('a.txt'));
    expect(await fs.exists(at('.a.tmp'))).toBe(true);
    expect(await fs.readText(at('.a.tmp'))).toEqual({ kind: 'text', text: 'beta\n' });
    expect(await tools.text('.a.tmp')).toBeNull();
    await fs.rename(at('.a.tmp'), at('a.txt'));
    expect(await tools.text('a.txt')).toBe('beta\n');
    expect(await fs.exists(at('.a.tmp'))).toBe(false);
  });

  it('deletes a file only when its backup is discarded, and undoes a delete by forgetting it', async () => {
    await fs.rename(at('a.txt'), at('.a.bak'));
    expect(await tools.text('a.txt')).toBe('alpha\n');
    await fs.rename(at('.a.bak'), at('a.txt'));
    await fs.removeFile(at('.a.bak')).catch(() => undefined);
    expect(await tools.text('a.txt')).toBe('alpha\n');

    await fs.rename(at('a.txt'), at('.a.bak2'));
    await fs.removeFile(at('.a.bak2'));
    expect(await tools.text('a.txt')).toBeNull();
    expect(fs.failedDeletes).toEqual([]);
  });

  it('records a delete that fails at the end', async () => {
    await fs.rename(at('a.txt'), at('.a.bak'));
    await tools.world.fs.deleteFile(at('a.txt'));
    await tools.world.mkdir(at('a.txt'));
    await expect(fs.removeFile(at('.a.bak'))).rejects.toMatchObject({ code: 'EISDIR' });
    expect(fs.failedDeletes).toEqual([at('a.txt')]);
  });

  it('restores a text backup, and refuses to restore one that is not UTF-8', async () => {
    await fs.copyFile(at('a.txt'), at('.a.bak'));
    await tools.world.fs.writeTextFile(at('a.txt'), 'changed');
    await fs.rename(at('.a.bak'), at('a.txt'));
    expect(await tools.text('a.txt')).toBe('alpha\n');

    await tools.put('b.bin', new Uint8Array([0xff, 0]));
    await fs.copyFile(at('b.bin'), at('.b.bak'));
    await expect(fs.rename(at('.b.bak'), at('b.bin'))).rejects.toMatchObject({ code: 'EILSEQ' });
  });

  it('reads missing, binary, oversized and folder paths as apply_patch expects', async () => {
    await tools.put('b.bin', new Uint8Array([0xff, 0xfe]));
    await tools.put('big.txt', 'x'.repeat(2000));
    await tools.world.mkdir(at('dir'));
    expect(await fs.readText(at('missing.txt'))).toEqual({ kind: 'missing' });
    expect(await fs.readText(at('b.bin'))).toEqual({ kind: 'binary' });
    expect(await fs.readText(at('big.txt'))).toEqual({
      kind: 'unreadable',
      reason: 'the file is larger than 1024 bytes',
    });
    expect(await fs.readText(at('dir'))).toEqual({
      kind: 'unreadable',
      reason: 'Is a directory (os error 21)',
    });
  });

  it('refuses content over the write limit when it is staged', async () => {
    await expect(fs.writeNewFile(at('.x.tmp'), 'x'.repeat(2000), at('x.txt'))).rejects.toMatchObject({
      code: 'EFBIG',
    });
  });
});
