import { cpSync, lstatSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { ReachItem } from '../api/trust-schemas';
import { writeFileAtomic } from '../files/atomic-write';
import type { AgentDefinition } from '../org/agent-definition';
import { addAgentDefinition, applyAgentDefinition } from '../org/apply-agent-update';
import { AGENTS_FOLDER, agentPaths, inOrg } from '../org/org-layout';
import { readOrgReach } from '../trust/org-reach';
import { reachChanges } from '../trust/org-trust';

/** The org-level folders whose files decide what an org can run and reach, beside its agents' own. */
const REACH_FOLDERS = ['lemming/config', 'tools'];

/**
 * What the org could newly run or reach (engine/trust's reach) if every given agent were updated: the
 * org's definitions are staged in a temporary folder (its config, composed tools, and each agent's resume
 * and tool files; never its memory, outboxes or workspaces), read, updated there, and read again.
 * Keyed by the agent whose folder names the new item.
 */
export async function previewReachAdded(
  orgPath: string,
  current: ReadonlyMap<string, AgentDefinition>,
  source: { orgPath: string; definitions: readonly AgentDefinition[] },
): Promise<Map<string, ReachItem[]>> {
  const staging = mkdtempSync(join(tmpdir(), 'lemming-update-'));
  try {
    for (const folder of REACH_FOLDERS) {
      const from = join(orgPath, folder);
      if (lstatSync(from, { throwIfNoEntry: false })?.isDirectory())
        cpSync(from, join(staging, folder), { recursive: true, verbatimSymlinks: true });
    }
    for (const definition of current.values()) await stageDefinition(orgPath, staging, definition);
    const before = await readOrgReach(staging);
    for (const definition of source.definitions) {
      const ours = current.get(definition.name);
      const target = { orgPath: source.orgPath, definition };
      // One that cannot be applied here (a tool file changed since it was read) fails again when the
      // person applies, and the reach is read again then.
      if (ours) await applyAgentDefinition(staging, ours, target);
      else await addAgentDefinition(staging, target);
    }
    const after = await readOrgReach(staging);
    const byAgent = new Map<string, ReachItem[]>();
    const nameOfFolder = new Map(
      [...current.values(), ...source.definitions.filter((definition) => !current.has(definition.name))].map(
        (definition) => [current.get(definition.name)?.folder ?? definition.name, definition.name],
      ),
    );
    for (const item of reachChanges(before.items, after.items).added) {
      const folder = item.file.startsWith(`${AGENTS_FOLDER}/`) ? item.file.split('/')[1] : undefined;
      const agent = (folder && nameOfFolder.get(folder)) ?? '';
      byAgent.set(agent, [...(byAgent.get(agent) ?? []), item]);
    }
    return byAgent;
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

async function stageDefinition(orgPath: string, staging: string, definition: AgentDefinition): Promise<void> {
  const paths = agentPaths(definition.folder);
  await mkdir(inOrg(staging, paths.root), { recursive: true });
  await writeFileAtomic(inOrg(staging, paths.resume), definition.resumeText);
  for (const path of Object.keys(definition.toolFiles)) {
    const from = join(inOrg(orgPath, paths.root), path);
    if (!lstatSync(from, { throwIfNoEntry: false })?.isFile()) continue;
    const to = join(inOrg(staging, paths.root), path);
    await mkdir(dirname(to), { recursive: true });
    await writeFileAtomic(to, readFileSync(from));
  }
}
