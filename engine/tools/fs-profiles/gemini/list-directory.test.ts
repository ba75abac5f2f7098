import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WORLDS } from '../../../sandbox/test-support/sandbox-world';
import { openToolWorld, type ToolWorld } from '../test-support/tool-world';
import { geminiListDirectoryTool as listDirectory } from './list-directory';

describe.each(WORLDS)('gemini list_directory ($name file system)', (factory) => {
  let tools: ToolWorld;
  beforeEach(async () => {
    tools = await openToolWorld(factory);
    await tools.put('zeta.txt', '12345');
    await tools.put('Alpha.md', 'ab');
    await tools.put('beta.log', '');
    await tools.put('src/a.ts', 'a');
    await tools.put('docs/x.md', 'x');
  });
  afterEach(() => tools.dispose());
  const list = (args: Record<string, unknown>) => tools.call(listDirectory, args);

  it('lists folders first, then files with sizes, each alphabetically', async () => {
    expect(await list({ dir_path: '.' })).toEqual({
      success: true,
      output:
        'Directory listing for .:\n[DIR] docs\n[DIR] src\nAlpha.md (2 bytes)\nbeta.log (0 bytes)\nzeta.txt (5 bytes)',
      error: null,
    });
  });

  it('leaves out names matching ignore globs and counts them', async () => {
    expect((await list({ dir_path: '.', ignore: ['*.log', 'src'] })).output).toBe(
      'Directory listing for .:\n[DIR] docs\nAlpha.md (2 bytes)\nzeta.txt (5 bytes)\n\n(2 ignored)',
    );
  });

  it('accepts the file filtering options', async () => {
    const result = await list({ dir_path: 'src', file_filtering_options: { respect_git_ignore: false } });
    expect(result.output).toBe('Directory listing for src:\na.ts (1 bytes)');
  });

  it('shows links as links without following them', async () => {
    await tools.world.writeFile(join(tools.world.outside, 'secret.txt'), 'outside');
    await tools.world.symlink(join(tools.world.outside, 'secret.txt'), tools.inWorkspace('src', 'link'));
    expect((await list({ dir_path: 'src' })).output).toBe(
      'Directory listing for src:\na.ts (1 bytes)\nlink (symbolic link, not followed)',
    );
  });

  it('says when a folder is empty', async () => {
    await tools.world.mkdir(tools.inWorkspace('empty'));
    expect((await list({ dir_path: 'empty' })).output).toBe('Directory empty is empty.');
    expect((await list({ dir_path: 'src', ignore: ['*'] })).output).toBe(
      'Directory src is empty. (1 ignored)',
    );
  });

  it.each([
    [{ dir_path: 'nope' }, 'Error: Directory not found or inaccessible: nope'],
    [{ dir_path: 'zeta.txt' }, 'Error: Path is not a directory: zeta.txt'],
    [{ dir_path: '' }, "The 'dir_path' parameter must be non-empty."],
  ])('refuses %j', async (args, error) => {
    expect(await list(args)).toEqual({ success: false, output: null, error });
  });

  it('lists shared/ and refuses folders outside', async () => {
    await tools.world.writeFile(join(tools.world.shared, 'plan.md'), 'p');
    expect((await list({ dir_path: 'shared' })).output).toBe(
      'Directory listing for shared:\nplan.md (1 bytes)',
    );
    expect((await list({ dir_path: '../../b' })).error).toMatch(/is outside the folders you may read/);
  });
});
