import { existsSync, readdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { AgentProblem } from '../api/schemas';
import { MODELS_FILE, parseModelsFile } from '../models/models-file';
import { readCredits } from '../org/credits-file';
import { discoverAgents } from '../org/discover';
import { readOrgConfig } from '../org/org-config-file';
import { readPolicy } from '../org/policy-file';
import { readNextTick } from '../org/tick-file';
import { readMcpConfig } from '../tools/mcp/mcp-config';

export interface ValidationReport {
  org: string;
  agents: { folder: string; name: string; valid: boolean }[];
  errors: AgentProblem[];
  warnings: AgentProblem[];
}

/** Everything wrong with an org, without running it: resumes, config files, and references between them. */
export async function validateOrg(org: string): Promise<ValidationReport> {
  const report: ValidationReport = { org, agents: [], errors: [], warnings: [] };
  const discovered = await discoverAgents(org);
  const names = new Set(discovered.map((agent) => (agent.valid ? agent.resume.name : agent.name)));

  const modelsText = await readFile(join(org, MODELS_FILE), 'utf8').catch(() => null);
  const models = modelsText === null ? null : parseModelsFile(modelsText);
  if (models === null)
    report.warnings.push({ file: MODELS_FILE, field: '', message: 'missing: no agent can call a model' });
  else {
    report.errors.push(...models.problems);
    report.warnings.push(...models.warnings);
  }
  const modelKeys = new Set(models?.entries.map((entry) => entry.key) ?? []);

  for (const read of [await readOrgConfig(org), await readCredits(org), await readPolicy(org)]) {
    if (read.ok) report.warnings.push(...read.warnings);
    else report.errors.push(...read.error);
  }
  const mcp = await readMcpConfig(org);
  if (!mcp.ok) report.errors.push(...mcp.error);
  else for (const entry of mcp.value.entries) if (!entry.valid) report.errors.push(...entry.problems);
  const tick = await readNextTick(org);
  if (!tick.ok) report.errors.push(...tick.error);

  report.warnings.push(...nestedAgentWarnings(org, new Set(discovered.map((agent) => agent.folder))));

  for (const agent of discovered) {
    if (!agent.valid) {
      report.agents.push({ folder: agent.folder, name: agent.name, valid: false });
      report.errors.push(...agent.problems);
      continue;
    }
    report.agents.push({ folder: agent.folder, name: agent.resume.name, valid: true });
    report.warnings.push(...agent.warnings);
    const { resume, resumeFile } = agent;
    // LeMMing's human pseudo-agent has model "none" and a schedule that never comes round.
    if (models && !modelKeys.has(resume.model.key) && resume.name !== 'human') {
      report.warnings.push({
        file: resumeFile,
        field: 'model.key',
        message: `"${resume.model.key}" is not in ${MODELS_FILE}; this agent's turns will fail`,
      });
    }
    const sources = resume.permissions.read_outboxes;
    if (sources.includes('*') && sources.length > 1) {
      report.warnings.push({
        file: resumeFile,
        field: 'permissions.read_outboxes',
        message: '"*" already means every other agent; the other names are redundant',
      });
    }
    for (const source of sources) {
      if (source !== '*' && !names.has(source))
        report.warnings.push({
          file: resumeFile,
          field: 'permissions.read_outboxes',
          message: `there is no agent named "${source}"`,
        });
    }
  }
  return report;
}

/**
 * LeMMing runs any resume.json it finds below agents/, e.g. agents/<team>/<name>/resume.json; this app
 * runs only agents/<name>/resume.json (an agent must not be able to create another by writing a file).
 */
function nestedAgentWarnings(org: string, agentFolders: ReadonlySet<string>): AgentProblem[] {
  const warnings: AgentProblem[] = [];
  const agentsDir = join(org, 'agents');
  for (const team of listFolders(agentsDir)) {
    if (agentFolders.has(team) || team === 'agent_template') continue;
    for (const nested of listFolders(join(agentsDir, team))) {
      const file = `agents/${team}/${nested}/resume.json`;
      if (!existsSync(join(org, file))) continue;
      warnings.push({
        file,
        field: '',
        message: `LeMMing runs this nested agent, but this app does not: it runs only agents/<name>/resume.json. Move the folder to agents/${nested} to run it here.`,
      });
    }
  }
  return warnings;
}

function listFolders(dir: string): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && !entry.name.startsWith('.'))
      .map((entry) => entry.name)
      .sort();
  } catch {
    return [];
  }
}
