import { execFile, spawn } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RUN_NODE_FLAGS } from '../../bin/node-runtime.mjs';

const run = promisify(execFile);
const repoRoot = resolve(import.meta.dirname, '..', '..');
const packageJson = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8'));

/** package.json and the launcher's folder, as an install has them. */
function installLauncher(folder: string): void {
  cpSync(join(repoRoot, 'package.json'), join(folder, 'package.json'));
  cpSync(join(repoRoot, 'bin'), join(folder, 'bin'), { recursive: true });
}

describe('the lemming command', () => {
  // An installed copy with nothing but package.json, the launcher, the compiled bundle and better-sqlite3:
  // no tsx, no TypeScript sources, no other package. If the command needed any of them, it would fail here.
  let installed: string;
  beforeAll(async () => {
    installed = mkdtempSync(join(tmpdir(), 'lemming-cli-bundle-'));
    await run(
      process.execPath,
      [join(repoRoot, 'scripts', 'build-cli-bundle.mjs'), join(installed, 'out', 'cli')],
      { cwd: repoRoot },
    );
    installLauncher(installed);
    mkdirSync(join(installed, 'node_modules'));
    for (const dependency of ['better-sqlite3', 'node-addon-api']) {
      symlinkSync(
        join(repoRoot, 'node_modules', dependency),
        join(installed, 'node_modules', dependency),
        'dir',
      );
    }
  }, 60_000);
  afterAll(() => rmSync(installed, { recursive: true, force: true }));

  it('keeps tsx a development tool and builds its bundle on install', () => {
    expect(packageJson.dependencies.tsx).toBeUndefined();
    expect(packageJson.devDependencies.tsx).toBeDefined();
    expect(packageJson.bin.lemming).toBe('bin/lemming.mjs');
    expect(packageJson.scripts.prepare).toBe(
      'node scripts/build-native.mjs && node scripts/build-cli-bundle.mjs',
    );
  });

  it('runs help from the compiled bundle alone', async () => {
    const { stdout } = await run(process.execPath, [join(installed, 'bin', 'lemming.mjs'), 'help']);
    expect(stdout).toMatch(/^Usage: lemming <command>/);
    expect(stdout).toMatch(/^ {2}status {2,}Show the next tick/m);
  });

  it('opens an org with SQLite from the compiled bundle alone', async () => {
    const org = join(installed, 'demo-org');
    cpSync(join(repoRoot, 'examples', 'demo-org'), org, { recursive: true });
    const { stdout } = await run(process.execPath, [
      join(installed, 'bin', 'lemming.mjs'),
      'status',
      org,
      '--json',
    ]);
    expect(JSON.parse(stdout).nextTick).toBe(1);
  });

  it('creates an org from a template shipped beside the compiled bundle', async () => {
    const org = join(installed, 'from-template');
    const { stdout } = await run(
      process.execPath,
      [join(installed, 'bin', 'lemming.mjs'), 'init', org, '--template', 'personal-ops'],
      { env: { PATH: process.env.PATH ?? '', LEMMING_CONFIG_DIR: join(installed, 'config') } },
    );
    expect(stdout).toContain(`created an org from the template “personal-ops” in ${org}`);
    expect(readFileSync(join(org, 'agents', 'planner', 'resume.json'), 'utf8')).toBe(
      readFileSync(
        join(repoRoot, 'templates', 'personal-ops', 'org', 'agents', 'planner', 'resume.json'),
        'utf8',
      ),
    );
  });

  it.skipIf(process.platform !== 'linux')(
    'started by its own first line, runs a run with its memory flags in the same process',
    async () => {
      const org = join(installed, 'flags-org');
      cpSync(join(repoRoot, 'examples', 'demo-org'), org, { recursive: true });
      // The launcher itself, not `node launcher`: `#!/usr/bin/env node` finds this Node first on PATH.
      const child = spawn(
        join(installed, 'bin', 'lemming.mjs'),
        ['run', org, '--ticks', '100', '--interval', '0.5'],
        {
          env: {
            PATH: `${dirname(process.execPath)}${delimiter}${process.env.PATH ?? ''}`,
            LEMMING_CONFIG_DIR: join(installed, 'config'),
          },
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      const exited = new Promise((resolved) => child.on('exit', resolved));
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      await new Promise<void>((ticked, failed) => {
        let stdout = '';
        child.stdout.on('data', (chunk: Buffer) => {
          stdout += chunk.toString();
          if (/^tick 1:/m.test(stdout)) ticked();
        });
        child.on('exit', () => failed(new Error(`lemming run ended before its first tick: ${stderr}`)));
      });
      // Linux lists the running program's command line; the process id is the one that was spawned.
      const commandLine = readFileSync(`/proc/${child.pid}/cmdline`, 'utf8').split('\0');
      child.kill('SIGINT');
      await exited;
      expect(commandLine.slice(1, 1 + RUN_NODE_FLAGS.length)).toEqual(RUN_NODE_FLAGS);
      expect(commandLine.slice(1 + RUN_NODE_FLAGS.length, 1 + RUN_NODE_FLAGS.length + 2)).toEqual([
        join(installed, 'bin', 'lemming.mjs'),
        'run',
      ]);
    },
  );

  it('says how to build it when the bundle is missing', async () => {
    const bare = mkdtempSync(join(tmpdir(), 'lemming-cli-unbuilt-'));
    try {
      installLauncher(bare);
      const failure = await run(process.execPath, [join(bare, 'bin', 'lemming.mjs'), 'help']).catch(
        (error: unknown) => error,
      );
      expect(failure).toMatchObject({ code: 1, stderr: expect.stringContaining('npm run build:cli') });
    } finally {
      rmSync(bare, { recursive: true, force: true });
    }
  });
});
