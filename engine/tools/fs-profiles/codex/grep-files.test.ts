import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WORLDS, memoryWorld } from '../../../sandbox/test-support/sandbox-world';
import { MAX_SCANNED_FILES } from '../shared/walk-files';
import { ageInOrder } from '../test-support/file-times';
import { openToolWorld, type ToolWorld } from '../test-support/tool-world';
import { codexGrepFilesTool as grepFiles, MAX_GREP_LIMIT } from './grep-files';

describe.each(WORLDS)('codex grep_files ($name file system)', (factory) => {
  let tools: ToolWorld;
  beforeEach(async () => {
    tools = await openToolWorld(factory);
    await tools.put('notes.md', 'todo: write tests\n');
    await tools.put('src/a.ts', 'export const a = 1; // TODO\n');
    await tools.put('src/deep/b.ts', 'const b = "todo";\n');
    await tools.put('src/c.js', 'todo();\n');
    await tools.put('.hidden/secret.ts', 'todo\n');
    await tools.put('.env', 'todo=1\n');
    await ageInOrder(tools, ['src/deep/b.ts', 'notes.md', 'src/c.js', 'src/a.ts']);
  });
  afterEach(() => tools.dispose());

  const grep = (args: Record<string, unknown>) => tools.call(grepFiles, args);

  it('lists matching files newest first, case-sensitively, skipping hidden files like ripgrep', async () => {
    expect(await grep({ pattern: 'todo' })).toEqual({
      success: true,
      output: 'src/c.js\nnotes.md\nsrc/deep/b.ts',
      error: null,
    });
    expect((await grep({ pattern: 'TODO|todo' })).output).toBe('src/a.ts\nsrc/c.js\nnotes.md\nsrc/deep/b.ts');
  });

  it('tries the regular expression on the whole file, with ^ and $ at line breaks', async () => {
    await tools.put('multi.txt', 'first\nsecond line\n');
    expect((await grep({ pattern: '^second' })).output).toBe('multi.txt');
    expect((await grep({ pattern: 'first\\nsecond' })).output).toBe('multi.txt');
  });

  it('filters by include: a name glob anywhere, a path glob relative to the search folder', async () => {
    expect((await grep({ pattern: 'todo', include: '*.ts' })).output).toBe('src/deep/b.ts');
    expect((await grep({ pattern: 'todo|TODO', include: '*.{ts,js}' })).output).toBe(
      'src/a.ts\nsrc/c.js\nsrc/deep/b.ts',
    );
    expect((await grep({ pattern: 'todo|TODO', include: 'src/*.ts' })).output).toBe('src/a.ts');
    expect((await grep({ pattern: 'todo|TODO', include: 'deep/**', path: 'src' })).output).toBe(
      'src/deep/b.ts',
    );
  });

  it('searches a folder or a single file given by path, and the shared folder', async () => {
    await tools.world.writeFile(`${tools.world.shared}/plan.md`, 'todo: plan\n');
    expect((await grep({ pattern: 'todo', path: 'src/deep' })).output).toBe('src/deep/b.ts');
    expect((await grep({ pattern: 'todo', path: 'notes.md' })).output).toBe('notes.md');
    expect((await grep({ pattern: 'todo', path: 'shared' })).output).toBe('shared/plan.md');
  });

  it('returns at most limit paths, and clamps limit to 2000', async () => {
    expect((await grep({ pattern: 'TODO|todo', limit: 2 })).output).toBe('src/a.ts\nsrc/c.js');
    expect(
      (await grep({ pattern: 'TODO|todo', limit: MAX_GREP_LIMIT + 5000 })).output?.split('\n'),
    ).toHaveLength(4);
  });

  it('reports no match as a failed result, as codex-rs does', async () => {
    expect(await grep({ pattern: 'nowhere to be found' })).toEqual({
      success: false,
      output: null,
      error: 'No matches found.',
    });
  });

  it('skips binary files', async () => {
    await tools.put('blob.bin', new Uint8Array([...Buffer.from('todo'), 0, 1]));
    expect((await grep({ pattern: 'todo' })).output).not.toContain('blob.bin');
  });

  it.each([
    [{ pattern: '   ' }, 'pattern must not be empty'],
    [{ pattern: 'x', limit: 0 }, 'limit must be greater than zero'],
    [{ pattern: '(' }, 'invalid regex pattern: Invalid regular expression: /(/m: Unterminated group'],
    [{ pattern: 'x', path: 'missing' }, 'unable to access `missing`: No such file or directory (os error 2)'],
  ])('refuses %j', async (args, error) => {
    expect(await grep(args)).toEqual({ success: false, output: null, error });
  });

  it('refuses to search outside the sandbox', async () => {
    expect((await grep({ pattern: 'x', path: '../../b' })).error).toMatch(
      /^unable to access `\.\.\/\.\.\/b`: '\.\.\/\.\.\/b' is outside the folders you may read/,
    );
  });
});

describe('grep_files scan limit', () => {
  it(`looks at no more than ${MAX_SCANNED_FILES} files (the newest, f20000, is never seen) and says so`, async () => {
    const tools = await openToolWorld(memoryWorld);
    try {
      for (let index = 0; index <= MAX_SCANNED_FILES; index += 1)
        await tools.put(`many/f${String(index).padStart(5, '0')}.txt`, 'needle');
      const result = await tools.call(grepFiles, { pattern: 'needle', limit: 1 });
      expect(result.output).toBe(
        `many/f19999.txt\n(the search stopped after ${MAX_SCANNED_FILES} files; give a narrower path or include to search the rest)`,
      );
    } finally {
      await tools.dispose();
    }
  });
});
