import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_ORG_POLICY, type OrgPolicy } from '../../org/policy-file';
import { type Resume } from '../../org/resume-schema';
import { TurnMemory } from '../../memory/turn-memory';
import { agentToolbox } from '../agent-toolbox';
import { memoryReadTool, memoryWriteTool } from '../lemming-core-tools';
import { resolveTools, type ToolVerdict } from '../policy-resolver';
import { TOOL_GROUPS, type CatalogEntry } from '../tool-catalog';
import { toolSuccess } from '../tool-result';
import type { ToolSpec } from '../tool-spec';
import { parseSkillFile } from './parse-skill-file';
import type { Skill } from './skill';
import { dispatchSkill, skillToolArguments, skillUsability } from './skill-usability';
import { parsedResume } from '../../run/test-support/temp-org';
import { createRedactor } from '../../secrets/redactor';

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** The lookup skillUsability takes, over a list of verdicts. */
const verdictIn = (verdicts: readonly ToolVerdict[]) => (tool: string) =>
  verdicts.find((verdict) => verdict.name === tool);

function skill(name: string, frontmatter = ''): Skill {
  const read = parseSkillFile(`---\nname: ${name}\ndescription: ${name}\n${frontmatter}---\n`, {
    folder: name,
    file: `agents/ada/skills/${name}/SKILL.md`,
  });
  if (!read.skill) throw new Error(JSON.stringify(read.problems));
  return read.skill;
}

/** A tool that answers with the arguments it got, to see what a dispatch passes. */
const echoTool: ToolSpec = {
  name: 'echo_args',
  kind: 'org',
  title: 'Echo',
  definition: { name: 'echo_args', description: 'Echo', parameters: { type: 'object' } },
  run: async (args) => toolSuccess(JSON.stringify(args)),
};

const catalog: CatalogEntry[] = [memoryReadTool, memoryWriteTool, echoTool].map((spec) => ({
  spec,
  grantedBy: [spec.name, TOOL_GROUPS[spec.kind]],
  readiness: { ready: true },
}));

function ada(tools: string[]): Resume {
  return parsedResume('ada', { permissions: { read_outboxes: [], tools } });
}

function toolsOf(resume: Resume, policy: OrgPolicy = DEFAULT_ORG_POLICY) {
  const agentDir = join(mkdtempSync(join(tmpdir(), 'lemming-skill-org-')), 'agents', 'ada');
  made.push(join(agentDir, '..', '..'));
  const memory = new TurnMemory(agentDir);
  const tools = agentToolbox({ policy, credits: 10, catalog: () => catalog, redaction: createRedactor() })({
    orgPath: join(agentDir, '..', '..'),
    agentDir,
    resume,
    tick: 1,
    memory,
    agents: [{ name: 'ada', title: 'Ada' }],
    budget: { availableMicro: () => 10_000_000, charge: () => undefined },
  });
  return { tools, memory };
}

describe('whether a skill can be used', () => {
  const remember = skill('remember', 'command-dispatch: tool\ncommand-tool: memory_write\n');

  it('a skill that only instructs always can', () => {
    expect(skillUsability(skill('style-guide'), verdictIn([]))).toEqual({ usable: true });
  });

  it('a dispatching skill can when the resolver makes its tool available', () => {
    const verdicts = resolveTools({
      resume: ada(['memory_write']),
      policy: DEFAULT_ORG_POLICY,
      catalog,
      credits: 10,
    });
    expect(skillUsability(remember, verdictIn(verdicts))).toEqual({ usable: true });
  });

  it("cannot when the tool is refused, with the resolver's reason and fix", () => {
    const verdicts = resolveTools({
      resume: ada(['memory_read']),
      policy: DEFAULT_ORG_POLICY,
      catalog,
      credits: 10,
    });
    expect(skillUsability(remember, verdictIn(verdicts))).toEqual({
      usable: false,
      reason:
        'it runs the tool "memory_write", which is not available: its resume does not grant it (add "memory_write" to permissions.tools)',
      fix: 'add "memory_write" to ada\'s permissions.tools',
    });
    const denied = resolveTools({
      resume: ada(['memory_write']),
      policy: { ...DEFAULT_ORG_POLICY, tools: { deny: ['memory_write'] } },
      catalog,
      credits: 10,
    });
    expect(skillUsability(remember, verdictIn(denied))).toMatchObject({
      usable: false,
      reason: expect.stringMatching(/the org denies it/),
    });
  });

  it('cannot when the tool does not exist, and no setting fixes that', () => {
    expect(
      skillUsability(skill('paint', 'command-dispatch: tool\ncommand-tool: generate_image\n'), verdictIn([])),
    ).toEqual({
      usable: false,
      reason: 'it runs the tool "generate_image", which does not exist in this org',
      fix: null,
    });
  });
});

describe('dispatching a skill', () => {
  it("calls its tool through the agent's toolbox, which runs it when the policy allows", async () => {
    const { tools, memory } = toolsOf(ada(['memory_write']));
    const result = await dispatchSkill(
      skill('remember', 'command-dispatch: tool\ncommand-tool: memory_write\n'),
      { key: 'topic', value: 'owls' },
      tools,
    );
    expect(result).toEqual({ success: true, output: "Saved memory key 'topic'", error: null });
    expect(memory.changes().map((change) => change.key)).toEqual(['topic']);
  });

  it('is refused like any call when the policy refuses the tool', async () => {
    const { tools, memory } = toolsOf(ada(['memory_read']));
    const result = await dispatchSkill(
      skill('remember', 'command-dispatch: tool\ncommand-tool: memory_write\n'),
      { key: 'topic', value: 'owls' },
      tools,
    );
    expect(result).toMatchObject({
      success: false,
      error: expect.stringMatching(
        /^Tool 'memory_write' not permitted for ada: its resume does not grant it/,
      ),
    });
    expect(memory.changes()).toEqual([]);
  });

  it('passes the request as text in raw mode, as OpenClaw does', async () => {
    const { tools } = toolsOf(ada(['echo_args']));
    const raw = skill('shout', 'command-dispatch: tool\ncommand-tool: echo_args\ncommand-arg-mode: raw\n');
    const result = await dispatchSkill(raw, 'make it loud', tools);
    expect(JSON.parse(result.output ?? '')).toEqual({
      command: 'make it loud',
      commandName: 'shout',
      skillName: 'shout',
    });
    expect(skillToolArguments(raw, { not: 'text' })).toMatchObject({ command: '{"not":"text"}' });
  });

  it('a skill that runs no tool says so instead of calling anything', async () => {
    const { tools } = toolsOf(ada(['echo_args']));
    expect(await dispatchSkill(skill('style-guide'), {}, tools)).toMatchObject({
      success: false,
      error: 'Skill "style-guide" runs no tool; follow its instructions instead',
    });
  });
});
