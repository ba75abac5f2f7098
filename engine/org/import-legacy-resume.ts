import { join } from 'node:path';
import { writeFileAtomic } from '../files/atomic-write';
import { fileProblem } from '../files/json-problems';
import { parseLegacyResumeTxt } from './legacy-resume-txt';
import { readTextFile } from '../files/read-text-file';
import { agentFolderProblem, createResumeText, resumeFileOf, type CreatedResume } from './resume-file';
import { runSerially } from '../files/serial-by-key';
import { agentPaths } from './org-layout';

/** What an import made: the new resume.json's text and resume, as a new resume is made. */
export type LegacyImport = CreatedResume;

/**
 * Creates `agents/<folder>/resume.json` from the folder's legacy resume.txt. The resume.txt is left
 * as it is; a folder that already has a resume.json is refused, so nothing is overwritten.
 */
export async function importLegacyResume(orgPath: string, folder: string): Promise<LegacyImport> {
  const legacyFile = agentPaths(folder).legacyResume;
  const resumeFile = resumeFileOf(folder);
  const badFolder = agentFolderProblem(folder);
  if (badFolder) return { ok: false, error: [fileProblem(legacyFile, badFolder)] };
  const resumePath = join(orgPath, resumeFile);

  return runSerially(resumePath, async () => {
    const existing = await readTextFile(resumePath);
    if (existing.found) {
      return {
        ok: false,
        error: [
          fileProblem(
            resumeFile,
            `${agentPaths(folder).root} already has a resume.json; nothing was imported`,
          ),
        ],
      };
    }
    if (!existing.missing) return { ok: false, error: [fileProblem(resumeFile, existing.message)] };
    const legacy = await readTextFile(join(orgPath, legacyFile));
    if (!legacy.found) {
      return {
        ok: false,
        error: [
          fileProblem(
            legacyFile,
            legacy.missing ? `${agentPaths(folder).root} has no resume.txt` : legacy.message,
          ),
        ],
      };
    }
    const parsed = parseLegacyResumeTxt(legacy.text, folder, legacyFile);
    if (!parsed.ok) return parsed;
    const created = createResumeText(parsed.value);
    if (!created.ok) {
      return {
        ok: false,
        error: created.error.map((problem) => ({
          ...problem,
          file: legacyFile,
          message: `after import: ${problem.message}`,
        })),
      };
    }
    try {
      await writeFileAtomic(resumePath, created.text);
    } catch (error) {
      return { ok: false, error: [fileProblem(resumeFile, `cannot write: ${(error as Error).message}`)] };
    }
    return {
      ok: true,
      text: created.text,
      value: created.value,
      warnings: [...parsed.warnings, ...created.warnings],
    };
  });
}
