import { extname } from 'node:path';

/** How far into a file a NUL byte is looked for (git's heuristic for "binary"). */
const BINARY_SNIFF_BYTES = 8000;

/** True when the file holds a NUL byte near its start: text files do not. */
export function looksBinary(bytes: Uint8Array): boolean {
  return bytes.subarray(0, BINARY_SNIFF_BYTES).includes(0);
}

export type MediaKind = { kind: 'image'; mime: string } | { kind: 'pdf' };

const IMAGE_EXTENSIONS: Readonly<Record<string, string>> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.bmp': 'image/bmp',
  '.ico': 'image/x-icon',
  '.tif': 'image/tiff',
  '.tiff': 'image/tiff',
};

/** An image or PDF, known by its first bytes, else by its extension; null for anything else. */
export function sniffMedia(bytes: Uint8Array, path: string): MediaKind | null {
  const starts = (...signature: number[]) => signature.every((byte, index) => bytes[index] === byte);
  const ascii = (text: string, at = 0) =>
    [...text].every((char, index) => bytes[at + index] === char.charCodeAt(0));
  if (starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return { kind: 'image', mime: 'image/png' };
  if (starts(0xff, 0xd8, 0xff)) return { kind: 'image', mime: 'image/jpeg' };
  if (ascii('GIF87a') || ascii('GIF89a')) return { kind: 'image', mime: 'image/gif' };
  if (ascii('RIFF') && ascii('WEBP', 8)) return { kind: 'image', mime: 'image/webp' };
  if (ascii('%PDF-')) return { kind: 'pdf' };
  const extension = extname(path).toLowerCase();
  if (extension === '.pdf') return { kind: 'pdf' };
  const mime = IMAGE_EXTENSIONS[extension];
  return mime ? { kind: 'image', mime } : null;
}

/** Text for showing: invalid UTF-8 becomes U+FFFD (as codex-rs does) and a leading BOM is dropped. */
export function decodeForDisplay(bytes: Uint8Array): string {
  return new TextDecoder('utf-8').decode(bytes);
}

/** Text for editing: exactly the file's characters, BOM included, or null when it is not UTF-8. */
export function decodeExactly(bytes: Uint8Array): string | null {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return null;
  }
}

/**
 * The file's lines as codex-rs reads them: split at LF, a CR before the LF removed, and no empty
 * line after a final newline (so "a\nb\n" and "a\nb" both have two lines, and "" has none).
 */
export function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines.map((line) => (line.endsWith('\r') ? line.slice(0, -1) : line));
}

/** The first `max` code points of `text` (a surrogate pair is never cut in half). */
export function takeCodePoints(text: string, max: number): string {
  if (text.length <= max) return text;
  let units = 0;
  for (let count = 0; count < max && units < text.length; count += 1) {
    const code = text.codePointAt(units) ?? 0;
    units += code > 0xffff ? 2 : 1;
  }
  return text.slice(0, units);
}

/** Whether `text` has more than `max` code points. */
export function longerThan(text: string, max: number): boolean {
  return text.length > max && takeCodePoints(text, max).length < text.length;
}
