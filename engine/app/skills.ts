import { ok, type IpcResult } from '../api/result';
import { discoverAgents } from '../org/discover';
import { loadSkills } from '../tools/skills/load-skills';
import type { Skill, SkillProblem } from '../tools/skills/skill';
import { skillUsability, type SkillUsability } from '../tools/skills/skill-usability';
import { findAgent, nameOf } from './agent-lookup';
import type { OrgContext } from './org-context';

export interface AgentSkills {
  agent: string;
  skills: (Pick<Skill, 'name' | 'file' | 'description' | 'dispatch'> & { usability: SkillUsability })[];
  /** SKILL.md files that did not load (errors) or loaded with something to fix (warnings). */
  problems: SkillProblem[];
}

/** The agent's skills, each judged against the policy resolver's verdicts for that agent. */
export async function explainSkills(context: OrgContext, agentName: string): Promise<IpcResult<AgentSkills>> {
  const found = await findAgent(context.orgPath, agentName);
  if (!found.ok) return found;
  const agent = nameOf(found.value);
  const loaded = await loadSkills(context.orgPath, found.value.folder);
  if (loaded.skills.length === 0) return ok({ agent, skills: [], problems: loaded.problems });
  const verdicts = new Map(
    (await context.engine.explainTools(agent)).map((verdict) => [verdict.name, verdict]),
  );
  return ok({
    agent,
    skills: loaded.skills.map((skill) => ({
      name: skill.name,
      file: skill.file,
      description: skill.description,
      dispatch: skill.dispatch,
      usability: skillUsability(skill, (tool) => verdicts.get(tool)),
    })),
    problems: loaded.problems,
  });
}

/** Every valid agent that has skills (or SKILL.md files with problems), with its skills judged. */
export async function orgSkills(context: OrgContext): Promise<AgentSkills[]> {
  const judged: AgentSkills[] = [];
  for (const agent of await discoverAgents(context.orgPath)) {
    if (!agent.valid) continue;
    const explained = await explainSkills(context, agent.resume.name);
    if (explained.ok && (explained.value.skills.length > 0 || explained.value.problems.length > 0))
      judged.push(explained.value);
  }
  return judged;
}
