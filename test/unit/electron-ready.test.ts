import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const repoRoot = resolve(import.meta.dirname, '..', '..');
const scratch = mkdtempSync(join(tmpdir(), 'lemming-electron-ready-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A loopback port nothing listens on: the port of a server just closed. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  const { port } = server.address() as { port: number };
  await new Promise((closed) => server.close(closed));
  return port;
}

describe('npm start without Electron’s program', () => {
  it('npm start and npm run dev check for it first (npm start before the build)', () => {
    const scripts = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')).scripts;
    expect(scripts.start).toMatch(/&& node scripts\/electron-ready\.mjs && npm run build && /);
    expect(scripts.dev).toMatch(/^node scripts\/electron-ready\.mjs && /);
  });

  it('says in one line how to get it, and what works without it, when it cannot be downloaded', async () => {
    // No program where Electron is told to look, and its download mirror a closed loopback port.
    const result = await promisify(execFile)(
      process.execPath,
      [join(repoRoot, 'scripts', 'electron-ready.mjs')],
      {
        cwd: repoRoot,
        env: {
          PATH: process.env.PATH ?? '',
          ELECTRON_OVERRIDE_DIST_PATH: join(scratch, 'no-electron'),
          ELECTRON_MIRROR: `http://127.0.0.1:${await closedPort()}/`,
          electron_config_cache: join(scratch, 'cache'),
        },
      },
    ).catch((error: unknown) => error as { code: number; stdout: string; stderr: string });
    expect(result).toMatchObject({ code: 1 });
    expect(result.stderr.split('\n')).toEqual([
      expect.stringMatching(
        /^Electron's program, which opens the app, is not installed and could not be downloaded \(.+\)\. Connect to the internet and try again, or get it with `npx install-electron` .*The lemming command \(npx lemming help\) and the tests \(npm test\) work without it\.$/,
      ),
      '',
    ]);
  });
});
