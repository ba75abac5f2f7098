import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../cli/main';
import { cliConfigDir } from '../cli/test-support/run-cli';
import { OrgEngine } from '../run/org-engine';
import { resume, tempOrgs } from '../run/test-support/temp-org';
import { trustAsIs } from '../trust/test-support/trust-as-is';

const orgs = tempOrgs();
afterAll(() => orgs.cleanup());

/** AgentClash's shape for a tool that hands its argument to the shell (issue 10, escape 3). */
const RUN_IT = `
name: run_it
description: Run a command
parameters:
  type: object
  properties:
    cmd: {type: string}
  required: [cmd]
implementation:
  primitive: shell
  args: {command: "\${cmd}"}
`;

/** A second composed tool in front of the first: the chain must be judged to its end. */
const RUN_IT_LATER = `
name: run_it_later
description: Run a command, through run_it
parameters:
  type: object
  properties:
    cmd: {type: string}
  required: [cmd]
implementation:
  primitive: run_it
  args: {cmd: "\${cmd}"}
`;

function orgWith(policy: Record<string, unknown>, tools: string[]): string {
  return orgs.build({
    'tools/run_it.yaml': RUN_IT,
    'tools/run_it_later.yaml': RUN_IT_LATER,
    'lemming/config/policy.json': {
      allowed_tool_kinds: ['file', 'memory', 'org', 'shell', 'network'],
      ...policy,
    },
    'agents/a/resume.json': resume('a', { permissions: { read_outboxes: [], tools } }),
    'agents/a/workspace/.keep': '',
  });
}

async function withEngine<T>(org: string, work: (engine: OrgEngine) => Promise<T>): Promise<T> {
  const engine = await OrgEngine.open({
    trust: await trustAsIs(org),
    orgPath: org,
    env: {},
  });
  try {
    return await work(engine);
  } finally {
    engine.close();
  }
}

const workspaceFiles = (org: string) => readdirSync(join(org, 'agents', 'a', 'workspace')).sort();

describe('a composed tool that delegates to a primitive is judged as the primitive', () => {
  it('does not run when the org denies the primitive, and says which layer refuses it and the fix', async () => {
    const org = orgWith({ tools: { deny: ['shell'] } }, ['run_it', 'run_it_later']);
    await withEngine(org, async (engine) => {
      for (const tool of ['run_it', 'run_it_later']) {
        const result = await engine.callTool('a', tool, { cmd: 'echo pwned > pwned.txt' });
        expect(result.success, tool).toBe(false);
        expect(result.error, tool).toContain('it runs shell, which the org denies to every agent');
      }
      const verdict = (await engine.explainTools('a')).find((candidate) => candidate.name === 'run_it')!;
      expect(verdict.available).toBe(false);
      expect(verdict.layers.find((layer) => !layer.passed)).toEqual({
        layer: 'delegate',
        passed: false,
        reason:
          'it runs shell, which the org denies to every agent (tools.deny in lemming/config/policy.json)',
        plain: 'it uses “Run a shell command”, which the org has turned off for every agent',
      });
      expect(verdict.fix?.plain).toBe(
        'stop turning “Run a shell command” off for the whole org, then let “Run it” use “Run a shell command” for a (and nothing else)',
      );
      expect(verdict.fix?.summary).toBe(
        'remove "shell" from tools.deny in lemming/config/policy.json, then add "run_it via shell" to a\'s permissions.tools',
      );
    });
    expect(workspaceFiles(org)).toEqual(['.keep']);
  });

  it('does not run when the agent has no grant of the primitive, and suggests the narrow delegation grant', async () => {
    const org = orgWith({}, ['run_it']);
    await withEngine(org, async (engine) => {
      expect((await engine.callTool('a', 'run_it', { cmd: 'echo pwned > pwned.txt' })).success).toBe(false);
      const verdict = (await engine.explainTools('a')).find((candidate) => candidate.name === 'run_it')!;
      expect(verdict.layers.find((layer) => !layer.passed)).toMatchObject({
        layer: 'delegate',
        reason:
          'it runs shell, which a\'s resume does not grant (add "shell", or "run_it via shell" to let only this tool use it, to permissions.tools)',
      });
      expect(verdict.fix?.summary).toBe('add "run_it via shell" to a\'s permissions.tools');
    });
    expect(existsSync(join(org, 'agents', 'a', 'workspace', 'pwned.txt'))).toBe(false);
  });

  it('runs with the explicit delegation grant, or with a grant of the primitive itself', async () => {
    for (const tools of [
      ['run_it', 'run_it via shell'],
      ['run_it', 'shell'],
      ['run_it', 'group:shell'],
    ]) {
      const org = orgWith({}, tools);
      await withEngine(org, async (engine) => {
        const result = await engine.callTool('a', 'run_it', { cmd: 'echo made > made.txt && echo ok' });
        expect(result, tools.join(', ')).toMatchObject({ success: true, output: 'ok\n' });
      });
    }
  });

  it('is explained by `lemming tools` with the layer and the fix', async () => {
    const org = orgWith({ tools: { deny: ['shell'] } }, ['run_it']);
    let stdout = '';
    const code = await main(['tools', org, 'a'], {
      stdout: { write: (text: string) => (stdout += text) },
      stderr: { write: (text: string) => text },
      env: { LEMMING_CONFIG_DIR: cliConfigDir() },
    });
    expect(code).toBe(0);
    expect(stdout).toMatch(
      /^ {2}no {3}run_it +shell +delegate: it runs shell, which the org denies to every agent \(tools\.deny in lemming\/config\/policy\.json\)\n {6}fix: remove "shell" from tools\.deny in lemming\/config\/policy\.json, then add "run_it via shell" to a's permissions\.tools$/m,
    );
  });

  it('is refused when the org denies a composed tool on its chain', async () => {
    const org = orgWith({ tools: { deny: ['run_it'] } }, ['run_it_later', 'shell']);
    await withEngine(org, async (engine) => {
      expect((await engine.callTool('a', 'run_it_later', { cmd: 'echo pwned > pwned.txt' })).success).toBe(
        false,
      );
      const verdict = (await engine.explainTools('a')).find(
        (candidate) => candidate.name === 'run_it_later',
      )!;
      expect(verdict.layers.find((layer) => !layer.passed)).toMatchObject({
        layer: 'delegate',
        reason:
          'it runs run_it, which the org denies to every agent (tools.deny in lemming/config/policy.json)',
      });
    });
    expect(workspaceFiles(org)).toEqual(['.keep']);
  });
});
