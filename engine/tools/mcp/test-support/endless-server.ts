import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

/**
 * Starts endless-http-server.mjs (an MCP server over Streamable HTTP on loopback whose `flood` tool never
 * finishes its answer), or with `legacySse` endless-sse-server.mjs (the same over legacy SSE), and gives
 * its port and the requests it got so far; the caller kills `child`.
 */
export async function startEndlessServer(
  transport: 'streamable-http' | 'legacy-sse' = 'streamable-http',
): Promise<{
  child: ChildProcess;
  port: number;
  requests: () => string[];
}> {
  const child = spawn(
    process.execPath,
    [
      join(
        import.meta.dirname,
        transport === 'legacy-sse' ? 'endless-sse-server.mjs' : 'endless-http-server.mjs',
      ),
    ],
    {
      env: { PATH: process.env.PATH ?? '' },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  let said = '';
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      said += chunk.toString();
      const listening = /listening on (\d+)/.exec(said);
      if (listening) resolve(Number(listening[1]));
    });
    child.on('exit', (code) => reject(new Error(`the endless MCP server exited (${code}) before listening`)));
  });
  const requests = () => [...said.matchAll(/^request (.+)$/gm)].map((line) => line[1] ?? '');
  return { child, port, requests };
}
