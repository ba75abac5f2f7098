import { describe, expect, it } from 'vitest';
import { parsePatch } from './parse-patch';
import { updateFileText } from './update-file';

/** The chunks of a one-section Update patch written as lines. */
const chunksOf = (...lines: string[]) => {
  const parsed = parsePatch(
    ['*** Begin Patch', '*** Update File: f.txt', ...lines, '*** End Patch'].join('\n'),
  );
  if (!parsed.ok || parsed.value[0]?.type !== 'update') throw new Error('test patch must be one Update');
  return parsed.value[0].chunks;
};

const updated = (original: string, ...lines: string[]) => {
  const outcome = updateFileText(original, chunksOf(...lines), 'f.txt');
  if (!outcome.ok) throw new Error(outcome.error);
  return outcome.value.text;
};

describe('updateFileText', () => {
  it('replaces the matched lines and keeps the rest', () => {
    expect(updated('a\nb\nc\n', '@@', ' a', '-b', '+B', ' c')).toBe('a\nB\nc\n');
  });

  it('applies two chunks in order, the second sought after the first', () => {
    const original = 'x\nsame\nx\nsame\n';
    expect(updated(original, '@@', '-same', '+first', '@@', '-same', '+second')).toBe(
      'x\nfirst\nx\nsecond\n',
    );
  });

  it('seeks @@ anchors first, nested anchors one after another', () => {
    const original = 'class A:\n  def m():\n    v = 1\nclass B:\n  def m():\n    v = 1\n';
    expect(updated(original, '@@ class B:', '@@   def m():', '-    v = 1', '+    v = 2')).toBe(
      'class A:\n  def m():\n    v = 1\nclass B:\n  def m():\n    v = 2\n',
    );
  });

  it('keeps CRLF endings in a CRLF file, on untouched and new lines', () => {
    expect(updated('one\r\ntwo\r\nthree\r\n', '@@', ' one', '-two', '+TWO', '+two and a half')).toBe(
      'one\r\nTWO\r\ntwo and a half\r\nthree\r\n',
    );
  });

  it("keeps each line's own ending in a mixed file; new lines take the file's first ending", () => {
    expect(updated('a\r\nb\nc\r\nd\n', '@@', ' b', '-c', '+C', ' d')).toBe('a\r\nb\nC\r\nd\n');
  });

  it('adds the missing final newline, in the file’s own style', () => {
    expect(updated('no newline at end', '@@', '-no newline at end', '+first line', '+second line')).toBe(
      'first line\nsecond line\n',
    );
    expect(updated('a\r\nlast', '@@', ' a', '+b')).toBe('a\r\nb\r\nlast\r\n');
  });

  it('anchors an *** End of File chunk at the last lines', () => {
    const original = 'value\nmiddle\nvalue\n';
    expect(updated(original, '@@', '-value', '+changed', '*** End of File')).toBe('value\nmiddle\nchanged\n');
  });

  it('fails an *** End of File chunk whose lines are not the last ones', () => {
    const outcome = updateFileText('a\nb\nc\n', chunksOf('@@', '-a', '+A', '*** End of File'), 'f.txt');
    expect(outcome).toEqual({ ok: false, error: 'Failed to find expected lines in f.txt:\na' });
  });

  it('retries without a trailing empty old line that stands for the final newline', () => {
    expect(updated('a\nb\n', '@@', ' a', '-b', '+c', '')).toBe('a\nc\n');
  });

  it('appends a pure addition under a bare @@ at the end of the file (codex scenario 016)', () => {
    expect(updated('line1\nline2\n', '@@', '+added line 1', '+added line 2')).toBe(
      'line1\nline2\nadded line 1\nadded line 2\n',
    );
  });

  it('inserts a pure addition right after its @@ anchor (codex appends it at the end, #30946)', () => {
    expect(updated('def a():\n  pass\ndef b():\n  pass\n', '@@ def a():', '+  """Docs."""')).toBe(
      'def a():\n  """Docs."""\n  pass\ndef b():\n  pass\n',
    );
  });

  it('keeps the file’s own text of context lines matched loosely (codex rewrites them, #30505)', () => {
    const original = '\tif (x) {\n\t\treturn “a”;\n\t}\n';
    expect(updated(original, '@@', ' if (x) {', '-  return "a";', '+\t\treturn "b";', ' }')).toBe(
      '\tif (x) {\n\t\treturn "b";\n\t}\n',
    );
  });

  it('reports which matching rung each chunk needed', () => {
    const outcome = updateFileText('a  \nb\n', chunksOf('@@', '-a', '+A', '@@', '-b', '+B'), 'f.txt');
    expect(outcome.ok && outcome.value.rungs).toEqual(['trailing_whitespace', 'exact']);
  });

  it('keeps a byte order mark and still matches the first line', () => {
    expect(updated('\ufefffirst\nsecond\n', '@@', '-first', '+1st')).toBe('\ufeff1st\nsecond\n');
  });

  it('names the file and the lines that did not match', () => {
    const outcome = updateFileText('a\nb\n', chunksOf('@@', ' a', '-nope', '+yes', ' b'), 'src/f.txt');
    expect(outcome).toEqual({ ok: false, error: 'Failed to find expected lines in src/f.txt:\na\nnope\nb' });
  });

  it('names the file and the @@ anchor that was not found', () => {
    const outcome = updateFileText('a\n', chunksOf('@@ class Missing', '-a', '+b'), 'src/f.txt');
    expect(outcome).toEqual({ ok: false, error: "Failed to find context 'class Missing' in src/f.txt" });
  });

  it('lets a chunk of context lines only through unchanged (codex accepts it)', () => {
    expect(updated('a\nb\n', '@@', ' a', ' b')).toBe('a\nb\n');
  });
});
