// Tests that run the real `lemming` binary run the compiled CLI: compile it from the sources under test.
import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';

export default function buildCli(): void {
  const repoRoot = resolve(import.meta.dirname, '..', '..');
  execFileSync(process.execPath, [resolve(repoRoot, 'scripts', 'build-cli-bundle.mjs')], {
    cwd: repoRoot,
    stdio: 'inherit',
  });
}
