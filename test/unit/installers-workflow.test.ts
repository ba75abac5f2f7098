import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';

const repoRoot = resolve(import.meta.dirname, '..', '..');
const workflow = YAML.parse(readFileSync(join(repoRoot, '.github', 'workflows', 'installers.yml'), 'utf8'));
const packageJson = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8'));

interface Step {
  name?: string;
  uses?: string;
  run?: string;
  if?: string;
  env?: Record<string, string>;
  with?: Record<string, unknown>;
}
const installers = workflow.jobs.installers as {
  strategy: { matrix: { include: { os: string; args: string; app: string }[] } };
  env: Record<string, string>;
  steps: Step[];
};
const step = (name: string) => {
  const found = installers.steps.find((candidate) => candidate.name === name);
  expect(found, name).toBeDefined();
  return found!;
};

describe('the installers workflow', () => {
  it('builds and tests on the Node that package.json requires', () => {
    const requiredMajor = Number(/^>=(\d+)\./.exec(packageJson.engines.node)![1]);
    expect(requiredMajor).toBeGreaterThanOrEqual(24);
    for (const job of [workflow.jobs.test, installers]) {
      const setupNode = (job.steps as Step[]).find((candidate) =>
        candidate.uses?.startsWith('actions/setup-node'),
      );
      expect(setupNode?.with?.['node-version']).toBe(requiredMajor);
    }
    expect(workflow.jobs.test.steps.map((candidate: Step) => candidate.run)).toContain('bash .ci/run');
  });

  it('builds on macOS, Windows and Linux, and smoke-tests each packaged app (xvfb on Linux)', () => {
    const matrix = installers.strategy.matrix.include;
    expect(matrix.map((entry) => entry.os)).toEqual(['macos-latest', 'windows-latest', 'ubuntu-latest']);
    expect(matrix.map((entry) => entry.app)).toEqual([
      'dist/mac-arm64/LeMMing Desktop.app/Contents/MacOS/LeMMing Desktop',
      'dist/win-unpacked/LeMMing Desktop.exe',
      'dist/linux-unpacked/lemming-desktop',
    ]);
    const names = installers.steps.map((candidate) => candidate.name ?? candidate.run ?? candidate.uses);
    expect(names.indexOf('Smoke test the packaged app')).toBeGreaterThan(names.indexOf('Package'));

    const smoke = step('Smoke test the packaged app');
    expect(smoke.env).toEqual({ LEMMING_PACKAGED_APP: '${{ github.workspace }}/${{ matrix.app }}' });
    expect(smoke.run).toContain("${{ runner.os == 'Linux' && 'xvfb-run --auto-servernum' || '' }}");
    expect(smoke.run).toContain('npx playwright test --config test/e2e/packaged-app.config.ts');
  });

  it('uploads the smoke test screenshots as an artifact, pass or fail', () => {
    const upload = step("Upload the smoke test's screenshots");
    expect(upload.if).toBe('always()');
    expect(upload.uses).toBe('actions/upload-artifact@v4');
    expect(upload.with).toMatchObject({ path: 'test-results/packaged-app/**/*.png' });
    const config = readFileSync(join(repoRoot, 'test', 'e2e', 'packaged-app.config.ts'), 'utf8');
    expect(config).toContain("outputDir: '../../test-results/packaged-app'");
  });

  it("hands electron-builder the standard signing and notarization variables from the repository's secrets", () => {
    for (const name of [
      'CSC_LINK',
      'CSC_KEY_PASSWORD',
      'APPLE_ID',
      'APPLE_APP_SPECIFIC_PASSWORD',
      'APPLE_TEAM_ID',
      'WIN_CSC_LINK',
      'WIN_CSC_KEY_PASSWORD',
    ]) {
      expect(installers.env[name]).toBe(`\${{ secrets.${name} }}`);
    }
    expect(step('Package').run).toContain(
      "--publish ${{ startsWith(github.ref, 'refs/tags/v') && 'always' || 'never' }}",
    );
  });

  describe('the signing check', () => {
    const script = step('Check signing secrets').run!;
    const run = (env: Record<string, string>) => {
      const dir = mkdtempSync(join(tmpdir(), 'lemming-workflow-'));
      try {
        const githubEnv = join(dir, 'github-env');
        const output = execFileSync('bash', ['-c', `touch "$GITHUB_ENV"\n${script}`], {
          env: { PATH: process.env.PATH, GITHUB_ENV: githubEnv, ...env },
          encoding: 'utf8',
        });
        return { output, githubEnv: readFileSync(githubEnv, 'utf8') };
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    };

    it('warns visibly and builds unsigned when the secrets are absent', () => {
      const mac = run({ RUNNER_OS: 'macOS', CSC_LINK: '', APPLE_ID: '' });
      expect(mac.output).toMatch(/^::warning title=Unsigned macOS build::/m);
      expect(mac.output).toMatch(/^::warning title=macOS build not notarized::/m);
      expect(mac.githubEnv).toBe('CSC_IDENTITY_AUTO_DISCOVERY=false\n');
      expect(run({ RUNNER_OS: 'Windows', WIN_CSC_LINK: '' }).output).toMatch(
        /^::warning title=Unsigned Windows build::/m,
      );
    });

    it('says nothing when the secrets are there, and nothing on Linux', () => {
      const signed = run({
        RUNNER_OS: 'macOS',
        CSC_LINK: 'base64-certificate',
        APPLE_ID: 'dev@example.com',
        APPLE_APP_SPECIFIC_PASSWORD: 'app-password',
        APPLE_TEAM_ID: 'TEAM123',
      });
      expect(signed).toEqual({ output: '', githubEnv: '' });
      expect(run({ RUNNER_OS: 'Windows', WIN_CSC_LINK: 'base64-certificate' }).output).toBe('');
      expect(run({ RUNNER_OS: 'Linux' }).output).toBe('');
    });
  });
});
