/** One Server-Sent Event: its `event:` name (empty when none) and its joined `data:` lines. */
export interface ServerSentEvent {
  event: string;
  data: string;
}

/** The body's lines as they arrive, split on LF or CRLF, decoded as UTF-8 across chunk edges. */
export async function* bodyLines(chunks: AsyncIterable<Buffer>): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  let pending = '';
  for await (const chunk of chunks) {
    pending += decoder.decode(chunk, { stream: true });
    let newline = pending.indexOf('\n');
    while (newline >= 0) {
      yield pending.slice(0, newline).replace(/\r$/, '');
      pending = pending.slice(newline + 1);
      newline = pending.indexOf('\n');
    }
  }
  pending += decoder.decode();
  if (pending) yield pending.replace(/\r$/, '');
}

/** Server-Sent Events (the WHATWG event-stream format, as OpenAI and Anthropic send it); comments are skipped. */
export async function* serverSentEvents(chunks: AsyncIterable<Buffer>): AsyncGenerator<ServerSentEvent> {
  let event = '';
  let data: string[] = [];
  for await (const line of bodyLines(chunks)) {
    if (line === '') {
      if (data.length > 0) yield { event, data: data.join('\n') };
      event = '';
      data = [];
      continue;
    }
    if (line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'event') event = value;
    else if (field === 'data') data.push(value);
  }
  if (data.length > 0) yield { event, data: data.join('\n') };
}

/** Newline-delimited JSON (Ollama): each non-blank line parsed; a line that is not JSON is returned as `undefined`. */
export async function* jsonLines(chunks: AsyncIterable<Buffer>): AsyncGenerator<unknown> {
  for await (const line of bodyLines(chunks)) {
    if (line.trim() === '') continue;
    yield parseOrUndefined(line);
  }
}

export function parseOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
