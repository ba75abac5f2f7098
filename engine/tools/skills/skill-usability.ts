import type { AgentTools } from '../agent-tools';
import { refusalOf } from '../agent-toolbox';
import type { ToolVerdict } from '../policy-resolver';
import { toolFailure, type ToolResult } from '../tool-result';
import type { Skill } from './skill';

export type SkillUsability = { usable: true } | { usable: false; reason: string; fix: string | null };

/**
 * Whether an agent can use a skill, from the policy resolver's verdict for that agent on the skill's
 * tool (`verdictOf`): a skill that only instructs always can; one that runs a tool can when, and only
 * when, that tool is available, so dispatch never gets around the policy (OpenClaw #75124).
 */
export function skillUsability(
  skill: Skill,
  verdictOf: (tool: string) => ToolVerdict | undefined,
): SkillUsability {
  if (!skill.dispatch) return { usable: true };
  const tool = skill.dispatch.tool;
  const verdict = verdictOf(tool);
  if (!verdict)
    return {
      usable: false,
      reason: `it runs the tool "${tool}", which does not exist in this org`,
      fix: null,
    };
  if (verdict.available) return { usable: true };
  return {
    usable: false,
    reason: `it runs the tool "${tool}", which is not available: ${refusalOf(verdict)}`,
    fix: verdict.fix?.summary ?? null,
  };
}

/** The arguments the skill's tool gets for a request: as given, or as `{command}` text in raw mode (OpenClaw's shape). */
export function skillToolArguments(skill: Skill, request: unknown): unknown {
  if (skill.dispatch?.argMode !== 'raw') return request ?? {};
  const command = typeof request === 'string' ? request : JSON.stringify(request ?? '');
  return { command, commandName: skill.name, skillName: skill.name };
}

/**
 * Runs a dispatched skill: a call of its tool through the agent's toolbox, which checks the policy
 * resolver again, charges costs and runs inside the sandbox, like any other call. Never throws.
 */
export async function dispatchSkill(skill: Skill, request: unknown, tools: AgentTools): Promise<ToolResult> {
  if (!skill.dispatch)
    return toolFailure(`Skill "${skill.name}" runs no tool; follow its instructions instead`);
  return tools.call(skill.dispatch.tool, skillToolArguments(skill, request));
}
