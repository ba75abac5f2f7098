import type { Result } from '../api/result';

export interface DiscardableBody extends AsyncIterable<Uint8Array> {
  destroy(): unknown;
  on(event: 'error', listener: (error: unknown) => void): unknown;
}

/** Stops a body the caller no longer wants; the stream's own abort error is expected, not a failure. */
export function discardBody(body: DiscardableBody): void {
  body.on('error', () => undefined);
  body.destroy();
}

/** The body (cut at the limit when `truncated`), or how far it got before the stream broke and why. */
export type CappedBody = Result<
  { bytes: Buffer; truncated: boolean },
  { receivedBytes: number; cause: unknown }
>;

/**
 * Reads a response body while it streams, keeping at most `maxBytes`. Past the limit the stream is
 * destroyed, so an endless or oversized body costs no more than the limit.
 */
export async function readCappedBody(body: DiscardableBody, maxBytes: number): Promise<CappedBody> {
  const chunks: Buffer[] = [];
  let receivedBytes = 0;
  try {
    for await (const chunk of body) {
      const room = maxBytes - receivedBytes;
      if (chunk.byteLength > room) {
        chunks.push(Buffer.from(chunk.buffer, chunk.byteOffset, room));
        discardBody(body);
        return { ok: true, value: { bytes: Buffer.concat(chunks), truncated: true } };
      }
      chunks.push(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
      receivedBytes += chunk.byteLength;
    }
  } catch (cause) {
    return { ok: false, error: { receivedBytes, cause } };
  }
  return { ok: true, value: { bytes: Buffer.concat(chunks), truncated: false } };
}
