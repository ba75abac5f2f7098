import { describe, expect, it } from 'vitest';
import { CappedOutput, completeUtf8Length } from './capped-output';

describe('CappedOutput', () => {
  it('keeps everything under the limit', () => {
    const output = new CappedOutput(10);
    output.push(Buffer.from('abc'));
    output.push(Buffer.from('def'));
    expect([output.text(), output.totalBytes, output.truncated]).toEqual(['abcdef', 6, false]);
  });

  it('keeps the first bytes and counts the rest', () => {
    const output = new CappedOutput(4);
    output.push(Buffer.from('abc'));
    output.push(Buffer.from('defgh'));
    output.push(Buffer.from('ij'));
    expect([output.text(), output.totalBytes, output.truncated]).toEqual(['abcd', 10, true]);
  });

  it('leaves out a character the limit cut in half', () => {
    const output = new CappedOutput(4);
    output.push(Buffer.from('ab€cd'));
    expect(output.text()).toBe('ab');
  });

  it('keeps invalid bytes of a complete stream as replacement characters', () => {
    const output = new CappedOutput(10);
    output.push(Buffer.from([0x61, 0xe2, 0x82]));
    expect(output.text()).toBe('a\uFFFD');
  });
});

describe('completeUtf8Length', () => {
  const cases: [string, number[], number][] = [
    ['ASCII', [0x61, 0x62], 2],
    ['a whole 2-byte character', [0x61, 0xc3, 0xa9], 3],
    ['half a 2-byte character', [0x61, 0xc3], 1],
    ['two thirds of a 3-byte character', [0x61, 0xe2, 0x82], 1],
    ['a whole 4-byte character', [0xf0, 0x9f, 0x98, 0x80], 4],
    ['three quarters of a 4-byte character', [0x61, 0xf0, 0x9f, 0x98], 1],
    ['nothing', [], 0],
  ];
  it.each(cases)('%s', (_name, bytes, expected) => {
    expect(completeUtf8Length(Uint8Array.from(bytes))).toBe(expected);
  });
});
