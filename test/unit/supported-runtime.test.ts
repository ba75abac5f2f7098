import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const repoRoot = resolve(import.meta.dirname, '..', '..');
const packageJson = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8'));
const major = (version: string) => Number(/(\d+)\./.exec(version)![1]);

describe('the runtimes the app is built on', () => {
  it('is Electron 45, whose Node is 24, and the matching Node typings', () => {
    expect(packageJson.devDependencies.electron).toMatch(/^45\.\d+\.\d+$/);
    const electron = JSON.parse(
      readFileSync(join(repoRoot, 'node_modules', 'electron', 'package.json'), 'utf8'),
    );
    expect(major(electron.version)).toBe(45);
    expect(major(electron.dependencies['@types/node'])).toBe(24);
    expect(major(packageJson.devDependencies['@types/node'])).toBe(24);
  });

  it('asks for Node 24 LTS for the CLI, the tests and CI, and runs on it', () => {
    expect(packageJson.engines.node).toBe('>=24.11.0');
    expect(major(process.versions.node)).toBeGreaterThanOrEqual(24);
    expect(readFileSync(join(repoRoot, 'scripts', 'build-electron-bundles.mjs'), 'utf8')).toContain(
      "target: 'node24'",
    );
    expect(readFileSync(join(repoRoot, '.ci', 'run'), 'utf8')).toContain(
      'echo "node --version: $(node --version)',
    );
  });
});
