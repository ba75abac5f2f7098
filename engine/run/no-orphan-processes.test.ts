import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { runningProgramCount } from '../processes/program-spawner';
import { isRunning } from '../processes/test-support/process-liveness';
import { RunController } from './run-controller';
import { REPO_ROOT, resume } from './test-support/temp-org';
import { engineWorld } from './test-support/engine-world';

const CHILD = join(REPO_ROOT, 'engine', 'run', 'test-support', 'crash-child.ts');
const world = engineWorld();
const { orgs } = world;

/**
 * An org whose one agent thinks with a `cli` model that writes its pid and the pid of a `sleep` it leaves
 * running in the background (holding the output pipe open) to `pids`. `answer` answers at once;
 * `hang` ignores SIGTERM — and so does its sleep — and never answers.
 */
function sleepyOrg(mode: 'answer' | 'hang') {
  const start = 'echo $$ >> pids; sleep 600 & echo $! >> pids;';
  const script = mode === 'answer' ? `${start} echo '{"notes": "done"}'` : `trap '' TERM; ${start} wait`;
  const org = orgs.build({
    'lemming/config/models.json': {
      sleepy: {
        provider: 'cli',
        model_name: 'sh',
        provider_config: {
          command: ['/bin/sh', '-c', script, 'sleepy'],
          env: { PATH: process.env.PATH },
          timeout_ms: 60_000,
        },
      },
    },
    'agents/sleeper/resume.json': resume('sleeper', { model: { key: 'sleepy' } }),
  });
  return {
    org,
    pids: () =>
      existsSync(join(org, 'pids'))
        ? readFileSync(join(org, 'pids'), 'utf8').split('\n').filter(Boolean).map(Number)
        : [],
  };
}

async function startedPids(pids: () => number[]): Promise<number[]> {
  for (let waited = 0; waited < 20_000; waited += 25) {
    if (pids().length === 2) return pids();
    await sleep(25);
  }
  throw new Error('the cli model never started');
}

/** An orphan lives on for good, so a generous wait costs nothing when all is well and hides nothing. */
async function expectAllGone(pids: number[]): Promise<void> {
  for (let waited = 0; waited < 10_000 && pids.some(isRunning); waited += 25) await sleep(25);
  expect(pids.filter(isRunning)).toEqual([]);
}

describe.skipIf(process.platform === 'win32')('no process outlives a run', () => {
  it('ends what a cli model left running in the background once the turn completes', async () => {
    const { org, pids } = sleepyOrg('answer');
    const engine = await world.open(org);
    const report = await engine.runTick();
    expect(report.turns).toHaveLength(1);
    const started = pids();
    expect(started).toHaveLength(2);
    await expectAllGone(started);
    expect(runningProgramCount()).toBe(0);
  });

  it(
    'ends a cli model that ignores SIGTERM, and its children, when the run is stopped and the org closed',
    { timeout: 30_000 },
    async () => {
      const { org, pids } = sleepyOrg('hang');
      const engine = await world.open(org);
      const controller = new RunController(engine, {});
      expect(controller.start().ok).toBe(true);
      const started = await startedPids(pids);
      await controller.dispose();
      await expectAllGone(started);
      expect(runningProgramCount()).toBe(0);
    },
  );

  for (const signal of ['SIGTERM', 'SIGINT', 'SIGKILL'] as const) {
    it(
      `ends every child when the engine's process gets ${signal} in the middle of a turn`,
      { timeout: 60_000 },
      async () => {
        const { org, pids } = sleepyOrg('hang');
        const engineProcess = spawn(process.execPath, ['--import', 'tsx', CHILD, org, '1'], {
          cwd: REPO_ROOT,
          stdio: 'ignore',
        });
        const exited = new Promise<NodeJS.Signals | null>((resolve) =>
          engineProcess.on('exit', (_code, by) => resolve(by)),
        );
        const started = await startedPids(pids);
        expect(started.every(isRunning)).toBe(true);
        engineProcess.kill(signal);
        expect(await exited).toBe(signal);
        await expectAllGone(started);
      },
    );
  }
});
