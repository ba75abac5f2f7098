import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { plainFailure } from '../api/failure-words';
import { failureOfError } from '../api/older-failure';
import { resume, tempOrgs } from '../run/test-support/temp-org';
import { runCli } from './test-support/run-cli';

const orgs = tempOrgs();
afterEach(() => orgs.cleanup());

const lemming = (...argv: string[]) => runCli(argv);

const SCRIPTED = {
  'lemming/config/models.json': {
    scripted: { provider: 'scripted', model_name: 's', provider_config: { script: 'script.json' } },
  },
  'script.json': {
    default: [{ respond: { outbox_entries: [{ kind: 'message', payload: { text: 'hi' } }], notes: 'ok' } }],
  },
};

describe('what run and status say matches what happens', () => {
  it(
    'a name two folders share: the folder that runs is not said not to run',
    { timeout: 60_000 },
    async () => {
      const org = orgs.build({
        ...SCRIPTED,
        'agents/w1/resume.json': resume('w1'),
        'agents/w1b/resume.json': resume('w1'),
      });
      const run = await lemming('run', org, '--ticks', '1');
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toMatch(/^invalid resume, agents\/w1b will not run: .*already used by agents\/w1$/m);
      expect(run.stdout).not.toMatch(/\bw1 will not run/);
      expect(run.stdout).toMatch(
        /^tick 1: agents\/w1b skipped \(its resume cannot be used\), w1 completed$/m,
      );
      const warnings = await lemming('timeline', org, '--kind', 'warning', '--json');
      expect(warnings.stdout).toContain('agents/w1b will not run');
      expect(warnings.stdout).not.toMatch(/"w1 will not run/);
    },
  );

  it(
    'send refuses a message longer than the app takes, and writes nothing',
    { timeout: 60_000 },
    async () => {
      const org = orgs.build({ ...SCRIPTED, 'agents/w1/resume.json': resume('w1') });
      const sent = await lemming('send', org, 'x'.repeat(120_000));
      expect(sent.code).not.toBe(0);
      expect(sent.stderr).toMatch(/at most 100,000 characters/);
      expect(
        existsSync(join(org, 'agents', 'human', 'outbox'))
          ? readdirSync(join(org, 'agents', 'human', 'outbox'))
          : [],
      ).toEqual([]);
      expect((await lemming('send', org, 'x'.repeat(100_000))).code).toBe(0);
    },
  );

  it(
    'a broken models.json is named in the plain words of the turn it failed',
    { timeout: 60_000 },
    async () => {
      const org = orgs.build({
        'agents/w1/resume.json': resume('w1'),
        'lemming/config/models.json': '{ "scripted": ',
      });
      expect((await lemming('trust', org, '--yes')).code).toBe(0);
      await lemming('run', org, '--ticks', '1');
      const listed = await lemming('timeline', org, '--kind', 'error', '--json');
      const [error] = (
        JSON.parse(listed.stdout) as {
          events: { event: { reason: string; message: string; failure?: unknown } }[];
        }
      ).events;
      expect(error?.event.reason).toBe('model_unavailable');
      const words = plainFailure(error!.event.reason, failureOfError(error!.event));
      expect(words).toMatch(/models\.json/);
      expect(words).not.toMatch(/Its model is not set up/);
    },
  );

  it('status shows the balances in credits.json of an org LeMMing ran, before this app ran it', async () => {
    const org = orgs.build({
      ...SCRIPTED,
      'agents/w1/resume.json': resume('w1'),
      'lemming/config/tick.json': { current_tick: 12 },
      'lemming/config/credits.json': { w1: { model: 'scripted', cost_per_action: 0.01, credits_left: 42.5 } },
    });
    const status = await lemming('status', org);
    expect(status.stdout).toMatch(/^ {2}w1 {2}w1 title {2}credits 42\.5 /m);
    expect(status.stdout).not.toMatch(/not yet seeded/);
  });
});
