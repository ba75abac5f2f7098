import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { referenceServers } from './reference-servers';

/** A port on loopback nothing listens on now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

/**
 * The reference server (server-everything) speaking legacy SSE on loopback (GET /sse, POST /message):
 * its port, once it listens. The child goes into `children`, for the caller to kill.
 */
export async function legacySseServer(children: ChildProcess[]): Promise<number> {
  const port = await freePort();
  const child = spawn(process.execPath, referenceServers.everythingSseArgs(), {
    env: { PATH: process.env.PATH ?? '', PORT: String(port) },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  children.push(child);
  await new Promise<void>((resolve) =>
    child.stderr!.on('data', (chunk: Buffer) => chunk.toString().includes('running on port') && resolve()),
  );
  return port;
}
