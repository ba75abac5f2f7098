import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WORLDS } from '../../../sandbox/test-support/sandbox-world';
import { openToolWorld, type ToolWorld } from '../test-support/tool-world';
import { codexListDirTool as listDir } from './list-dir';

describe.each(WORLDS)('codex list_dir ($name file system)', (factory) => {
  let tools: ToolWorld;
  beforeEach(async () => {
    tools = await openToolWorld(factory);
    await tools.put('README.md', '# readme');
    await tools.put('big.txt', 'big');
    await tools.put('crlf.txt', 'a\r\n');
    await tools.put('src/a.ts', 'a');
    await tools.put('src/lib/deep.ts', 'deep');
    await tools.put('src/lib/deeper/deepest.ts', 'deepest');
  });
  afterEach(() => tools.dispose());

  const list = (args: Record<string, unknown>) => tools.call(listDir, args);

  it('lists two levels as an indented tree in byte order (uppercase first), folders marked /', async () => {
    expect(await list({ dir_path: '.' })).toEqual({
      success: true,
      output: ['Absolute path: .', 'README.md', 'big.txt', 'crlf.txt', 'src/', '  a.ts', '  lib/'].join('\n'),
      error: null,
    });
  });

  it('goes as deep as depth says', async () => {
    expect((await list({ dir_path: 'src', depth: 1 })).output).toBe('Absolute path: src\na.ts\nlib/');
    expect((await list({ dir_path: 'src', depth: 3 })).output).toBe(
      ['Absolute path: src', 'a.ts', 'lib/', '  deep.ts', '  deeper/', '    deepest.ts'].join('\n'),
    );
  });

  it('shows a window of entries and says when more remain', async () => {
    expect((await list({ dir_path: '.', offset: 2, limit: 3 })).output).toBe(
      ['Absolute path: .', 'big.txt', 'crlf.txt', 'src/', 'More than 3 entries found'].join('\n'),
    );
    expect((await list({ dir_path: '.', offset: 6 })).output).toBe('Absolute path: .\n  lib/');
  });

  it('marks links with @ and never follows them; entries sort by their whole path, so a tree stays together', async () => {
    await tools.world.mkdir(join(tools.world.outside, 'dir'));
    await tools.world.writeFile(join(tools.world.outside, 'dir', 'secret.txt'), 'outside');
    await tools.world.symlink(join(tools.world.outside, 'dir'), tools.inWorkspace('src', 'link'));
    expect((await list({ dir_path: 'src', depth: 5 })).output).toBe(
      ['Absolute path: src', 'a.ts', 'lib/', '  deep.ts', '  deeper/', '    deepest.ts', 'link@'].join('\n'),
    );
  });

  it('returns only the header for an empty folder (as codex-rs does)', async () => {
    await tools.world.mkdir(tools.inWorkspace('empty'));
    expect(await list({ dir_path: 'empty' })).toEqual({
      success: true,
      output: 'Absolute path: empty',
      error: null,
    });
  });

  it('cuts names to 500 code points', async () => {
    const name = 'é'.repeat(120);
    await tools.put(`long/${name}`, 'x');
    expect((await list({ dir_path: 'long' })).output).toBe(`Absolute path: long\n${name}`);
  });

  it.each([
    [{ offset: 0 }, 'offset must be a 1-indexed entry number'],
    [{ limit: 0 }, 'limit must be greater than zero'],
    [{ depth: 0 }, 'depth must be greater than zero'],
    [{ offset: 99 }, 'offset exceeds directory entry count'],
  ])('refuses %j with codex-rs text', async (extra, error) => {
    expect(await list({ dir_path: '.', ...extra })).toEqual({ success: false, output: null, error });
  });

  it('names a missing path, a file and a path outside the sandbox', async () => {
    expect((await list({ dir_path: 'nope' })).error).toBe(
      'failed to read directory: No such file or directory (os error 2)',
    );
    expect((await list({ dir_path: 'big.txt' })).error).toBe(
      'failed to read directory: Not a directory (os error 20)',
    );
    expect((await list({ dir_path: '..' })).error).toMatch(
      /^failed to read directory: '\.\.' is outside the folders you may read/,
    );
  });

  it('advertises the codex-rs parameters', () => {
    const parameters = listDir.definition.parameters as { properties: object; required: string[] };
    expect(Object.keys(parameters.properties)).toEqual(['dir_path', 'offset', 'limit', 'depth']);
    expect(parameters.required).toEqual(['dir_path']);
  });
});
