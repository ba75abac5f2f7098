import { createServer, type Server } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { AnswerTooLargeError, checkedFetch } from './checked-fetch';

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

/** A loopback server that answers every request with `pieces`, written one by one, of `contentType`. */
async function answering(contentType: string, pieces: readonly string[]): Promise<string> {
  const server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': contentType });
    const next = (index: number) => {
      if (index === pieces.length) return response.end();
      response.write(pieces[index], () => setImmediate(() => next(index + 1)));
    };
    next(0);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (typeof address !== 'object' || !address) throw new Error('no port');
  return `127.0.0.1:${address.port}`;
}

async function read(host: string, maxAnswerBytes: number) {
  const fetcher = checkedFetch({ allowPrivateHosts: [host], maxAnswerBytes });
  const tooLarge: AnswerTooLargeError[] = [];
  try {
    const response = await fetcher.fetch(`http://${host}/mcp`, undefined, {
      onTooLarge: (error) => tooLarge.push(error),
    });
    const text = await response.text().then(
      (body) => ({ body }),
      (error: unknown) => ({ error }),
    );
    return { ...text, tooLarge };
  } finally {
    await fetcher.close();
  }
}

const event = (size: number, end = '\n') => `data: ${'x'.repeat(size)}${end}${end}`;

describe('checkedFetch caps each answer as it arrives', () => {
  it('a JSON body past the cap fails with a clear error, and the caller is told', async () => {
    const host = await answering('application/json', ['{"a":"', 'x'.repeat(600), 'x'.repeat(600), '"}']);
    const result = await read(host, 1024);
    expect(result).toMatchObject({ error: expect.any(AnswerTooLargeError) });
    expect(result.tooLarge).toHaveLength(1);
    expect(String((result as { error: unknown }).error)).toMatch(
      /the server's answer went past .* MB and was stopped/,
    );
  });

  it('a stream of events each under the cap passes whole, whatever its total, with LF, CRLF or CR line ends', async () => {
    for (const end of ['\n', '\r\n', '\r']) {
      const pieces = Array.from({ length: 8 }, () => event(700, end));
      // An event split across writes, its blank line in the next one.
      pieces.push(`data: ${'y'.repeat(500)}`, `${'y'.repeat(300)}${end}`, end);
      const host = await answering('text/event-stream', pieces);
      const result = await read(host, 1024);
      expect(result, JSON.stringify(end)).toEqual({ body: pieces.join(''), tooLarge: [] });
    }
  });

  it('one event past the cap fails, even when it arrives in small pieces or as many lines', async () => {
    const inPieces = await answering('text/event-stream', [
      event(100),
      ...Array.from(
        { length: 20 },
        () => 'data: yyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy\n',
      ),
    ]);
    const result = await read(inPieces, 1024);
    expect(result).toMatchObject({ error: expect.any(AnswerTooLargeError) });
    expect(result.tooLarge).toHaveLength(1);
  });
});
