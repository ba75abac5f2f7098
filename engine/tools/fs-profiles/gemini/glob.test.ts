import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WORLDS } from '../../../sandbox/test-support/sandbox-world';
import type { WalkedFile } from '../shared/walk-files';
import { ageInOrder } from '../test-support/file-times';
import { openToolWorld, type ToolWorld } from '../test-support/tool-world';
import { geminiGlobTool as globTool, RECENT_FILE_MS, sortByRecency } from './glob';

describe.each(WORLDS)('gemini glob ($name file system)', (factory) => {
  let tools: ToolWorld;
  beforeEach(async () => {
    tools = await openToolWorld(factory);
    for (const file of [
      'x.ts',
      'src/a.ts',
      'src/c.ts',
      'src/b.TS',
      'src/deep/d.ts',
      'src/readme.md',
      '.hidden.ts',
    ])
      await tools.put(file, file);
    await tools.put('node_modules/m/index.ts', 'skip');
    await ageInOrder(tools, [
      'src/deep/d.ts',
      'x.ts',
      'src/a.ts',
      'src/c.ts',
      'src/b.TS',
      '.hidden.ts',
      'src/readme.md',
    ]);
  });
  afterEach(() => tools.dispose());
  const glob = (args: Record<string, unknown>) => tools.call(globTool, args);
  const paths = async (args: Record<string, unknown>) =>
    (await glob(args)).output?.split('\n').slice(1).sort();

  it('matches top-level files with **/*.ts (the @ljoukov/llm defect, fixed), dot files included, case-insensitively', async () => {
    expect(await paths({ pattern: '**/*.ts' })).toEqual([
      '.hidden.ts',
      'src/a.ts',
      'src/b.TS',
      'src/c.ts',
      'src/deep/d.ts',
      'x.ts',
    ]);
  });

  it('matches src/**/{a,c}.ts against src/a.ts', async () => {
    expect(await paths({ pattern: 'src/**/{a,c}.ts' })).toEqual(['src/a.ts', 'src/c.ts']);
  });

  it('keeps * within one folder and honours case_sensitive', async () => {
    expect(await paths({ pattern: '*.ts' })).toEqual(['.hidden.ts', 'x.ts']);
    expect(await paths({ pattern: 'src/*.ts', case_sensitive: true })).toEqual(['src/a.ts', 'src/c.ts']);
  });

  it('searches within dir_path, paths shown as the agent writes them', async () => {
    expect(await glob({ pattern: '**/*.md', dir_path: 'src' })).toEqual({
      success: true,
      output:
        'Found 1 file(s) matching "**/*.md" within src, sorted by modification time (newest first):\nsrc/readme.md',
      error: null,
    });
  });

  it('says when nothing matches', async () => {
    expect((await glob({ pattern: '*.rs' })).output).toBe('No files found matching pattern "*.rs" within .');
  });

  it.each([
    [{ pattern: ' ' }, "The 'pattern' parameter cannot be empty."],
    [{ pattern: '*', dir_path: 'missing' }, 'Search path does not exist missing'],
    [{ pattern: '*', dir_path: 'x.ts' }, 'Search path is not a directory: x.ts'],
    [{ pattern: '[z-a]' }, expect.stringMatching(/^invalid glob pattern "\[z-a\]": /)],
  ])('refuses %j', async (args, error) => {
    expect(await glob(args)).toEqual({ success: false, output: null, error });
  });

  it('refuses to search outside the sandbox', async () => {
    expect((await glob({ pattern: '**/*', dir_path: '..' })).error).toMatch(
      /is outside the folders you may read/,
    );
  });
});

describe('glob ordering', () => {
  const file = (relative: string, mtimeMs: number): WalkedFile => ({
    path: `/w/${relative}`,
    relative,
    mtimeMs,
    size: 0,
  });
  it('puts files changed in the last 24 hours first, newest first, then older files by path', () => {
    const now = 10 * RECENT_FILE_MS;
    const sorted = sortByRecency(
      [file('z-old.ts', 1), file('a-old.ts', 2), file('recent.ts', now - 1000), file('newest.ts', now - 10)],
      now,
    );
    expect(sorted.map((entry) => entry.relative)).toEqual(['newest.ts', 'recent.ts', 'a-old.ts', 'z-old.ts']);
  });
});
