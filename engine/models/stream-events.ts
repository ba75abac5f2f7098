import { createParser } from 'eventsource-parser';
/** One Server-Sent Event: its `event:` name (empty when none) and its joined `data:` lines. */
export interface ServerSentEvent {
  event: string;
  data: string;
}

/**
 * A streamed answer that cannot be taken as the answer: it ended before its terminal marker
 * (`retryable`, as a dropped connection is), or it carried something that is not the format.
 */
export class StreamError extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
  ) {
    super(message);
    this.name = 'StreamError';
  }
}

/** The stream ended without `marker`, which says the answer is whole. */
export function endedEarly(marker: string): StreamError {
  return new StreamError(
    `stopped sending before its answer was complete (no ${marker} came); the answer may be cut off`,
    true,
  );
}

/** The body's lines as they arrive, split on LF, CRLF or a bare CR, decoded as UTF-8 across chunk edges. */
export async function* bodyLines(chunks: AsyncIterable<Buffer>): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  let pending = '';
  for await (const chunk of chunks) {
    pending += decoder.decode(chunk, { stream: true });
    for (;;) {
      const end = pending.search(/[\r\n]/);
      // A CR at the edge of a chunk may be the first half of a CRLF.
      if (end < 0 || (pending[end] === '\r' && end === pending.length - 1)) break;
      yield pending.slice(0, end);
      pending = pending.slice(pending.startsWith('\r\n', end) ? end + 2 : end + 1);
    }
  }
  pending += decoder.decode();
  for (const line of pending.split(/\r\n|\r|\n/)) if (line) yield line;
}

/**
 * Server-Sent Events (the WHATWG event-stream format, as OpenAI and Anthropic send it), read by
 * `eventsource-parser`: comments skipped, lines ended by LF, CRLF or CR, and an event cut off before its
 * blank line not dispatched, as the format and the official SDKs say.
 */
export async function* serverSentEvents(chunks: AsyncIterable<Buffer>): AsyncGenerator<ServerSentEvent> {
  const decoder = new TextDecoder();
  const ready: ServerSentEvent[] = [];
  const parser = createParser({ onEvent: ({ event, data }) => ready.push({ event: event ?? '', data }) });
  let last = '';
  for await (const chunk of chunks) {
    const text = decoder.decode(chunk, { stream: true });
    parser.feed(text);
    last = text.at(-1) ?? last;
    yield* ready.splice(0);
  }
  // The parser holds a final CR back in case an LF follows; at the end of the body it ends a line.
  parser.feed(`${decoder.decode()}${last === '\r' ? '\n' : ''}`);
  yield* ready.splice(0);
}

/**
 * Newline-delimited JSON (Ollama): each non-blank line parsed. A line that is not JSON is passed to
 * `skipped` and read past, as the official `ollama` client does.
 */
export async function* jsonLines(
  chunks: AsyncIterable<Buffer>,
  skipped: (line: string) => void,
): AsyncGenerator<unknown> {
  for await (const line of bodyLines(chunks)) {
    if (line.trim() === '') continue;
    const value = parseOrUndefined(line);
    if (value === undefined) skipped(line);
    else yield value;
  }
}

/** One streamed piece as JSON; a piece that is not JSON is a StreamError saying what came. */
export function parseStreamedJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new StreamError(`sent a piece of its answer that is not JSON: ${shownPiece(text)}`, false);
  }
}

/** The start of a streamed piece, for a message. */
export function shownPiece(text: string): string {
  return text.length > 80 ? `${text.slice(0, 80)}…` : text;
}

export function parseOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
