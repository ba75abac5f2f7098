import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Where a sign-in's answer comes back to: one request, on this computer only, carrying our state. */
export interface LoopbackRedirect {
  /** `http://127.0.0.1:<port>/callback`: the redirect URI the sign-in names. */
  url: string;
  /** The random value the answer must carry back (OAuth `state`), so no other page can answer for it. */
  state: string;
  /** The authorization code, once the browser comes back with it; rejected when the answer is an error or time runs out. */
  code: Promise<string>;
  close(): Promise<void>;
}

const PAGE = (title: string, text: string) =>
  `<!doctype html><meta charset="utf-8"><title>${title}</title><body style="font-family:sans-serif;margin:3em"><h1>${title}</h1><p>${text}</p></body>`;

/**
 * Listens on 127.0.0.1 at a port the system picks for the one answer of a sign-in (RFC 8252's loopback
 * redirect). Only a request to `/callback` with our `state` counts; it is answered with a page the
 * person can close, and the listener closes after it or after `timeoutMs`.
 */
export async function listenForRedirect(timeoutMs: number): Promise<LoopbackRedirect> {
  const state = randomBytes(24).toString('base64url');
  let settle: { resolve: (code: string) => void; reject: (error: Error) => void } | null = null;
  const code = new Promise<string>((resolve, reject) => (settle = { resolve, reject }));
  // Nobody may be waiting when it fails (the sign-in may have stopped before asking).
  code.catch(() => undefined);
  const finish = (outcome: { code: string } | { error: Error }) => {
    const waiting = settle;
    settle = null;
    if (!waiting) return;
    if ('code' in outcome) waiting.resolve(outcome.code);
    else waiting.reject(outcome.error);
  };
  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    if (url.pathname !== '/callback' || url.searchParams.get('state') !== state || !settle) {
      response.writeHead(404, { 'content-type': 'text/html; charset=utf-8' });
      response.end(PAGE('Not found', 'This address only takes the answer of the sign-in LeMMing started.'));
      return;
    }
    const error = url.searchParams.get('error');
    const given = url.searchParams.get('code');
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    if (error || !given) {
      const description = url.searchParams.get('error_description');
      response.end(PAGE('Not signed in', 'The sign-in did not finish. You can close this window.'));
      finish({
        error: new Error(
          `the sign-in was not completed (${error ?? 'no code came back'}${description ? `: ${description}` : ''})`,
        ),
      });
    } else {
      response.end(PAGE('Signed in', 'You can close this window and go back to LeMMing.'));
      finish({ code: given });
    }
    void close();
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const timer = setTimeout(() => {
    finish({ error: new Error(`the sign-in was not completed within ${Math.round(timeoutMs / 1000)} s`) });
    void close();
  }, timeoutMs);
  timer.unref();
  let closing: Promise<void> | null = null;
  function close(): Promise<void> {
    clearTimeout(timer);
    finish({ error: new Error('the sign-in was stopped') });
    closing ??= new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
    return closing;
  }
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/callback`, state, code, close };
}
