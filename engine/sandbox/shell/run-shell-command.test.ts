import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Confinement } from './confinement';
import { detectConfinement } from './detect-confinement';
import { runShellCommand } from './run-shell-command';
import {
  createShellOrg,
  HAS_JQ,
  SECRET_CANARY,
  UNCONFINED,
  waitUntilGone,
  withEnvironment,
  type ShellOrg,
} from './test-support/shell-org';

const detected = await detectConfinement();
const modes: [string, Confinement][] = [['unconfined', UNCONFINED]];
if (detected.kind !== 'none') modes.push([detected.kind, detected]);

describe.each(modes)('a shell command (%s)', (_mode, confinement) => {
  let org: ShellOrg;
  let restoreEnvironment: () => void;
  beforeAll(async () => {
    org = await createShellOrg();
    restoreEnvironment = withEnvironment({
      LEMMING_TEST_SECRET: SECRET_CANARY,
      OPENAI_API_KEY: SECRET_CANARY,
      ANTHROPIC_API_KEY: SECRET_CANARY,
    });
  });
  afterAll(async () => {
    restoreEnvironment();
    await org.dispose();
  });

  describe('never sees the app environment', () => {
    const listings = [
      'env',
      'printenv',
      'set',
      'export -p',
      'cat /proc/self/environ | tr "\\0" "\\n"',
      'echo "$OPENAI_API_KEY$LEMMING_TEST_SECRET"',
    ];
    it.each(listings)('%s', async (command) => {
      const run = await org.run(command, confinement);
      expect(run.exitCode).toBe(0);
      expect(run.stdout.text).not.toBe('');
      expect(run.stdout.text + run.stderr.text).not.toContain(SECRET_CANARY);
      expect(run.stdout.text + run.stderr.text).not.toContain('OPENAI_API_KEY');
    });

    it.skipIf(!HAS_JQ)('jq -n env (LeMMing leaked API keys this way)', async () => {
      const run = await org.run('jq -n env; jq -n env.OPENAI_API_KEY', confinement);
      expect(run.exitCode).toBe(0);
      expect(JSON.parse(run.stdout.text.split('\n}\n')[0] + '}')).toHaveProperty('HOME', org.workspace);
      expect(run.stdout.text).toContain('null');
      expect(run.stdout.text).not.toContain(SECRET_CANARY);
    });

    it('gets only the minimal variables, with HOME and the working folder at the workspace', async () => {
      const run = await org.run('pwd; env | cut -d= -f1 | sort', confinement);
      const [pwd, ...names] = run.stdout.text.trim().split('\n');
      expect(pwd).toBe(org.workspace);
      expect(names.filter((name) => name !== '_')).toEqual([
        'HOME',
        'LANG',
        'PATH',
        'PWD',
        'SHELL',
        'TERM',
        'TMPDIR',
      ]);
    });
  });

  it('has no stdin: cat returns at once with nothing', async () => {
    const started = Date.now();
    const run = await org.run('cat; echo "read:$?"', confinement, { timeoutMs: 10_000 });
    expect(run.stopped).toBeNull();
    expect(run.stdout.text).toBe('read:0\n');
    expect(Date.now() - started).toBeLessThan(9_000);
  });

  it('reports exit codes and keeps stdout and stderr apart', async () => {
    const run = await org.run('echo out; echo err >&2; exit 3', confinement);
    expect(run).toMatchObject({ exitCode: 3, exitSignal: null, stopped: null });
    expect(run.stdout.text).toBe('out\n');
    expect(run.stderr.text).toBe('err\n');
  });

  describe.skipIf(process.platform !== 'linux')('stops at its timeout, with everything it started', () => {
    it('a single sleep', async () => {
      const marker = `9.${Date.now() % 100000}1`;
      const started = Date.now();
      const run = await org.run(`sleep ${marker}`, confinement, { timeoutMs: 1000 });
      expect(run.stopped).toBe('timeout');
      expect(run.exitCode).toBeNull();
      expect(Date.now() - started).toBeLessThan(8000);
      expect(await waitUntilGone(`sleep ${marker}`)).toEqual([]);
    });

    it("sh -c 'sleep 10 & sleep 10': the background child too", async () => {
      const marker = `9.${Date.now() % 100000}2`;
      const run = await org.run(`sleep ${marker} & sleep ${marker}`, confinement, { timeoutMs: 1000 });
      expect(run.stopped).toBe('timeout');
      expect(await waitUntilGone(`sleep ${marker}`)).toEqual([]);
    });

    it('a background job does not outlive a command that has finished', async () => {
      const marker = `9.${Date.now() % 100000}3`;
      const started = Date.now();
      const run = await org.run(`sleep ${marker} & echo started`, confinement, { timeoutMs: 15_000 });
      expect(run).toMatchObject({ exitCode: 0, stopped: null });
      expect(run.stdout.text).toBe('started\n');
      expect(Date.now() - started).toBeLessThan(8000);
      expect(await waitUntilGone(`sleep ${marker}`)).toEqual([]);
    });

    it('a cancelled turn stops its command', async () => {
      const marker = `9.${Date.now() % 100000}4`;
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 300);
      const run = await org.run(`sleep ${marker}`, confinement, {
        timeoutMs: 15_000,
        signal: controller.signal,
      });
      expect(run.stopped).toBe('aborted');
      expect(await waitUntilGone(`sleep ${marker}`)).toEqual([]);
    });
  });

  describe('caps its output', () => {
    it('keeps the first bytes of 10 MB and says how much there was', async () => {
      const run = await org.run('head -c 10485760 /dev/zero | tr "\\0" x', confinement, {
        maxOutputBytes: 65_536,
      });
      expect(run.exitCode).toBe(0);
      expect(run.stdout.text).toBe('x'.repeat(65_536));
      expect(run.stdout).toMatchObject({ totalBytes: 10_485_760, truncated: true });
    });

    it('caps stderr on its own', async () => {
      const run = await org.run('head -c 100000 /dev/zero | tr "\\0" e >&2; echo fine', confinement, {
        maxOutputBytes: 1000,
      });
      expect(run.stdout.text).toBe('fine\n');
      expect(run.stderr.text).toHaveLength(1000);
      expect(run.stderr).toMatchObject({ totalBytes: 100_000, truncated: true });
    });

    it('stops a command that prints without end', async () => {
      const run = await org.run('yes', confinement, {
        maxOutputBytes: 1000,
        stopAfterBytes: 1_000_000,
        timeoutMs: 20_000,
      });
      expect(run.stopped).toBe('output_limit');
      expect(run.stdout.text).toBe('y\n'.repeat(500));
    });
  });
});

describe('a command that cannot start', () => {
  it('is a result that names the program, not a throw', async () => {
    const org = await createShellOrg();
    try {
      const places = { workingDirectory: org.workspace, mounts: [] };
      const result = await runShellCommand({
        command: 'true',
        confinement: {
          kind: 'bubblewrap',
          bwrapPath: `${org.root}/no-such-bwrap`,
          hardened: true,
          bindsOpenPlaces: true,
          systemRoots: [],
        },
        places,
        timeoutMs: 5000,
        maxOutputBytes: 1000,
        stopAfterBytes: 10_000,
      });
      expect(result).toEqual({ ok: false, error: expect.stringContaining(`${org.root}/no-such-bwrap`) });
    } finally {
      await org.dispose();
    }
  });

  it('is not started when the turn is already cancelled', async () => {
    const controller = new AbortController();
    controller.abort();
    const result = await runShellCommand({
      command: 'true',
      confinement: UNCONFINED,
      places: { workingDirectory: '/', mounts: [] },
      timeoutMs: 5000,
      maxOutputBytes: 1000,
      stopAfterBytes: 10_000,
      signal: controller.signal,
    });
    expect(result).toEqual({ ok: false, error: 'the command was cancelled before it started' });
  });
});
