import { createReadStream } from 'node:fs';

/** Longest line read from a JSON Lines file; a longer line is skipped, not held in memory. */
export const MAX_LINE_BYTES = 16 * 1024 * 1024;

export type JsonlLine = { line: number; text: string } | { line: number; problem: string };

const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;
const UTF8_BOM = Buffer.from([0xef, 0xbb, 0xbf]);

/**
 * The non-blank lines of a file, 1-based numbered, each decoded exactly (no replacement characters:
 * a line that is not valid UTF-8 is reported instead). `\n` and `\r\n` both end a line, and a UTF-8
 * byte order mark at the start of the file is not part of the first line. Streams: only the current
 * chunk and one partial line are in memory.
 */
export async function* readJsonlLines(
  filePath: string,
  maxLineBytes = MAX_LINE_BYTES,
  /** Told the size of each chunk as it is read, before its lines. */
  onRead?: (bytes: number) => void,
): AsyncGenerator<JsonlLine> {
  const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  let lineNumber = 0;
  let partial: Buffer[] = [];
  let partialBytes = 0;
  let tooLong = false;

  const finishLine = (bytes: Buffer): JsonlLine | null => {
    lineNumber += 1;
    if (tooLong) return { line: lineNumber, problem: `line is longer than ${maxLineBytes} bytes` };
    let body = bytes.at(-1) === CARRIAGE_RETURN ? bytes.subarray(0, -1) : bytes;
    if (lineNumber === 1 && body.subarray(0, 3).equals(UTF8_BOM)) body = body.subarray(3);
    let text: string;
    try {
      text = decoder.decode(body);
    } catch {
      return { line: lineNumber, problem: 'line is not valid UTF-8' };
    }
    return text.trim() === '' ? null : { line: lineNumber, text };
  };

  for await (const chunk of createReadStream(filePath) as AsyncIterable<Buffer>) {
    onRead?.(chunk.length);
    let start = 0;
    for (let end = chunk.indexOf(NEWLINE); end !== -1; end = chunk.indexOf(NEWLINE, start)) {
      const piece = chunk.subarray(start, end);
      const bytes = partial.length === 0 ? piece : Buffer.concat([...partial, piece]);
      if (partialBytes + piece.length > maxLineBytes) tooLong = true;
      const line = finishLine(bytes);
      if (line) yield line;
      partial = [];
      partialBytes = 0;
      tooLong = false;
      start = end + 1;
    }
    const rest = chunk.subarray(start);
    if (rest.length > 0 && !tooLong) {
      partialBytes += rest.length;
      if (partialBytes > maxLineBytes) {
        tooLong = true;
        partial = [];
      } else {
        partial.push(rest);
      }
    }
  }
  if (partial.length > 0 || tooLong) {
    const line = finishLine(Buffer.concat(partial));
    if (line) yield line;
  }
}
