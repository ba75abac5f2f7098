import { MAX_DESCRIPTION_LENGTH } from './parse-skill-file';
import type { Skill } from './skill';
import type { SkillUsability } from './skill-usability';

/** Instructions of one skill beyond this are left out of the prompt, saying so. */
export const DEFAULT_MAX_SKILL_BODY = 4000;

const USABLE: SkillUsability = { usable: true };

export interface SkillsPromptOptions {
  /** Each skill's usability for this agent (skillUsability); skills without an entry count as usable. */
  usability?: ReadonlyMap<string, SkillUsability>;
  maxBodyLength?: number;
}

/**
 * The part of an agent's context that lists its skills: each usable skill's name, description, how to
 * invoke it when it runs a tool, and its instructions; then the skills it cannot use now and why, so
 * the model says "not permitted" instead of inventing a reason. Empty when there is nothing to show.
 */
export function skillsPrompt(skills: readonly Skill[], options: SkillsPromptOptions = {}): string {
  const judged = skills
    .filter((skill) => skill.shownToModel)
    .map((skill) => ({ skill, usability: options.usability?.get(skill.name) ?? USABLE }));
  const usable = judged.filter(({ usability }) => usability.usable).map(({ skill }) => skill);
  const refusals = judged.flatMap(({ skill, usability }) =>
    usability.usable ? [] : [`- ${skill.name}: ${usability.reason}`],
  );
  const sections: string[] = [];
  if (usable.length > 0) {
    sections.push(
      '## Skills\nEach skill explains how to do one kind of task. When a task matches a skill, follow it.',
    );
    for (const skill of usable)
      sections.push(skillSection(skill, options.maxBodyLength ?? DEFAULT_MAX_SKILL_BODY));
  }
  if (refusals.length > 0) sections.push(`## Skills you cannot use now\n${refusals.join('\n')}`);
  return sections.join('\n\n');
}

function skillSection(skill: Skill, maxBodyLength: number): string {
  const parts = [`### ${skill.name}`, shorten(skill.description, MAX_DESCRIPTION_LENGTH)];
  if (skill.dispatch) {
    parts.push(
      skill.dispatch.argMode === 'raw'
        ? `Use it by calling the tool "${skill.dispatch.tool}" with {"command": "<what you want, as text>"}.`
        : `Use it by calling the tool "${skill.dispatch.tool}".`,
    );
  }
  const body = skill.body.trim();
  if (body !== '') {
    parts.push(
      body.length <= maxBodyLength
        ? body
        : `${body.slice(0, maxBodyLength)}\n[… ${body.length - maxBodyLength} more characters of this skill are left out]`,
    );
  }
  return parts.join('\n');
}

function shorten(text: string, length: number): string {
  return text.length <= length ? text : `${text.slice(0, length - 1)}…`;
}
