import { discoverAgents } from '../../org/discover';
import { readPolicy } from '../../org/policy-file';
import { detectConfinement } from '../../sandbox/shell/detect-confinement';
import { SECRETS_FILE_VARIABLE } from '../../secrets/file-secret-store';
import { secretPresence } from '../../secrets/secret-store';
import { connectorCatalog } from '../../tools/connectors/catalog';
import { loadComposedConnectors } from '../../tools/connectors/composed-connectors';
import type { Connector } from '../../tools/connectors/connector';
import { loadSkills } from '../../tools/skills/load-skills';
import type { Skill, SkillProblem } from '../../tools/skills/skill';
import { skillUsability, type SkillUsability } from '../../tools/skills/skill-usability';
import { CliFailure, EXIT_OK, printJson, type CliIo } from '../cli-io';
import { stringOption, type Command } from '../command';
import { withEngine } from '../open-engine';
import { orgFolder } from '../org-arg';
import { cliSecretStore } from './secrets';

interface AgentSkills {
  agent: string;
  skills: (Pick<Skill, 'name' | 'file' | 'description' | 'dispatch'> & { usability: SkillUsability })[];
  problems: SkillProblem[];
}

/** Each agent's skills, judged against the policy resolver's verdicts for that agent. */
async function skillsOfAgents(org: string, io: CliIo, agents: readonly { name: string; folder: string }[]): Promise<AgentSkills[]> {
  const loaded = (await Promise.all(agents.map(async (agent) => ({ agent, ...(await loadSkills(org, agent.folder)) })))).filter(
    (found) => found.skills.length > 0 || found.problems.length > 0,
  );
  if (loaded.length === 0) return [];
  return withEngine(org, io, async (engine) => {
    const judged: AgentSkills[] = [];
    for (const { agent, skills, problems } of loaded) {
      const verdicts = await engine.explainTools(agent.name);
      judged.push({
        agent: agent.name,
        skills: skills.map((skill) => ({ name: skill.name, file: skill.file, description: skill.description, dispatch: skill.dispatch, usability: skillUsability(skill, verdicts) })),
        problems,
      });
    }
    return judged;
  });
}

function describeConnector(connector: Connector): string {
  const lines = [`  ${connector.readiness.ready ? 'ready    ' : 'not ready'}  ${connector.name} (${connector.id})`];
  if (connector.readiness.ready) {
    if (connector.readiness.note) lines.push(`      note: ${connector.readiness.note}`);
  } else {
    lines.push(`      why: ${connector.readiness.reason}`, `      fix: ${connector.readiness.fix}`);
  }
  if (connector.tools.length > 0) lines.push(`      tools: ${connector.tools.join(', ')}`);
  for (const permission of connector.permissions) {
    const mark = permission.met === null ? '-' : permission.met ? 'ok' : 'NO';
    lines.push(`      needs [${mark}] ${permission.requirement}`);
  }
  if (connector.source) lines.push(`      file: ${connector.source.file}`);
  if (connector.secrets.length > 0) lines.push(`      secrets: ${connector.secrets.map((secret) => `${secret.name} (${secret.isSet ? 'set' : 'not set'})`).join(', ')}`);
  if (connector.tools.length > 0) lines.push(`      granted to: ${connector.grantedTo.length > 0 ? connector.grantedTo.join(', ') : 'no agent'}`);
  return lines.join('\n');
}

function describeSkills(agentSkills: AgentSkills): string {
  const lines = [`  ${agentSkills.agent}:`];
  for (const skill of agentSkills.skills) {
    const runs = skill.dispatch ? ` (runs ${skill.dispatch.tool})` : '';
    if (skill.usability.usable) lines.push(`    usable      ${skill.name}${runs}`);
    else {
      lines.push(`    not usable  ${skill.name}${runs}: ${skill.usability.reason}`);
      lines.push(skill.usability.fix ? `        fix: ${skill.usability.fix}` : '        no setting makes it usable');
    }
  }
  for (const problem of agentSkills.problems) {
    const where = `${problem.file}${problem.line === undefined ? '' : `:${problem.line}`}${problem.field ? ` (${problem.field})` : ''}`;
    lines.push(`    ${problem.severity}: ${where}: ${problem.message}`);
  }
  return lines.join('\n');
}

export const connectorsCommand: Command = {
  name: 'connectors',
  summary: "List the org's connectors (built-in tools and composed tools) with their readiness, what they need, the secrets they use (set or not, never values), and each agent's skills with why they can or cannot be used.",
  usage: 'connectors <org> [--json] [--secrets-file PATH]',
  options: { json: { type: 'boolean' }, 'secrets-file': { type: 'string' } },
  async run({ positionals, values }, io) {
    const org = await orgFolder(positionals[0]);
    const policy = await readPolicy(org);
    if (!policy.ok) throw new CliFailure(policy.problems.map((problem) => `${problem.file}${problem.field ? ` (${problem.field})` : ''}: ${problem.message}`).join('\n'));
    const agents = (await discoverAgents(org)).flatMap((agent) => (agent.valid ? [{ name: agent.resume.name, folder: agent.folder, tools: agent.resume.permissions.tools }] : []));
    const { store } = await cliSecretStore(io, values, [org]);
    const connectors = connectorCatalog({
      policy: policy.value,
      hasSecret: await secretPresence(store),
      confinement: await detectConfinement(),
      ...(await loadComposedConnectors(org, agents.map((agent) => agent.folder))),
      agents,
    });
    const secretsFile = stringOption(values, 'secrets-file');
    // The engine that judges the skills reads the same secrets file as the catalog above.
    const engineIo = secretsFile === undefined ? io : { ...io, env: { ...io.env, [SECRETS_FILE_VARIABLE]: secretsFile } };
    const skills = await skillsOfAgents(org, engineIo, agents);
    if (values.json) {
      printJson(io, { org, connectors, skills });
      return EXIT_OK;
    }
    io.stdout.write(`Connectors of ${org}:\n${connectors.map(describeConnector).join('\n')}\n`);
    io.stdout.write(skills.length > 0 ? `Skills:\n${skills.map(describeSkills).join('\n')}\n` : 'No agent has skills (agents/<name>/skills/<skill>/SKILL.md).\n');
    return EXIT_OK;
  },
};
