import { describe, expect, it } from 'vitest';
import { diffLines } from './line-diff';

describe('diffLines', () => {
  it('marks nothing when the texts are equal', () => {
    expect(diffLines('a\nb', 'a\nb')).toEqual([
      { kind: 'same', text: 'a' },
      { kind: 'same', text: 'b' },
    ]);
  });

  it('shows a changed line as removed then added, between the lines that stay', () => {
    expect(diffLines('Be brief.\nWrite weekly.\nSign off.', 'Be brief.\nWrite daily.\nSign off.')).toEqual([
      { kind: 'same', text: 'Be brief.' },
      { kind: 'removed', text: 'Write weekly.' },
      { kind: 'added', text: 'Write daily.' },
      { kind: 'same', text: 'Sign off.' },
    ]);
  });

  it('keeps the longest run of common lines when lines move', () => {
    const lines = diffLines('a\nb\nc\nd', 'b\nc\na\nd');
    expect(lines.filter((line) => line.kind === 'same').map((line) => line.text)).toEqual(['b', 'c', 'd']);
    expect(lines.filter((line) => line.kind !== 'same')).toEqual([
      { kind: 'removed', text: 'a' },
      { kind: 'added', text: 'a' },
    ]);
  });

  it('handles a text that was empty', () => {
    expect(diffLines('', 'new')).toEqual([
      { kind: 'removed', text: '' },
      { kind: 'added', text: 'new' },
    ]);
  });
});
