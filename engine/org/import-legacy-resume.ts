import { join } from 'node:path';
import { writeFileAtomic } from '../files/atomic-write';
import { fileProblem, type FileProblem } from '../files/json-problems';
import { parseLegacyResumeTxt } from './legacy-resume-txt';
import { readTextFile } from '../files/read-text-file';
import { agentFolderProblem, createResumeText, resumeFileOf } from './resume-file';
import type { Resume } from './resume-schema';
import { runSerially } from '../files/serial-by-key';
import { agentPaths } from './org-layout';

export type LegacyImport =
  | { ok: true; text: string; resume: Resume; warnings: FileProblem[] }
  | { ok: false; problems: FileProblem[] };

/**
 * Creates `agents/<folder>/resume.json` from the folder's legacy resume.txt. The resume.txt is left
 * as it is; a folder that already has a resume.json is refused, so nothing is overwritten.
 */
export async function importLegacyResume(orgPath: string, folder: string): Promise<LegacyImport> {
  const legacyFile = agentPaths(folder).legacyResume;
  const resumeFile = resumeFileOf(folder);
  const badFolder = agentFolderProblem(folder);
  if (badFolder) return { ok: false, problems: [fileProblem(legacyFile, badFolder)] };
  const resumePath = join(orgPath, resumeFile);

  return runSerially(resumePath, async () => {
    const existing = await readTextFile(resumePath);
    if (existing.found) {
      return {
        ok: false,
        problems: [
          fileProblem(
            resumeFile,
            `${agentPaths(folder).root} already has a resume.json; nothing was imported`,
          ),
        ],
      };
    }
    if (!existing.missing) return { ok: false, problems: [fileProblem(resumeFile, existing.message)] };
    const legacy = await readTextFile(join(orgPath, legacyFile));
    if (!legacy.found) {
      return {
        ok: false,
        problems: [
          fileProblem(
            legacyFile,
            legacy.missing ? `${agentPaths(folder).root} has no resume.txt` : legacy.message,
          ),
        ],
      };
    }
    const parsed = parseLegacyResumeTxt(legacy.text, folder, legacyFile);
    if (!parsed.ok) return parsed;
    const created = createResumeText(parsed.draft);
    if (!created.ok) {
      return {
        ok: false,
        problems: created.error.map((problem) => ({
          ...problem,
          file: legacyFile,
          message: `after import: ${problem.message}`,
        })),
      };
    }
    try {
      await writeFileAtomic(resumePath, created.text);
    } catch (error) {
      return { ok: false, problems: [fileProblem(resumeFile, `cannot write: ${(error as Error).message}`)] };
    }
    return {
      ok: true,
      text: created.text,
      resume: created.value,
      warnings: [...parsed.warnings, ...created.warnings],
    };
  });
}
