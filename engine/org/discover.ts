import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { AgentProblem } from '../api/schemas';
import { fileProblem } from '../files/json-problems';
import { setTimeout } from 'node:timers/promises';
import { readTextFile, type TextFileRead } from '../files/read-text-file';
import { checkResumeText, MAX_RESUME_BYTES, resumeFileOf, type ResumeCheck } from './resume-file';
import type { Resume } from './resume-schema';
import { deepFreeze } from '../files/deep-freeze';
import { whenExists } from '../files/when-exists';
import { AGENTS_FOLDER, agentPaths } from './org-layout';
import { compareCodePoints } from './schedule';

/** LeMMing skips this folder: it holds the template new agents are copied from. */
const TEMPLATE_FOLDER = 'agent_template';

export type DiscoveredAgent =
  | {
      folder: string;
      resumeFile: string;
      valid: true;
      resume: Resume;
      raw: unknown;
      warnings: AgentProblem[];
    }
  | {
      folder: string;
      resumeFile: string;
      valid: false;
      name: string;
      title: string | null;
      problems: AgentProblem[];
      warnings: AgentProblem[];
      /** Set when resume.json exists but could not be read (after a few tries): what the system said. */
      readError?: string;
    };

/** How resume files are read; a test replaces it to make a read fail. */
export type ResumeReader = (path: string, options: { maxBytes: number }) => Promise<TextFileRead>;

/** A read that fails for a moment (EIO, EAGAIN, a file being replaced) is tried this often before it counts. */
const RESUME_READ_TRIES = 3;
const RESUME_READ_PAUSE_MS = 20;

/**
 * Who an invalid resume stops, for "… will not run": its name, or its folder when the name is another
 * folder's too (a duplicated name), so the agent that does run under that name is not the one named.
 */
export function invalidAgentLabel(agent: { folder: string; name: string }): string {
  return agent.folder === agent.name ? agent.name : `${AGENTS_FOLDER}/${agent.folder}`;
}

/**
 * Finds agents at `agents/<folder>/resume.json` and nowhere deeper, so an agent that writes a
 * resume.json into its own workspace cannot create a new agent. Invalid resumes are returned with
 * their problems, never thrown. A folder with only a legacy resume.txt is listed as invalid with a
 * problem saying it can be imported; a folder with neither is not an agent.
 */
export async function discoverAgents(
  orgPath: string,
  cache?: ResumeCache,
  readResumeText: ResumeReader = readTextFile,
): Promise<DiscoveredAgent[]> {
  const agentsDir = join(orgPath, AGENTS_FOLDER);
  const entries = whenExists(() => readdirSync(agentsDir, { withFileTypes: true })) ?? [];
  const folders = entries
    .filter((entry) => entry.isDirectory() && !entry.name.startsWith('.') && entry.name !== TEMPLATE_FOLDER)
    .map((entry) => entry.name)
    .sort(compareCodePoints);

  const check = cache ? cache.checker() : checkResumeText;
  const read = await Promise.all(
    folders.map((folder) => readAgentFolder(orgPath, folder, check, readResumeText)),
  );
  return markDuplicateNames(read.filter((agent): agent is DiscoveredAgent => agent !== null));
}

/**
 * Checked resumes by file, reused while a file's text is unchanged: a run reads every resume at every
 * tick (so an edit takes effect on the next one), and checking one against the schema costs more than
 * reading it. Each discovery keeps only the files it saw.
 */
export class ResumeCache {
  private entries = new Map<string, { text: string; checked: ResumeCheck }>();

  /** A checker for one discovery; entries of files that discovery does not read are dropped. */
  checker(): (text: string, file: string) => ResumeCheck {
    const previous = this.entries;
    this.entries = new Map();
    return (text, file) => {
      const known = previous.get(file);
      // Frozen, because every tick hands out the same resume objects.
      const checked = known?.text === text ? known.checked : deepFreeze(checkResumeText(text, file));
      this.entries.set(file, { text, checked });
      return checked;
    };
  }
}

async function readAgentFolder(
  orgPath: string,
  folder: string,
  check: (text: string, file: string) => ResumeCheck,
  readResumeText: ResumeReader,
): Promise<DiscoveredAgent | null> {
  const resumeFile = resumeFileOf(folder);
  const read = await readWithRetries(() =>
    readResumeText(join(orgPath, resumeFile), { maxBytes: MAX_RESUME_BYTES }),
  );
  if (!read.found) {
    if (!read.missing)
      return {
        ...invalid(folder, resumeFile, null, [fileProblem(resumeFile, read.message)]),
        ...(read.tooLarge ? {} : { readError: read.message }),
      };
    const legacyFile = agentPaths(folder).legacyResume;
    const legacy = await readTextFile(join(orgPath, legacyFile));
    if (!legacy.found) return null;
    return invalid(folder, resumeFile, null, [
      fileProblem(legacyFile, 'this agent only has a legacy resume.txt; import it to create its resume.json'),
    ]);
  }

  const checked = check(read.text, resumeFile);
  if (!checked.ok) return invalid(folder, resumeFile, checked.raw, checked.error);
  const resume = checked.value;
  const misnamed =
    resume.name === folder
      ? []
      : [
          fileProblem(
            resumeFile,
            `the agent is named "${resume.name}" but lives in folder "${folder}"`,
            'name',
          ),
        ];
  return {
    folder,
    resumeFile,
    valid: true,
    resume,
    raw: checked.raw,
    warnings: [...misnamed, ...checked.warnings],
  };
}

async function readWithRetries(read: () => Promise<TextFileRead>): Promise<TextFileRead> {
  let result = await read();
  for (
    let tried = 1;
    tried < RESUME_READ_TRIES && !result.found && !result.missing && !result.tooLarge;
    tried += 1
  ) {
    await setTimeout(RESUME_READ_PAUSE_MS);
    result = await read();
  }
  return result;
}

function invalid(
  folder: string,
  resumeFile: string,
  raw: unknown,
  problems: AgentProblem[],
): DiscoveredAgent {
  const record = typeof raw === 'object' && raw !== null ? (raw as Record<string, unknown>) : {};
  return {
    folder,
    resumeFile,
    valid: false,
    name: typeof record.name === 'string' && record.name.trim() ? record.name : folder,
    title: typeof record.title === 'string' ? record.title : null,
    problems,
    warnings: [],
  };
}

/** Identity is resume.name; a second agent claiming a taken name is invalid (folders are visited in code-point order). */
function markDuplicateNames(agents: DiscoveredAgent[]): DiscoveredAgent[] {
  const owners = new Map<string, string>();
  return agents.map((agent) => {
    if (!agent.valid) return agent;
    const owner = owners.get(agent.resume.name);
    if (owner === undefined) {
      owners.set(agent.resume.name, agent.folder);
      return agent;
    }
    return {
      folder: agent.folder,
      resumeFile: agent.resumeFile,
      valid: false,
      name: agent.resume.name,
      title: agent.resume.title,
      problems: [
        fileProblem(
          agent.resumeFile,
          `the name "${agent.resume.name}" is already used by ${agentPaths(owner).root}`,
          'name',
        ),
      ],
      warnings: agent.warnings,
    };
  });
}
