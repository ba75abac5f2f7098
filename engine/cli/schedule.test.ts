import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEMO_ORG, tempOrgs } from '../run/test-support/temp-org';
import { runCli } from './test-support/run-cli';

const orgs = tempOrgs();
afterEach(() => orgs.cleanup());

const lemming = (...argv: string[]) => runCli(argv);
const resumeOf = (org: string, agent: string) =>
  JSON.parse(readFileSync(join(org, 'agents', agent, 'resume.json'), 'utf8')) as Record<string, unknown>;

describe('switching an agent off and on, and its next turn in words', () => {
  it('lemming agents --switch-off keeps it from running, its due turn recorded as skipped; --switch-on brings it back', async () => {
    const org = orgs.copy(DEMO_ORG);
    expect((await lemming('trust', org, '--yes')).code).toBe(0);

    const off = await lemming('agents', org, '--switch-off', 'manager');
    expect(off).toMatchObject({ code: 0, stderr: '' });
    expect(off.stdout).toBe(
      'manager is switched off: it takes no turns until switched on; next turn switched off.\n',
    );
    expect(resumeOf(org, 'manager').switched_off).toBe(true);
    expect((await lemming('agents', org, 'manager')).stdout).toContain(
      'Switched off: it takes no turns until you switch it on.',
    );

    expect((await lemming('tick', org)).stdout).toBe(
      'tick 1: manager skipped (switched off), researcher completed, writer completed\n',
    );
    const status = await lemming('status', org);
    expect(status.stdout).toMatch(/ {2}manager .* next turn switched off {2}/);
    // The demo org's base_turn_seconds is 1; the writer runs every second tick, from tick 1.
    expect(status.stdout).toMatch(/ {2}writer .* next turn in 2 ticks, about 1 second {2}/);
    expect(status.stdout).toMatch(/ {2}human .* next turn never \(this is you\) {2}/);

    expect((await lemming('agents', org, '--switch-on', 'manager')).stdout).toBe(
      'manager is switched on; next turn at the next tick.\n',
    );
    expect('switched_off' in resumeOf(org, 'manager')).toBe(false);
    expect((await lemming('tick', org)).stdout).toMatch(/^tick 2: manager completed/);
  });

  it('refuses both switches at once, and an agent that is not there', async () => {
    const org = orgs.copy(DEMO_ORG);
    expect(
      (await lemming('agents', org, '--switch-off', 'manager', '--switch-on', 'writer')).stderr,
    ).toContain('Give --switch-off or --switch-on, not both.');
    const missing = await lemming('agents', org, '--switch-off', 'nobody');
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toContain('nobody');
  });
});
