import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { OrgTrust } from '../api/trust-schemas';
import { tempOrgs } from '../run/test-support/temp-org';
import { hostileOrg, type HostileOrg } from '../trust/test-support/hostile-org';
import { runCli } from './test-support/run-cli';

const orgs = tempOrgs();
const opened: HostileOrg[] = [];
afterEach(async () => {
  for (const hostile of opened.splice(0)) await hostile.close();
  orgs.cleanup();
});

async function hostile(): Promise<HostileOrg> {
  const made = await hostileOrg(orgs);
  opened.push(made);
  return made;
}

const lemming = (argv: string[], env: Record<string, string> = {}) =>
  runCli(argv, { env: { PATH: process.env.PATH ?? '', ...env } });

/** Nothing of the org ran: no marker written, no connection opened to the server it names. */
function nothingRan(org: HostileOrg, after: string): void {
  expect(org.mcpStarted(), `${after}: the MCP server's program was started`).toBe(false);
  expect(org.modelStarted(), `${after}: the cli model's program was started`).toBe(false);
  expect(org.connections(), `${after}: a connection was opened`).toBe(0);
}

describe('an org nobody trusted here', () => {
  it(
    'validate, status, timeline, tools, connectors, agents and inbox work on it and start nothing, contact nothing',
    { timeout: 60_000 },
    async () => {
      const org = await hostile();
      for (const argv of [
        ['validate', org.org],
        ['status', org.org],
        ['tools', org.org, 'clerk'],
        ['tools', org.org, 'caller', '--json'],
        ['connectors', org.org],
        ['connectors', org.org, '--json'],
        ['agents', org.org],
        ['agents', org.org, 'clerk'],
        ['inbox', org.org, 'clerk'],
        // The engine opened above made the timeline: there is one to read now.
        ['timeline', org.org],
      ]) {
        const result = await lemming(argv, org.secretEnv);
        expect(result.code, `lemming ${argv.join(' ')}: ${result.stderr}`).toBe(0);
        nothingRan(org, `lemming ${argv.join(' ')}`);
      }
      const connectors = await lemming(['connectors', org.org]);
      expect(connectors.stdout).toContain('status: not_trusted');
      expect(connectors.stdout).toContain('not started: this org is not trusted yet');
    },
  );

  it(
    'run, tick and call refuse, naming every program, address and secret it would use, and start nothing',
    { timeout: 60_000 },
    async () => {
      const org = await hostile();
      for (const argv of [
        ['run', org.org],
        ['tick', org.org],
        ['call', org.org, 'clerk', 'file_list', '{}'],
      ]) {
        const refused = await lemming(argv, org.secretEnv);
        expect(refused.code, `lemming ${argv.join(' ')}`).toBe(1);
        expect(refused.stderr).toContain('is not trusted yet, so nothing in it runs');
        for (const program of org.programs) expect(refused.stderr).toContain(program);
        for (const address of org.addresses) expect(refused.stderr).toContain(address);
        for (const secret of org.secrets) expect(refused.stderr).toContain(secret);
        expect(refused.stderr).toContain(`lemming trust ${JSON.stringify(org.org)} --yes`);
        nothingRan(org, `lemming ${argv.join(' ')}`);
      }
    },
  );

  it(
    'runs once its person trusts it as it is; a changed mcp.json entry makes it untrusted again, and `lemming trust` shows what changed',
    { timeout: 60_000 },
    async () => {
      const org = await hostile();
      const shown = await lemming(['trust', org.org]);
      expect(shown.code).toBe(0);
      expect(shown.stdout).toContain('is not trusted yet');
      expect(shown.stdout).toContain('Programs it would start on this computer, with your rights:');
      for (const thing of [...org.programs, ...org.addresses, ...org.secrets])
        expect(shown.stdout).toContain(thing);
      expect(shown.stdout).toContain('Agents that may send web requests');
      nothingRan(org, 'lemming trust');

      const trusted = await lemming(['trust', org.org, '--yes', '--grant', 'HOSTILE_KEY']);
      expect(trusted.code, trusted.stderr).toBe(0);
      expect(trusted.stdout).toMatch(/is trusted \(since .*\): it may run\./);
      expect(trusted.stdout).toMatch(/HOSTILE_KEY {2}\(granted to this org\)/);
      expect(trusted.stdout).toMatch(/TOOL_TOKEN {2}\(not granted to this org\)/);

      const run = await lemming(['run', org.org], org.secretEnv);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toMatch(/^tick 1: /m);
      expect(org.mcpStarted()).toBe(true);
      expect(org.modelStarted()).toBe(true);
      expect(org.connections()).toBeGreaterThan(0);

      const mcpFile = join(org.org, 'lemming/config/mcp.json');
      const mcp = JSON.parse(readFileSync(mcpFile, 'utf8')) as {
        mcpServers: { helper: { args: string[] } };
      };
      mcp.mcpServers.helper.args.push('--and-more');
      writeFileSync(mcpFile, JSON.stringify(mcp));
      const again = await lemming(['run', org.org], org.secretEnv);
      expect(again.code).toBe(1);
      expect(again.stderr).toContain('changed since you trusted it');
      expect(again.stderr).toContain('--and-more');

      const changed = await lemming(['trust', org.org]);
      expect(changed.stdout).toContain('What changed since you trusted it:');
      expect(changed.stdout).toMatch(/^ {2}\+ program .*--and-more, for the tool server “helper”/m);
      expect(changed.stdout).toMatch(/^ {2}- program (?!.*--and-more).*, for the tool server “helper”/m);
      const json = JSON.parse((await lemming(['trust', org.org, '--json'])).stdout) as OrgTrust;
      expect(json.state).toBe('changed');
      expect(json.grants.secrets).toEqual(['HOSTILE_KEY']);

      const revoked = await lemming(['trust', org.org, '--revoke', '--json']);
      expect((JSON.parse(revoked.stdout) as OrgTrust).state).toBe('untrusted');
      expect((await lemming(['trust', org.org, '--yes', '--revoke'])).code).toBe(2);
      expect((await lemming(['trust', org.org, '--grant', 'HOSTILE_KEY'])).code).toBe(2);
    },
  );

  it('an org `lemming init` creates is trusted by its creator', async () => {
    const folder = join(orgs.build({}), 'new-org');
    expect((await lemming(['init', folder])).code).toBe(0);
    const created = JSON.parse((await lemming(['trust', folder, '--json'])).stdout) as OrgTrust;
    expect(created.trustedAt).not.toBeNull();
    expect(created.state).toBe('not_needed');
  });
});
