import type { Redaction } from '../../secrets/redactor';
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
export function skillsPrompt(
  skills: readonly Skill[],
  redaction: Pick<Redaction, 'cutText'>,
  options: SkillsPromptOptions = {},
): string {
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
      sections.push(skillSection(skill, options.maxBodyLength ?? DEFAULT_MAX_SKILL_BODY, redaction));
  }
  if (refusals.length > 0) sections.push(`## Skills you cannot use now\n${refusals.join('\n')}`);
  return sections.join('\n\n');
}

/** A skill's text is the org's: where it is cut, it is cut after redaction, as every text is. */
function skillSection(skill: Skill, maxBodyLength: number, redaction: Pick<Redaction, 'cutText'>): string {
  const parts = [`### ${skill.name}`, shorten(skill.description, MAX_DESCRIPTION_LENGTH, redaction)];
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
        : `${redaction.cutText(body, maxBodyLength)}\n[… ${body.length - maxBodyLength} more characters of this skill are left out]`,
    );
  }
  return parts.join('\n');
}

function shorten(text: string, length: number, redaction: Pick<Redaction, 'cutText'>): string {
  return text.length <= length ? text : `${redaction.cutText(text, length - 1)}…`;
}
