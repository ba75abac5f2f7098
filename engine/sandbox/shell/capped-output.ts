/** One output stream of a command: the first `limit` bytes are kept, the rest only counted. */
export class CappedOutput {
  private readonly chunks: Buffer[] = [];
  private keptBytes = 0;
  /** Every byte the stream produced, kept or not. */
  totalBytes = 0;

  constructor(readonly limit: number) {}

  push(chunk: Buffer): void {
    this.totalBytes += chunk.length;
    const room = this.limit - this.keptBytes;
    if (room <= 0) return;
    const kept = chunk.length <= room ? chunk : chunk.subarray(0, room);
    this.chunks.push(kept);
    this.keptBytes += kept.length;
  }

  get truncated(): boolean {
    return this.totalBytes > this.keptBytes;
  }

  /** The kept bytes as text; a character the cap cut in half is left out rather than garbled. */
  text(): string {
    const bytes = Buffer.concat(this.chunks, this.keptBytes);
    return (this.truncated ? bytes.subarray(0, completeUtf8Length(bytes)) : bytes).toString('utf8');
  }
}

/** The length of `bytes` without a UTF-8 sequence that was cut off at its end. */
export function completeUtf8Length(bytes: Uint8Array): number {
  let start = bytes.length - 1;
  const earliest = Math.max(0, bytes.length - 4);
  while (start >= earliest && isContinuation(bytes[start] ?? 0)) start -= 1;
  if (start < earliest) return bytes.length;
  const needed = sequenceLength(bytes[start] ?? 0);
  return start + needed > bytes.length ? start : bytes.length;
}

function isContinuation(byte: number): boolean {
  return (byte & 0b1100_0000) === 0b1000_0000;
}

function sequenceLength(lead: number): number {
  if (lead >= 0b1111_0000) return 4;
  if (lead >= 0b1110_0000) return 3;
  if (lead >= 0b1100_0000) return 2;
  return 1;
}
