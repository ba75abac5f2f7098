import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WORLDS } from '../../../sandbox/test-support/sandbox-world';
import { openToolWorld, type ToolWorld } from '../test-support/tool-world';
import { geminiReadFileTool as readFile, MAX_LINE_CHARACTERS } from './read-file';

const numbered = (count: number) => Array.from({ length: count }, (_, index) => `line ${index + 1}`);

const notice = (start: number, end: number, total: number) =>
  `\nIMPORTANT: The file content has been truncated.\nStatus: Showing lines ${start}-${end} of ${total} total lines.\nAction: To read more of the file, you can use the 'start_line' and 'end_line' parameters in a subsequent 'read_file' call. For example, to read the next section of the file, use start_line: ${end + 1}.\n\n--- FILE CONTENT (truncated) ---\n`;

describe.each(WORLDS)('gemini read_file ($name file system)', (factory) => {
  let tools: ToolWorld;
  beforeEach(async () => {
    tools = await openToolWorld(factory);
  });
  afterEach(() => tools.dispose());
  const read = (args: Record<string, unknown>) => tools.call(readFile, args);

  it('returns a small file as it is, without line numbers', async () => {
    await tools.put('a.md', '# Title\r\n\r\nbody\n');
    expect(await read({ file_path: 'a.md' })).toEqual({
      success: true,
      output: '# Title\n\nbody',
      error: null,
    });
  });

  it('shows at most 2000 lines and says exactly how to read on', async () => {
    await tools.put('big.txt', numbered(2500).join('\n'));
    const first = await read({ file_path: 'big.txt' });
    expect(first.output).toBe(notice(1, 2000, 2500) + numbered(2000).join('\n'));
    const next = await read({ file_path: 'big.txt', start_line: 2001 });
    expect(next.output).toBe(numbered(2500).slice(2000).join('\n'));
  });

  it('reads an inclusive 1-based range', async () => {
    await tools.put('ten.txt', `${numbered(10).join('\n')}\n`);
    expect((await read({ file_path: 'ten.txt', start_line: 3, end_line: 4 })).output).toBe(
      notice(3, 4, 10) + 'line 3\nline 4',
    );
    expect((await read({ file_path: 'ten.txt', start_line: 9 })).output).toBe('line 9\nline 10');
  });

  it('accepts the older 0-based offset and limit', async () => {
    await tools.put('ten.txt', numbered(10).join('\n'));
    expect((await read({ file_path: 'ten.txt', offset: 2, limit: 2 })).output).toBe(
      notice(3, 4, 10) + 'line 3\nline 4',
    );
    expect((await read({ file_path: 'ten.txt', offset: -1 })).error).toBe(
      'Offset must be a non-negative number',
    );
    expect((await read({ file_path: 'ten.txt', limit: 0 })).error).toBe('Limit must be a positive number');
  });

  it('cuts lines over 2000 code points with "... [truncated]" and says lines were shortened', async () => {
    const long = '😀'.repeat(MAX_LINE_CHARACTERS + 1);
    await tools.put('long.txt', `short\n${long}\n`);
    expect((await read({ file_path: 'long.txt' })).output).toBe(
      `\nIMPORTANT: The file content has been truncated.\nStatus: Showing lines 1-2 of 2 total lines. Lines longer than 2000 characters were shortened.\n\n--- FILE CONTENT (truncated) ---\nshort\n${'😀'.repeat(MAX_LINE_CHARACTERS)}... [truncated]`,
    );
  });

  it('reads an empty file as empty text', async () => {
    await tools.put('empty.txt', '');
    expect(await read({ file_path: 'empty.txt' })).toEqual({ success: true, output: '', error: null });
  });

  it.each([
    [{ file_path: '  ' }, "The 'file_path' parameter must be non-empty."],
    [{ file_path: 'a.txt', start_line: 0 }, 'params/start_line must be >= 1'],
    [{ file_path: 'a.txt', start_line: 3, end_line: 2 }, 'start_line cannot be greater than end_line'],
    [{ file_path: 'a.txt', start_line: 5 }, 'start_line 5 is beyond the end of the file (2 lines).'],
    [{ file_path: 'missing.txt' }, 'Could not read file because no file was found at the specified path.'],
    [{ file_path: 'dir' }, 'Path is a directory, not a file: dir'],
  ])('refuses %j', async (args, error) => {
    await tools.put('a.txt', 'one\ntwo\n');
    await tools.put('dir/x', 'x');
    expect(await read(args)).toEqual({ success: false, output: null, error });
  });

  it('refuses binary files, images and PDFs', async () => {
    await tools.put('blob.dat', new Uint8Array([7, 0, 7]));
    await tools.put('pic.gif', 'GIF89a....');
    await tools.put('doc.pdf', '%PDF-1.4');
    expect((await read({ file_path: 'blob.dat' })).error).toBe(
      'Cannot display content of binary file: blob.dat',
    );
    expect((await read({ file_path: 'pic.gif' })).error).toBe(
      'Cannot display content of image file: pic.gif (image/gif).',
    );
    expect((await read({ file_path: 'doc.pdf' })).error).toBe('Cannot display content of PDF file: doc.pdf.');
  });

  it('refuses files over 20 MB', async () => {
    await tools.put('huge.log', new Uint8Array(20 * 1024 * 1024 + 1).fill(0x61));
    expect((await read({ file_path: 'huge.log' })).error).toBe('File size exceeds the 20MB limit.');
  });

  it('refuses paths outside the sandbox with the reason', async () => {
    expect((await read({ file_path: '../../b/workspace/x' })).error).toMatch(
      /is outside the folders you may read/,
    );
  });

  it('advertises start_line and end_line (gemini-cli after February 2026)', () => {
    const parameters = readFile.definition.parameters as { properties: object; required: string[] };
    expect(Object.keys(parameters.properties)).toEqual(['file_path', 'start_line', 'end_line']);
    expect(parameters.required).toEqual(['file_path']);
  });
});
