import { lstatSync, readdirSync, readFileSync, type Dirent } from 'node:fs';
import { join } from 'node:path';
import type { Result } from '../../api/result';
import { compareCodePoints } from '../../org/schedule';
import { parseSkillFile } from './parse-skill-file';
import { SKILL_FILE, type Skill, type SkillProblem } from './skill';
import { agentPaths, inOrg } from '../../org/org-layout';

/** A SKILL.md bigger than this is refused: it would crowd the agent's context. */
export const MAX_SKILL_FILE_BYTES = 256 * 1024;

export interface LoadedSkills {
  skills: Skill[];
  problems: SkillProblem[];
}

/**
 * An agent's skills: `agents/<folder>/skills/<skill>/SKILL.md`, at that depth only, in folder order.
 * Links are not followed (a link could bring any file on the machine into the prompt); a skill with
 * an error is left out and its problem reported; a second skill with a taken name is an error.
 */
export async function loadSkills(orgPath: string, agentFolder: string): Promise<LoadedSkills> {
  const relativeFolder = agentPaths(agentFolder).skills;
  const folder = inOrg(orgPath, relativeFolder);
  const entries = skillFolderEntries(folder);
  const skills: Skill[] = [];
  const problems: SkillProblem[] = [];
  const owners = new Map<string, string>();
  for (const entry of [...entries].sort((a, b) => compareCodePoints(a.name, b.name))) {
    if (entry.name.startsWith('.')) continue;
    const file = `${relativeFolder}/${entry.name}/${SKILL_FILE}`;
    const warn = (message: string) => problems.push({ severity: 'warning', file, field: '', message });
    if (entry.isSymbolicLink()) {
      warn(
        `skipped: ${relativeFolder}/${entry.name} is a link; a skill must be a real folder inside the agent's folder`,
      );
      continue;
    }
    if (!entry.isDirectory()) continue;
    const read = await readSkillText(join(folder, entry.name, SKILL_FILE));
    if (!read.ok) {
      problems.push({ severity: read.error.severity, file, field: '', message: read.error.message });
      continue;
    }
    const parsed = parseSkillFile(read.value, { folder: entry.name, file });
    problems.push(...parsed.problems);
    if (!parsed.skill) continue;
    const owner = owners.get(parsed.skill.name);
    if (owner !== undefined) {
      problems.push({
        severity: 'error',
        file,
        field: 'name',
        message: `the name "${parsed.skill.name}" is already used by ${relativeFolder}/${owner}; this skill is left out`,
      });
      continue;
    }
    owners.set(parsed.skill.name, entry.name);
    skills.push(parsed.skill);
  }
  return { skills, problems };
}

/** Synchronous, like the engine's other reads of small org files: see engine/org/read-text-file.ts. */
function skillFolderEntries(folder: string): Dirent[] {
  try {
    return readdirSync(folder, { withFileTypes: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return [];
    throw error;
  }
}

/** A skill file's text, or why it is skipped (a warning) or refused (an error). */
type SkillText = Result<string, Pick<SkillProblem, 'severity' | 'message'>>;

async function readSkillText(path: string): Promise<SkillText> {
  const info = lstatSync(path, { throwIfNoEntry: false }) ?? null;
  if (!info)
    return { ok: false, error: { severity: 'warning', message: `skipped: the folder has no ${SKILL_FILE}` } };
  if (info.isSymbolicLink())
    return {
      ok: false,
      error: { severity: 'error', message: `${SKILL_FILE} is a link; it must be a real file` },
    };
  if (!info.isFile())
    return { ok: false, error: { severity: 'error', message: `${SKILL_FILE} is not a file` } };
  if (info.size > MAX_SKILL_FILE_BYTES)
    return {
      ok: false,
      error: {
        severity: 'error',
        message: `${SKILL_FILE} is ${info.size} bytes; at most ${MAX_SKILL_FILE_BYTES} are read`,
      },
    };
  try {
    return { ok: true, value: readFileSync(path, 'utf8') };
  } catch (error) {
    return {
      ok: false,
      error: { severity: 'error', message: `cannot read ${SKILL_FILE}: ${(error as Error).message}` },
    };
  }
}
