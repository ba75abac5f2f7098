import { createHash } from 'node:crypto';
import { lstatSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileProblem } from '../files/json-problems';
import type { Problem } from '../api/problem';
import { readTextFile } from '../files/read-text-file';
import { discoverAgents } from './discover';
import { agentPaths, inOrg } from './org-layout';
import { MAX_RESUME_BYTES } from './resume-file';
import type { Resume } from './resume-schema';

/** The folders of an agent that define its tools, beside its resume. */
export const TOOL_FOLDERS = ['skills', 'api-tools'] as const;
export type ToolFolder = (typeof TOOL_FOLDERS)[number];

const MAX_TOOL_FILES = 500;
const MAX_TOOL_FILE_BYTES = 1024 * 1024;

/**
 * What an agent is, as opposed to what it has learned and done: its resume and its tool files. Its
 * memory, outbox, workspace, logs and identity are not part of it.
 */
export interface AgentDefinition {
  name: string;
  folder: string;
  resumeText: string;
  raw: Record<string, unknown>;
  resume: Resume;
  /** Each regular file under skills/ and api-tools/, by its path in the agent folder ("skills/x/SKILL.md"): its sha256. */
  toolFiles: Record<string, string>;
}

export interface AgentDefinitions {
  definitions: AgentDefinition[];
  /** Agents that cannot be read and tool files that are skipped (links, too large, too many). */
  problems: Problem[];
}

/** Every valid agent's definition in an org folder; nothing in it is followed through a link or run. */
export async function readAgentDefinitions(orgPath: string): Promise<AgentDefinitions> {
  const read: AgentDefinitions = { definitions: [], problems: [] };
  for (const agent of await discoverAgents(orgPath)) {
    if (!agent.valid) {
      read.problems.push(...agent.problems.slice(0, 1));
      continue;
    }
    if (lstatSync(inOrg(orgPath, agent.resumeFile), { throwIfNoEntry: false })?.isSymbolicLink()) {
      read.problems.push(fileProblem(agent.resumeFile, 'skipped: it is a link to another file'));
      continue;
    }
    const text = await readTextFile(inOrg(orgPath, agent.resumeFile), { maxBytes: MAX_RESUME_BYTES });
    if (!text.found || typeof agent.raw !== 'object' || agent.raw === null) continue;
    const toolFiles: Record<string, string> = {};
    for (const folder of TOOL_FOLDERS) listToolFiles(orgPath, agent.folder, folder, toolFiles, read.problems);
    read.definitions.push({
      name: agent.resume.name,
      folder: agent.folder,
      resumeText: text.text,
      raw: agent.raw as Record<string, unknown>,
      resume: agent.resume,
      toolFiles,
    });
  }
  return read;
}

function listToolFiles(
  orgPath: string,
  agentFolder: string,
  toolFolder: ToolFolder,
  into: Record<string, string>,
  problems: Problem[],
): void {
  const root = inOrg(orgPath, agentPaths(agentFolder).root);
  const pending: string[] = [toolFolder];
  while (pending.length > 0) {
    const relative = pending.pop()!;
    const where = `${agentPaths(agentFolder).root}/${relative}`;
    const stats = lstatSync(join(root, relative), { throwIfNoEntry: false });
    if (!stats) continue;
    if (stats.isDirectory()) {
      for (const name of readdirSync(join(root, relative)).sort()) pending.push(`${relative}/${name}`);
    } else if (!stats.isFile()) {
      problems.push(
        fileProblem(where, 'skipped: only plain files and folders are read here, not links or devices'),
      );
    } else if (stats.size > MAX_TOOL_FILE_BYTES) {
      problems.push(
        fileProblem(where, `skipped: larger than ${MAX_TOOL_FILE_BYTES.toLocaleString('en')} bytes`),
      );
    } else if (Object.keys(into).length >= MAX_TOOL_FILES) {
      problems.push(fileProblem(where, `skipped: an agent may have at most ${MAX_TOOL_FILES} tool files`));
    } else {
      into[relative] = createHash('sha256')
        .update(readFileSync(join(root, relative)))
        .digest('hex');
    }
  }
}
