import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WORLDS } from '../../../sandbox/test-support/sandbox-world';
import { openToolWorld, type ToolWorld } from '../test-support/tool-world';
import { displayUnder, walkFiles } from './walk-files';

describe.each(WORLDS)('walkFiles ($name file system)', (factory) => {
  let tools: ToolWorld;
  beforeEach(async () => {
    tools = await openToolWorld(factory);
    for (const file of [
      'b.txt',
      'a.txt',
      'sub/c.txt',
      'sub/deeper/d.txt',
      '.hidden/e.txt',
      '.f',
      'skip/g.txt',
    ])
      await tools.put(file, file);
    await tools.world.writeFile(join(tools.world.outside, 'secret.txt'), 'outside');
    await tools.world.symlink(join(tools.world.outside, 'secret.txt'), tools.inWorkspace('link-file'));
    await tools.world.symlink(tools.world.outside, tools.inWorkspace('sub', 'link-dir'));
  });
  afterEach(() => tools.dispose());
  const walk = (options: Parameters<typeof walkFiles>[2] = {}) =>
    walkFiles(tools.world.fs, tools.world.workspace, options);
  const relatives = async (options: Parameters<typeof walkFiles>[2] = {}) =>
    (await walk(options)).files.map((file) => file.relative);

  it('lists every file breadth first, each folder in name order, and never a link', async () => {
    expect(await relatives()).toEqual([
      '.f',
      'a.txt',
      'b.txt',
      '.hidden/e.txt',
      'skip/g.txt',
      'sub/c.txt',
      'sub/deeper/d.txt',
    ]);
  });

  it('skips hidden entries and named folders when asked', async () => {
    expect(await relatives({ skipHidden: true, skipFolders: new Set(['skip']) })).toEqual([
      'a.txt',
      'b.txt',
      'sub/c.txt',
      'sub/deeper/d.txt',
    ]);
  });

  it('stops at maxFiles and says there was more', async () => {
    expect(await walk({ maxFiles: 3 })).toMatchObject({ truncated: true, files: { length: 3 } });
    expect(await walk({ maxFiles: 7 })).toMatchObject({ truncated: false, files: { length: 7 } });
  });

  it('reports sizes and absolute paths', async () => {
    const [first] = (await walk()).files;
    expect(first).toMatchObject({ path: tools.inWorkspace('.f'), relative: '.f', size: 2 });
  });
});

describe('displayUnder', () => {
  it('joins a relative path under the folder as the agent writes it', () => {
    expect(displayUnder('.', 'a/b.txt')).toBe('a/b.txt');
    expect(displayUnder('shared', 'a.txt')).toBe('shared/a.txt');
    expect(displayUnder('src/', 'a.txt')).toBe('src/a.txt');
    expect(displayUnder('src', '')).toBe('src');
  });
});
