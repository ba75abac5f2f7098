import type { ServerResponse } from 'node:http';
import { startLoopbackServer, type LoopbackServer } from './loopback-server';

export interface StreamingServerOptions {
  /** How many text pieces the answer comes in. */
  deltas: number;
  gapMs: number;
  /** Piece number `index` of the answer (all pieces joined make the whole text). */
  piece?: (index: number) => string;
  /** A tool call the answer ends with, its JSON arguments in these pieces. */
  toolCall?: { name: string; argumentPieces: readonly string[] };
}

export interface StreamingServer extends LoopbackServer {
  /** The whole answer the server streams. */
  text: string;
  /** performance.now() when the server saw each request's connection close; 0 while open. */
  closedAt: number[];
  /** performance.now() when the server wrote the last piece of each answer; 0 when it never did. */
  finishedAt: number[];
}

/** A LeMMing contract answer in pieces: `{"notes": "w0 w1 … "}`. */
export function contractPieces(deltas: number): string[] {
  const words = Array.from({ length: deltas - 2 }, (_, index) => `w${index} `);
  return ['{"notes": "', ...words, '"}'];
}

/**
 * A contract answer in pieces that carries each of `spellings` whole in one piece, then split in two at
 * every position (what a streaming redactor must catch).
 */
export function secretSplitEverywhere(spellings: readonly string[]): string[] {
  const pieces = ['{"notes": "'];
  for (const spelling of spellings) {
    pieces.push(` ${spelling} `);
    for (let at = 1; at < spelling.length; at += 1)
      pieces.push(` ${spelling.slice(0, at)}`, `${spelling.slice(at)} `);
  }
  pieces.push('"}');
  return pieces;
}

/**
 * An OpenAI-compatible chat server on loopback that streams every answer as `deltas` SSE chunks, `gapMs`
 * apart, then a usage chunk and [DONE]; what a slow local model looks like from the app.
 */
export async function startStreamingServer(options: StreamingServerOptions): Promise<StreamingServer> {
  const pieces = options.piece
    ? Array.from({ length: options.deltas }, (_, index) => options.piece!(index))
    : contractPieces(options.deltas);
  const closedAt: number[] = [];
  const finishedAt: number[] = [];
  const server = await startLoopbackServer(async (_request, response, index) => {
    closedAt[index] = 0;
    finishedAt[index] = 0;
    response.on('close', () => (closedAt[index] = performance.now()));
    if (await streamPieces(response, pieces, options)) finishedAt[index] = performance.now();
  });
  return Object.assign(server, { text: pieces.join(''), closedAt, finishedAt });
}

async function streamPieces(
  response: ServerResponse,
  pieces: string[],
  { gapMs, toolCall }: StreamingServerOptions,
): Promise<boolean> {
  const chunk = (body: unknown) => `data: ${JSON.stringify(body)}\n\n`;
  const deltas: Record<string, unknown>[] = pieces.map((piece) => ({ content: piece }));
  if (toolCall) {
    const call = {
      index: 0,
      id: 'call_1',
      type: 'function',
      function: { name: toolCall.name, arguments: '' },
    };
    deltas.push(
      { tool_calls: [call] },
      ...toolCall.argumentPieces.map((piece) => ({
        tool_calls: [{ index: 0, function: { arguments: piece } }],
      })),
    );
  }
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  for (const delta of deltas) {
    if (response.destroyed) return false;
    response.write(
      chunk({ object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: null }] }),
    );
    await new Promise((resolve) => setTimeout(resolve, gapMs));
  }
  if (response.destroyed) return false;
  const finish_reason = toolCall ? 'tool_calls' : 'stop';
  response.write(
    chunk({ object: 'chat.completion.chunk', choices: [{ index: 0, delta: {}, finish_reason }] }),
  );
  response.write(
    chunk({
      object: 'chat.completion.chunk',
      choices: [],
      usage: { prompt_tokens: 50, completion_tokens: pieces.length },
    }),
  );
  response.end('data: [DONE]\n\n');
  return true;
}
