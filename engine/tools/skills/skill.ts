import { z } from 'zod';
import { AgentProblem } from '../../api/schemas';

export const SKILL_FILE = 'SKILL.md';

/** A skill that runs a tool: the model (or the user) invokes the skill by calling `tool`. */
export const SkillDispatch = z.object({
  tool: z.string(),
  /** `raw` (OpenClaw's `command-arg-mode: raw`): the tool gets `{command: <the request as text>}`. */
  argMode: z.enum(['object', 'raw']),
});
export type SkillDispatch = z.infer<typeof SkillDispatch>;

/** One `agents/<folder>/skills/<skill>/SKILL.md`: frontmatter and markdown instructions. */
export const Skill = z.object({
  name: z.string(),
  /** The folder under `skills/`. */
  folder: z.string(),
  /** The SKILL.md, relative to the org folder. */
  file: z.string(),
  description: z.string(),
  dispatch: SkillDispatch.nullable(),
  /** False for `disable-model-invocation: true`: the model is not told about the skill. */
  shownToModel: z.boolean(),
  /** The markdown after the frontmatter. */
  body: z.string(),
  /** The frontmatter as written, keys this app does not use included. */
  frontmatter: z.record(z.string(), z.unknown()),
});
export type Skill = z.infer<typeof Skill>;

/** A problem in a SKILL.md: an error keeps the skill out, a warning does not. */
export const SkillProblem = AgentProblem.extend({ severity: z.enum(['error', 'warning']) });
export type SkillProblem = z.infer<typeof SkillProblem>;
