import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

/**
 * Starts endless-http-server.mjs (an MCP server over Streamable HTTP on loopback whose `flood` tool never
 * finishes its answer) and gives its port; the caller kills `child` when done.
 */
export async function startEndlessServer(): Promise<{ child: ChildProcess; port: number }> {
  const child = spawn(process.execPath, [join(import.meta.dirname, 'endless-http-server.mjs')], {
    env: { PATH: process.env.PATH ?? '' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    let said = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      said += chunk.toString();
      const listening = /listening on (\d+)/.exec(said);
      if (listening) resolve(Number(listening[1]));
    });
    child.on('exit', (code) => reject(new Error(`the endless MCP server exited (${code}) before listening`)));
  });
  return { child, port };
}
