import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WORLDS } from '../../../sandbox/test-support/sandbox-world';
import { openToolWorld, type ToolWorld } from '../test-support/tool-world';
import { geminiReplaceTool as replaceTool } from './replace';

describe.each(WORLDS)('gemini replace ($name file system)', (factory) => {
  let tools: ToolWorld;
  beforeEach(async () => {
    tools = await openToolWorld(factory);
    await tools.put('a.ts', 'const a = 1;\nconst b = 1;\nconst a2 = 1;\n');
  });
  afterEach(() => tools.dispose());
  const replace = (args: Record<string, unknown>) =>
    tools.call(replaceTool, { file_path: 'a.ts', instruction: 'change it', ...args });

  it('replaces exactly one occurrence and says so', async () => {
    expect(await replace({ old_string: 'const b = 1;', new_string: 'const b = 2;' })).toEqual({
      success: true,
      output: 'Successfully modified file: a.ts (1 replacements).',
      error: null,
    });
    expect(await tools.text('a.ts')).toBe('const a = 1;\nconst b = 2;\nconst a2 = 1;\n');
  });

  it('refuses several occurrences unless allow_multiple, with gemini-cli HEAD text', async () => {
    expect((await replace({ old_string: ' = 1;', new_string: ' = 3;' })).error).toBe(
      "Failed to edit, Expected 1 occurrence but found 3 for old_string in file: a.ts. If you intended to replace multiple occurrences, set 'allow_multiple' to true.",
    );
    expect(await tools.text('a.ts')).toBe('const a = 1;\nconst b = 1;\nconst a2 = 1;\n');
    expect((await replace({ old_string: ' = 1;', new_string: ' = 3;', allow_multiple: true })).output).toBe(
      'Successfully modified file: a.ts (3 replacements).',
    );
    expect(await tools.text('a.ts')).toBe('const a = 3;\nconst b = 3;\nconst a2 = 3;\n');
  });

  it('checks expected_replacements exactly, with the older text', async () => {
    expect((await replace({ old_string: ' = 1;', new_string: '', expected_replacements: 2 })).error).toBe(
      'Failed to edit, Expected 2 occurrences but found 3 for old_string in file: a.ts',
    );
    expect((await replace({ old_string: 'const a', new_string: 'x', expected_replacements: 1 })).error).toBe(
      'Failed to edit, Expected 1 occurrence but found 2 for old_string in file: a.ts',
    );
    expect(
      (await replace({ old_string: ' = 1;', new_string: ' = 0;', expected_replacements: 3 })).output,
    ).toBe('Successfully modified file: a.ts (3 replacements).');
  });

  it('counts occurrences without overlap', async () => {
    await tools.put('o.txt', 'aaaa');
    const result = await tools.call(replaceTool, {
      file_path: 'o.txt',
      instruction: 'x',
      old_string: 'aa',
      new_string: 'b',
      allow_multiple: true,
    });
    expect(result.output).toBe('Successfully modified file: o.txt (2 replacements).');
    expect(await tools.text('o.txt')).toBe('bb');
  });

  it('takes $ sequences in new_string literally', async () => {
    await replace({ old_string: 'const b = 1;', new_string: "const b = '$&$1$$';" });
    expect(await tools.text('a.ts')).toBe("const a = 1;\nconst b = '$&$1$$';\nconst a2 = 1;\n");
  });

  it('matches LF strings in a CRLF file and writes the change with CRLF, leaving other lines alone', async () => {
    await tools.put('w.txt', 'one\r\ntwo\r\nthree\nfour\r\n');
    const result = await tools.call(replaceTool, {
      file_path: 'w.txt',
      instruction: 'x',
      old_string: 'one\ntwo',
      new_string: 'ONE\nTWO\nextra',
    });
    expect(result.success).toBe(true);
    expect(await tools.text('w.txt')).toBe('ONE\r\nTWO\r\nextra\r\nthree\nfour\r\n');
  });

  it('keeps a byte-order mark', async () => {
    await tools.put('bom.txt', '\uFEFFhello');
    await tools.call(replaceTool, {
      file_path: 'bom.txt',
      instruction: 'x',
      old_string: 'hello',
      new_string: 'hi',
    });
    expect(await tools.text('bom.txt')).toBe('\uFEFFhi');
  });

  it('creates a missing file from an empty old_string, and refuses to create one that exists', async () => {
    expect(await replace({ file_path: 'new/n.ts', old_string: '', new_string: 'fresh' })).toEqual({
      success: true,
      output: 'Created new file: new/n.ts with provided content.',
      error: null,
    });
    expect(await tools.text('new/n.ts')).toBe('fresh');
    expect((await replace({ old_string: '', new_string: 'x' })).error).toBe(
      'File already exists, cannot create: a.ts',
    );
  });

  it.each([
    [
      { old_string: 'nowhere', new_string: 'x' },
      "Failed to edit, 0 occurrences found for old_string in a.ts. Ensure you're not escaping content incorrectly and check whitespace, indentation, and context. Use read_file tool to verify.",
    ],
    [
      { old_string: 'const b = 1;', new_string: 'const b = 1;' },
      'No changes to apply. The old_string and new_string are identical in file: a.ts',
    ],
    [
      { file_path: 'missing.ts', old_string: 'x', new_string: 'y' },
      'File not found. Cannot apply edit. Use an empty old_string to create a new file.',
    ],
    [
      { old_string: 'const b = 1;', new_string: '// rest of code ...' },
      "`new_string` contains an omission placeholder (for example 'rest of methods ...'). Provide the complete replacement text.",
    ],
    [{ file_path: '', old_string: 'a', new_string: 'b' }, "The 'file_path' parameter must be non-empty."],
    [
      { old_string: 'a', new_string: 'b', expected_replacements: 0 },
      'expected_replacements must be at least 1',
    ],
  ])('refuses %j with gemini-cli text and leaves the file alone', async (args, error) => {
    expect(await replace(args)).toEqual({ success: false, output: null, error });
    expect(await tools.text('a.ts')).toBe('const a = 1;\nconst b = 1;\nconst a2 = 1;\n');
  });

  it('keeps a placeholder that old_string already had', async () => {
    await tools.put('p.ts', 'a\n// rest of code ...\nb\n');
    const result = await tools.call(replaceTool, {
      file_path: 'p.ts',
      instruction: 'x',
      old_string: 'a\n// rest of code ...',
      new_string: 'A\n// rest of code ...',
    });
    expect(result.success).toBe(true);
  });

  it('refuses a file it may read but not write, and one it may not read', async () => {
    const limited = await openToolWorld(factory, {
      fileAccess: { allow_read: ['agents/a/workspace', 'shared'], allow_write: ['shared'] },
    });
    try {
      await limited.put('r.txt', 'keep');
      const result = await limited.call(replaceTool, {
        file_path: 'r.txt',
        instruction: 'x',
        old_string: 'keep',
        new_string: 'lose',
      });
      expect(result.error).toMatch(/^'r\.txt' is outside the folders you may write to/);
      expect(await limited.text('r.txt')).toBe('keep');
      const outside = await limited.call(replaceTool, {
        file_path: '../resume.json',
        instruction: 'x',
        old_string: 'a',
        new_string: 'b',
      });
      expect(outside.error).toMatch(/is outside the folders you may read/);
    } finally {
      await limited.dispose();
    }
  });

  it('advertises gemini-cli parameters with allow_multiple and expected_replacements', () => {
    const parameters = replaceTool.definition.parameters as { properties: object; required: string[] };
    expect(Object.keys(parameters.properties)).toEqual([
      'file_path',
      'instruction',
      'old_string',
      'new_string',
      'allow_multiple',
      'expected_replacements',
    ]);
    expect(parameters.required).toEqual(['file_path', 'instruction', 'old_string', 'new_string']);
  });
});
