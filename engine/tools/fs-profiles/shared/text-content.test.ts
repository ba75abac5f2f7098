import { describe, expect, it } from 'vitest';
import {
  decodeExactly,
  decodeForDisplay,
  longerThan,
  looksBinary,
  sniffMedia,
  splitLines,
  takeCodePoints,
} from './text-content';

describe('text content', () => {
  it('splits lines like codex-rs: LF, a CR before it dropped, no line after a final newline', () => {
    expect(splitLines('')).toEqual([]);
    expect(splitLines('a')).toEqual(['a']);
    expect(splitLines('a\r\nb\n')).toEqual(['a', 'b']);
    expect(splitLines('a\n\n')).toEqual(['a', '']);
    expect(splitLines('a\rb')).toEqual(['a\rb']);
  });

  it('counts code points, never cutting a surrogate pair', () => {
    expect(takeCodePoints('😀😀😀', 2)).toBe('😀😀');
    expect(takeCodePoints('abc', 5)).toBe('abc');
    expect(longerThan('😀😀', 2)).toBe(false);
    expect(longerThan('😀😀a', 2)).toBe(true);
  });

  it('decodes for display with U+FFFD and without a BOM, and exactly (BOM kept) or not at all for editing', () => {
    const bom = new Uint8Array([0xef, 0xbb, 0xbf, 0x68, 0x69]);
    expect(decodeForDisplay(bom)).toBe('hi');
    expect(decodeExactly(bom)).toBe('\uFEFFhi');
    expect(decodeForDisplay(new Uint8Array([0xff, 0x41]))).toBe('\uFFFDA');
    expect(decodeExactly(new Uint8Array([0xff, 0x41]))).toBeNull();
  });

  it('calls a file binary when a NUL is in its first 8000 bytes', () => {
    expect(looksBinary(new Uint8Array([65, 0, 66]))).toBe(true);
    const late = new Uint8Array(9000).fill(65);
    late[8500] = 0;
    expect(looksBinary(late)).toBe(false);
  });

  it('knows images and PDFs by their first bytes, then by extension', () => {
    const bytes = (text: string) => new TextEncoder().encode(text);
    expect(sniffMedia(new Uint8Array([0xff, 0xd8, 0xff, 0xe0]), 'x.txt')).toEqual({
      kind: 'image',
      mime: 'image/jpeg',
    });
    expect(sniffMedia(bytes('RIFF....WEBPVP8'), 'x')).toEqual({ kind: 'image', mime: 'image/webp' });
    expect(sniffMedia(bytes('%PDF-1.5'), 'x.txt')).toEqual({ kind: 'pdf' });
    expect(sniffMedia(bytes('text'), 'scan.PDF')).toEqual({ kind: 'pdf' });
    expect(sniffMedia(bytes('text'), 'icon.webp')).toEqual({ kind: 'image', mime: 'image/webp' });
    expect(sniffMedia(bytes('<svg/>'), 'logo.svg')).toBeNull();
  });
});
