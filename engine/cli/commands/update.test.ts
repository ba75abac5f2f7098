import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEMO_ORG, tempOrgs } from '../../run/test-support/temp-org';
import { runCli } from '../test-support/run-cli';

const orgs = tempOrgs();
afterEach(() => orgs.cleanup());

function newerCopy(): string {
  const template = orgs.copy(DEMO_ORG);
  for (const [agent, instructions] of [
    ['writer', 'You write the launch note in plain words.'],
    ['researcher', 'You research the launch.'],
  ] as const) {
    const file = join(template, 'agents', agent, 'resume.json');
    const resume = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    writeFileSync(file, JSON.stringify({ ...resume, instructions }, null, 2));
  }
  return template;
}

const instructionsOf = (org: string, agent: string) =>
  (JSON.parse(readFileSync(join(org, 'agents', agent, 'resume.json'), 'utf8')) as { instructions: string })
    .instructions;

describe('lemming update', () => {
  it('prints each agent’s changes with the instructions’ diff and changes nothing without --yes', async () => {
    const org = orgs.copy(DEMO_ORG);
    const template = newerCopy();
    const shown = await runCli(['update', org, '--from', template]);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toContain(
      'writer: changes\n  Its instructions change: 1 line added, 1 line removed.',
    );
    expect(shown.stdout).toContain('    + You write the launch note in plain words.');
    expect(shown.stdout).toContain('Unchanged: human, manager');
    expect(shown.stdout).toContain('--yes');
    expect(instructionsOf(org, 'writer')).not.toBe('You write the launch note in plain words.');
  });

  it('applies only the agents named with --agent', async () => {
    const org = orgs.copy(DEMO_ORG);
    const template = newerCopy();
    const applied = await runCli(['update', org, '--from', template, '--agent', 'writer', '--yes']);
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.stdout).toBe('Updated: writer. Added: none. Removed: none.\n');
    expect(instructionsOf(org, 'writer')).toBe('You write the launch note in plain words.');
    expect(instructionsOf(org, 'researcher')).not.toBe('You research the launch.');
  });

  it('refuses an agent neither copy has, and --remove without --yes', async () => {
    const org = orgs.copy(DEMO_ORG);
    const template = newerCopy();
    expect(await runCli(['update', org, '--from', template, '--agent', 'nobody'])).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('Neither copy has an agent named "nobody"'),
    });
    expect(await runCli(['update', org, '--from', template, '--remove', 'human'])).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('--remove removes agents: give it with --yes.'),
    });
  });

  it('updates from a bundle of the newer copy, read through the same checks as an import', async () => {
    const org = orgs.copy(DEMO_ORG);
    const bundle = join(orgs.copy(DEMO_ORG), '..', 'newer.lemming.zip');
    const exported = await runCli(['bundle', 'export', newerCopy(), bundle]);
    expect(exported.code, exported.stderr).toBe(0);
    const applied = await runCli(['update', org, '--from', bundle, '--agent', 'writer', '--yes']);
    expect(applied.code, applied.stderr).toBe(0);
    expect(instructionsOf(org, 'writer')).toBe('You write the launch note in plain words.');
    writeFileSync(bundle, 'not a zip');
    expect(await runCli(['update', org, '--from', bundle])).toMatchObject({
      code: 1,
      stderr: expect.stringContaining('cannot be updated from'),
    });
  });

  it('updates from a template shipped with the command, by its name', async () => {
    const org = join(orgs.copy(DEMO_ORG), '..', 'desk');
    expect((await runCli(['init', org, '--template', 'research-desk'])).code).toBe(0);
    const shown = await runCli(['update', org, '--from-template', 'research-desk']);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toContain('Nothing to update.');
    expect(await runCli(['update', org, '--from-template', 'no-such-template'])).toMatchObject({
      code: 1,
      stderr: expect.stringContaining('There is no template “no-such-template”'),
    });
  });
});
