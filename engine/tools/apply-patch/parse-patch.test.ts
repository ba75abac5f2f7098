import { describe, expect, it } from 'vitest';
import { parsePatch } from './parse-patch';

const patch = (...body: string[]) => ['*** Begin Patch', ...body, '*** End Patch'].join('\n');

const hunksOf = (text: string) => {
  const parsed = parsePatch(text);
  if (!parsed.ok) throw new Error(`expected the patch to parse: ${parsed.error}`);
  return parsed.value;
};
const errorOf = (text: string) => {
  const parsed = parsePatch(text);
  if (parsed.ok) throw new Error('expected a parse error');
  return parsed.error;
};

describe('parsePatch: the codex-rs grammar', () => {
  it('reads Add, Delete and Update-with-Move sections in order', () => {
    const hunks = hunksOf(
      patch(
        '*** Add File: path/add.py',
        '+abc',
        '+def',
        '*** Delete File: path/delete.py',
        '*** Update File: path/update.py',
        '*** Move to: path/update2.py',
        '@@ def f():',
        '-    pass',
        '+    return 123',
      ),
    );
    expect(hunks).toEqual([
      { type: 'add', path: 'path/add.py', contents: 'abc\ndef\n' },
      { type: 'delete', path: 'path/delete.py' },
      {
        type: 'update',
        path: 'path/update.py',
        movePath: 'path/update2.py',
        chunks: [
          {
            contexts: ['def f():'],
            lines: [
              { kind: 'remove', text: '    pass' },
              { kind: 'add', text: '    return 123' },
            ],
            endOfFile: false,
          },
        ],
      },
    ]);
  });

  it('parses a patch with no sections to no hunks (the tool rejects it later)', () => {
    expect(hunksOf('*** Begin Patch\n*** End Patch')).toEqual([]);
  });

  it('accepts an Add with an empty + line and an Add with no lines at all (an empty file)', () => {
    expect(hunksOf(patch('*** Add File: a.txt', '+one', '+', '+three', '*** Add File: empty.txt'))).toEqual([
      { type: 'add', path: 'a.txt', contents: 'one\n\nthree\n' },
      { type: 'add', path: 'empty.txt', contents: '' },
    ]);
  });

  it('lets the first chunk of an update leave out @@, and reads an empty line as an empty context line', () => {
    const [hunk] = hunksOf(patch('*** Update File: file2.py', ' import foo', '', '+bar'));
    expect(hunk).toEqual({
      type: 'update',
      path: 'file2.py',
      movePath: null,
      chunks: [
        {
          contexts: [],
          lines: [
            { kind: 'context', text: 'import foo' },
            { kind: 'context', text: '' },
            { kind: 'add', text: 'bar' },
          ],
          endOfFile: false,
        },
      ],
    });
  });

  it('marks a chunk closed by *** End of File and starts a new chunk at each @@', () => {
    const [hunk] = hunksOf(
      patch('*** Update File: f', '@@', '-a', '+b', '@@ tail', ' x', '-y', '*** End of File'),
    );
    expect(hunk?.type === 'update' && hunk.chunks.map((chunk) => [chunk.contexts, chunk.endOfFile])).toEqual([
      [[], false],
      [['tail'], true],
    ]);
  });

  it('nests consecutive @@ lines (codex rejects them although its tool description asks for them)', () => {
    const [hunk] = hunksOf(patch('*** Update File: f.py', '@@ class A', '@@     def m(self):', '-  pass'));
    expect(hunk?.type === 'update' && hunk.chunks[0]?.contexts).toEqual(['class A', '    def m(self):']);
  });

  it('accepts CRLF patch text and whitespace around markers, headers and paths', () => {
    const text =
      ' *** Begin Patch \r\n  *** Update File:  a.txt  \r\n@@\r\n-x\r\n+y\r\n\t*** End Patch\t\r\n';
    expect(hunksOf(text)).toEqual([
      {
        type: 'update',
        path: 'a.txt',
        movePath: null,
        chunks: [
          {
            contexts: [],
            lines: [
              { kind: 'remove', text: 'x' },
              { kind: 'add', text: 'y' },
            ],
            endOfFile: false,
          },
        ],
      },
    ]);
  });

  it("unwraps a <<'EOF' heredoc, in all three quotings", () => {
    for (const opener of ['<<EOF', "<<'EOF'", '<<"EOF"']) {
      const wrapped = `${opener}\n${patch('*** Add File: foo', '+hi')}\nEOF\n`;
      expect(hunksOf(wrapped)).toEqual([{ type: 'add', path: 'foo', contents: 'hi\n' }]);
    }
  });

  it('keeps the original error for a heredoc with mismatched quotes', () => {
    expect(errorOf(`<<"EOF'\n${patch('*** Add File: foo', '+hi')}\nEOF`)).toBe(
      "invalid patch: The first line of the patch must be '*** Begin Patch'",
    );
  });

  it('skips blank lines between the chunks of an update', () => {
    const [hunk] = hunksOf(patch('*** Update File: f', '@@ a', '-1', '', '   ', '@@ b', '-2'));
    expect(hunk?.type === 'update' && hunk.chunks.length).toBe(2);
  });
});

describe('parsePatch: codex-rs error texts and line numbers', () => {
  it('names a missing begin marker, then a missing end marker', () => {
    expect(errorOf('bad')).toBe("invalid patch: The first line of the patch must be '*** Begin Patch'");
    expect(errorOf('*** Begin Patch\nbad')).toBe(
      "invalid patch: The last line of the patch must be '*** End Patch'",
    );
    expect(errorOf('   ')).toBe("invalid patch: The last line of the patch must be '*** End Patch'");
  });

  it('rejects an unknown section header at its line', () => {
    expect(errorOf(patch('*** Add File: ok.txt', '+x', '*** Frobnicate File: foo'))).toBe(
      "invalid hunk at line 4, '*** Frobnicate File: foo' is not a valid hunk header. Valid hunk headers: '*** Add File: {path}', '*** Delete File: {path}', '*** Update File: {path}'",
    );
  });

  it('rejects an Update with no chunks, naming its path', () => {
    expect(errorOf(patch('*** Update File: test.py'))).toBe(
      "invalid hunk at line 2, Update file hunk for path 'test.py' is empty",
    );
  });

  it('rejects a chunk that has only its @@ line, or only *** End of File', () => {
    expect(errorOf(patch('*** Update File: a', '@@'))).toBe(
      'invalid hunk at line 4, Update hunk does not contain any lines',
    );
    expect(errorOf(patch('*** Update File: a', '@@', '*** End of File'))).toBe(
      'invalid hunk at line 4, Update hunk does not contain any lines',
    );
  });

  it('rejects a line that is not context, removal or addition at the start of a chunk', () => {
    expect(errorOf(patch('*** Update File: a', '@@', 'oops'))).toBe(
      "invalid hunk at line 4, Unexpected line found in update hunk: 'oops'. Every line should start with ' ' (context line), '+' (added line), or '-' (removed line)",
    );
  });

  it('requires @@ before every chunk after the first', () => {
    expect(errorOf(patch('*** Update File: a', '@@', '-x', 'stray', '-y'))).toBe(
      "invalid hunk at line 5, Expected update hunk to start with a @@ context marker, got: 'stray'",
    );
  });

  it('does not take an indented Move line as a Move (codex matches it unpadded)', () => {
    const [hunk] = hunksOf(patch('*** Update File: a', ' *** Move to: b', '-x'));
    expect(hunk).toMatchObject({ movePath: null });
  });

  it('rejects a Move with an empty destination', () => {
    expect(errorOf(patch('*** Update File: a', '*** Move to:  ', '@@', '-x'))).toBe(
      "invalid hunk at line 3, Move to path for 'a' is empty",
    );
  });
});
