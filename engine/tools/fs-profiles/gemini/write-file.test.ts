import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WORLDS } from '../../../sandbox/test-support/sandbox-world';
import { openToolWorld, type ToolWorld } from '../test-support/tool-world';
import { geminiWriteFileTool as writeFile, OMISSION_PLACEHOLDER_ERROR } from './write-file';

describe.each(WORLDS)('gemini write_file ($name file system)', (factory) => {
  let tools: ToolWorld;
  beforeEach(async () => {
    tools = await openToolWorld(factory);
  });
  afterEach(() => tools.dispose());
  const write = (args: Record<string, unknown>) => tools.call(writeFile, args);

  it('creates a file and its folders, then overwrites it, with gemini-cli messages', async () => {
    expect(await write({ file_path: 'docs/new.md', content: 'first' })).toEqual({
      success: true,
      output: 'Successfully created and wrote to new file: docs/new.md.',
      error: null,
    });
    expect((await write({ file_path: 'docs/new.md', content: 'second' })).output).toBe(
      'Successfully overwrote file: docs/new.md.',
    );
    expect(await tools.text('docs/new.md')).toBe('second');
  });

  it('writes to shared/', async () => {
    expect((await write({ file_path: 'shared/out.txt', content: 'x' })).output).toBe(
      'Successfully created and wrote to new file: shared/out.txt.',
    );
  });

  it.each([
    '// rest of methods ...',
    '    (unchanged code ...)',
    '# rest of code ...',
    '/* Rest Of   Method ... */',
  ])('refuses content with the omission placeholder %j and writes nothing', async (placeholder) => {
    const result = await write({ file_path: 'a.ts', content: `class A {\n${placeholder}\n}\n` });
    expect(result.error).toBe(OMISSION_PLACEHOLDER_ERROR);
    expect(await tools.text('a.ts')).toBeNull();
  });

  it('allows ellipses that are not placeholders', async () => {
    const content = 'loading...\n// rest of methods below\nconst rest = [...items];\n// rest of ... etc\n';
    expect((await write({ file_path: 'a.ts', content })).success).toBe(true);
  });

  it.each([
    [{ file_path: '', content: 'x' }, 'Missing or empty "file_path"'],
    [{ file_path: 'a.txt' }, "missing required parameter 'content'"],
    [{ file_path: 'dir', content: 'x' }, 'Path is a directory, not a file: dir'],
  ])('refuses %j', async (args, error) => {
    await tools.put('dir/x', 'x');
    expect(await write(args)).toEqual({ success: false, output: null, error });
  });

  it('refuses paths outside and content over the write limit', async () => {
    expect((await write({ file_path: '../escape.txt', content: 'x' })).error).toMatch(
      /^'\.\.\/escape\.txt' is outside the folders you may write to/,
    );
    const small = await openToolWorld(factory, { maxWriteBytes: 4 });
    try {
      expect((await small.call(writeFile, { file_path: 'a.txt', content: '12345' })).error).toBe(
        "Error writing to file: 'a.txt' would be 5 bytes; the limit for writing is 4 bytes",
      );
    } finally {
      await small.dispose();
    }
  });
});
