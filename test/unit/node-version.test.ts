import { execFile, execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { unsupportedNode } from '../../bin/node-runtime.mjs';

const run = promisify(execFile);
const repoRoot = resolve(import.meta.dirname, '..', '..');
const needed: string = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')).engines.node.slice(2);
const neededMajor = Number(needed.split('.')[0]);

/**
 * A real Node older than the one LeMMing needs: the system's, where it is one (Debian's Node is 20).
 * Without one (no older Node at /usr/bin/node) the tests "run by an old Node" are skipped; the machine CI
 * runs on has Debian's Node 20, so they run there.
 */
function oldNode(): { node: string; version: string; npm: string | undefined } | undefined {
  const node = '/usr/bin/node';
  if (!existsSync(node)) return undefined;
  const version = execFileSync(node, ['-p', 'process.versions.node'], { encoding: 'utf8' }).trim();
  if (Number(version.split('.')[0]) >= neededMajor) return undefined;
  const npm = '/usr/lib/node_modules/npm/bin/npm-cli.js';
  return { node, version, npm: existsSync(npm) ? npm : undefined };
}
const old = oldNode();
/** The line, for a Node of `version` at `path`. */
const refusal = (version: string, path: string) =>
  `LeMMing Desktop needs Node.js ${needed} or newer, and this is Node.js ${version} (${path}). ` +
  `Install Node.js ${neededMajor} from https://nodejs.org/en/download (or run: nvm install ${neededMajor}), then try again.`;

/** How a child process ended: its exit code and output. */
async function exited(child: Promise<{ stdout: string; stderr: string }>) {
  return child.then(
    (output) => ({ code: 0, ...output }),
    (error: unknown) => error as { code: number; stdout: string; stderr: string },
  );
}

describe('an unsupported Node is told so in one line', () => {
  it("compares against package.json's engines.node, part by part", () => {
    const [major, minor] = needed.split('.').map(Number) as [number, number];
    for (const version of [needed, `${major}.${minor}.99`, `${major}.${minor + 1}.0`, `${major + 1}.0.0`])
      expect(unsupportedNode(`v${version}`, '/bin/node'), version).toBeNull();
    for (const version of [`${major}.${minor - 1}.99`, `${major - 1}.99.99`, '20.20.2', '3.99.99'])
      expect(unsupportedNode(`v${version}`, '/opt/node/bin/node')).toBe(
        refusal(version, '/opt/node/bin/node'),
      );
  });

  it('the launcher starts with a plain `#!/usr/bin/env node` line', () => {
    const launcher = readFileSync(join(repoRoot, 'bin', 'lemming.mjs'), 'utf8');
    expect(launcher.split('\n')[0]).toBe('#!/usr/bin/env node');
  });

  it.skipIf(!old)('the launcher, run by an old Node, prints the line and exits 1', async () => {
    const result = await exited(run(old!.node, [join(repoRoot, 'bin', 'lemming.mjs'), 'help']));
    expect(result).toMatchObject({ code: 1, stdout: '' });
    expect(result.stderr).toBe(`lemming: ${refusal(old!.version, old!.node)}\n`);
  });

  it.skipIf(!old)(
    "npm install's preinstall check, run by an old Node, prints the line and exits 1",
    async () => {
      const result = await exited(run(old!.node, [join(repoRoot, 'scripts', 'check-node.mjs')]));
      expect(result).toMatchObject({ code: 1, stderr: `${refusal(old!.version, old!.node)}\n` });
    },
  );

  it.skipIf(!old?.npm)(
    'npm start and npm test, run by an old Node, print the line before anything else',
    async () => {
      const project = mkdtempSync(join(tmpdir(), 'lemming-old-scripts-'));
      try {
        copyFileSync(join(repoRoot, 'package.json'), join(project, 'package.json'));
        for (const file of ['bin/node-runtime.mjs', 'scripts/check-node.mjs']) {
          mkdirSync(dirname(join(project, file)), { recursive: true });
          copyFileSync(join(repoRoot, file), join(project, file));
        }
        for (const script of ['start', 'test']) {
          // The old Node first on PATH, as on a machine that has only it.
          const result = await exited(
            run(old!.node, [old!.npm!, script], {
              cwd: project,
              env: { PATH: `${dirname(old!.node)}${delimiter}${process.env.PATH ?? ''}`, HOME: project },
            }),
          );
          expect(result.code, script).not.toBe(0);
          expect(result.stderr.split('\n'), script).toContain(refusal(old!.version, old!.node));
        }
      } finally {
        rmSync(project, { recursive: true, force: true });
      }
    },
  );

  it.skipIf(!old?.npm)(
    "the old Node's npm refuses to install the project before it downloads anything",
    async () => {
      const project = mkdtempSync(join(tmpdir(), 'lemming-old-npm-'));
      try {
        for (const file of ['package.json', 'package-lock.json', '.npmrc'])
          copyFileSync(join(repoRoot, file), join(project, file));
        // Offline against a closed loopback registry: a refusal that needed the network would fail here.
        const result = await exited(
          run(
            old!.node,
            [old!.npm!, 'ci', '--offline', '--registry', 'http://127.0.0.1:9/', '--no-audit', '--no-fund'],
            { cwd: project, env: { PATH: process.env.PATH ?? '', HOME: project } },
          ),
        );
        expect(result.code).not.toBe(0);
        expect(result.stderr).toContain('EBADENGINE');
        expect(result.stderr).toContain(`Required: {"node":">=${needed}"}`);
        expect(existsSync(join(project, 'node_modules'))).toBe(false);
      } finally {
        rmSync(project, { recursive: true, force: true });
      }
    },
  );
});
