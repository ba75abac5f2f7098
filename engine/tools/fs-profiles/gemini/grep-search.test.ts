import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WORLDS } from '../../../sandbox/test-support/sandbox-world';
import { openToolWorld, type ToolWorld } from '../test-support/tool-world';
import { geminiGrepSearchTool as grepSearch } from './grep-search';

const numbered = (count: number, mark: (line: number) => string = () => '') =>
  Array.from({ length: count }, (_, index) => `line ${index + 1}${mark(index + 1)}`).join('\n');

describe.each(WORLDS)('gemini grep_search ($name file system)', (factory) => {
  let tools: ToolWorld;
  beforeEach(async () => {
    tools = await openToolWorld(factory);
    await tools.put('src/a.ts', 'import x from "y";\nfunction main() {}\nconst Main = 1;\n');
    await tools.put('src/b.js', 'function helper() {}\n');
    await tools.put('notes.md', 'nothing here\n');
    await tools.put('node_modules/dep/index.js', 'function main() {}\n');
    await tools.put('.git/config', 'function main\n');
    await tools.put('.config/settings.ts', 'function mainly() {}\n');
  });
  afterEach(() => tools.dispose());
  const grep = (args: Record<string, unknown>) => tools.call(grepSearch, args);

  it('groups matching lines by file, case-insensitively, skipping .git and node_modules', async () => {
    expect(await grep({ pattern: 'main', total_max_matches: 10, names_only: false })).toEqual({
      success: true,
      output: [
        'Found 3 matches for pattern "main" in the workspace directory:',
        '---',
        'File: .config/settings.ts',
        'L1: function mainly() {}',
        '---',
        'File: src/a.ts',
        'L1- import x from "y";',
        'L2: function main() {}',
        'L3: const Main = 1;',
        '---',
      ].join('\n'),
      error: null,
    });
  });

  it('shows 50 lines around a single match and 15 around each of two or three', async () => {
    await tools.put(
      'long.txt',
      numbered(200, (line) => (line === 100 ? ' needle' : '')),
    );
    const one = (await grep({ pattern: 'needle' })).output?.split('\n') ?? [];
    expect(one[0]).toBe('Found 1 match for pattern "needle" in the workspace directory:');
    expect(one[3]).toBe('L50- line 50');
    expect(one).toContain('L100: line 100 needle');
    expect(one.at(-2)).toBe('L150- line 150');

    await tools.put(
      'long.txt',
      numbered(200, (line) => (line === 100 || line === 110 ? ' needle' : '')),
    );
    const two = (await grep({ pattern: 'needle' })).output?.split('\n') ?? [];
    expect(two[3]).toBe('L85- line 85');
    expect(two.filter((line) => line.startsWith('L110'))).toEqual(['L110: line 110 needle']);
    expect(two.at(-2)).toBe('L125- line 125');
  });

  it('shows 15 lines around each of three matches, and only the matching lines for four or more', async () => {
    expect((await grep({ pattern: 'function' })).output).toBe(
      [
        'Found 3 matches for pattern "function" in the workspace directory:',
        '---',
        'File: .config/settings.ts',
        'L1: function mainly() {}',
        '---',
        'File: src/a.ts',
        'L1- import x from "y";',
        'L2: function main() {}',
        'L3- const Main = 1;',
        '---',
        'File: src/b.js',
        'L1: function helper() {}',
        '---',
      ].join('\n'),
    );
    await tools.put('src/c.ts', 'function a\nfunction b\n');
    expect((await grep({ pattern: 'function', dir_path: 'src' })).output).toBe(
      [
        'Found 4 matches for pattern "function" in path "src":',
        '---',
        'File: src/a.ts',
        'L2: function main() {}',
        '---',
        'File: src/b.js',
        'L1: function helper() {}',
        '---',
        'File: src/c.ts',
        'L1: function a',
        'L2: function b',
        '---',
      ].join('\n'),
    );
  });

  it('filters files by include_pattern (or the older include) and drops lines matching exclude_pattern', async () => {
    expect((await grep({ pattern: 'function', include_pattern: '*.js' })).output).toBe(
      'Found 1 match for pattern "function" in the workspace directory (filter: "*.js"):\n---\nFile: src/b.js\nL1: function helper() {}\n---',
    );
    expect((await grep({ pattern: 'function', include: 'src/*.js' })).output).toContain('File: src/b.js');
    expect((await grep({ pattern: 'function', exclude_pattern: 'main' })).output).toBe(
      'Found 1 match for pattern "function" in the workspace directory:\n---\nFile: src/b.js\nL1: function helper() {}\n---',
    );
  });

  it('lists file names only, sorted, when names_only', async () => {
    expect((await grep({ pattern: 'main', names_only: true })).output).toBe(
      'Found 2 files with matches for pattern "main" in the workspace directory:\n.config/settings.ts\nsrc/a.ts',
    );
  });

  it('limits matches in total and per file, and says when the total limit was reached', async () => {
    await tools.put(
      'many.txt',
      numbered(10, () => ' hit'),
    );
    const limited = await grep({ pattern: 'hit', total_max_matches: 4 });
    expect(limited.output?.split('\n')[0]).toBe(
      'Found 4 matches for pattern "hit" in the workspace directory (results limited to 4 matches for performance):',
    );
    const perFile = await grep({ pattern: 'hit', max_matches_per_file: 2 });
    expect(perFile.output).toBe(
      'Found 2 matches for pattern "hit" in the workspace directory:\n---\nFile: many.txt\nL1: line 1 hit\nL2: line 2 hit\nL3- line 3 hit\nL4- line 4 hit\nL5- line 5 hit\nL6- line 6 hit\nL7- line 7 hit\nL8- line 8 hit\nL9- line 9 hit\nL10- line 10 hit\n---',
    );
  });

  it('cuts matched lines over 2000 code points', async () => {
    await tools.put('wide.txt', `needle${'é'.repeat(2500)}\n`);
    const output = (await grep({ pattern: 'needle' })).output ?? '';
    expect(output).toContain(`L1: needle${'é'.repeat(1994)}... [truncated]`);
  });

  it('reports no match as a success with gemini-cli text', async () => {
    expect(await grep({ pattern: 'absent', include_pattern: '*.ts' })).toEqual({
      success: true,
      output: 'No matches found for pattern "absent" in the workspace directory (filter: "*.ts").',
      error: null,
    });
  });

  it.each([
    [{ pattern: '' }, "The 'pattern' parameter cannot be empty."],
    [
      { pattern: '[' },
      'Invalid regular expression pattern provided: [. Error: Invalid regular expression: /[/i: Unterminated character class',
    ],
    [{ pattern: 'x', dir_path: 'nope' }, 'Path does not exist: nope'],
    [{ pattern: 'x', dir_path: 'notes.md' }, 'Path is not a directory: notes.md'],
    [{ pattern: 'x', total_max_matches: 0 }, 'total_max_matches must be at least 1'],
  ])('refuses %j', async (args, error) => {
    expect(await grep(args)).toEqual({ success: false, output: null, error });
  });

  it('refuses to search outside the sandbox', async () => {
    expect((await grep({ pattern: 'x', dir_path: '../..' })).error).toMatch(
      /is outside the folders you may read/,
    );
  });
});
