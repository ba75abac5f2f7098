import { mkdir, rename, stat } from 'node:fs/promises';
import { AGENT_RESUMES, keepingTrust } from './trust';
import { join } from 'node:path';
import type { z } from 'zod';
import type { CreateAgentInput, RemovedAgent } from '../api/org-schemas';
import { fail, ok, type IpcResult } from '../api/result';
import type { AgentListItem } from '../api/schemas';
import { readModelsFile } from '../models/models-file';
import { writeFileAtomic } from '../files/atomic-write';
import { keptAgentIdentity, newAgentIdentity } from '../org/agent-identity';
import { forgetAgentApprovals } from '../org/approvals-file';
import { orgKeyOf } from '../trust/org-trust';
import { discoverAgents } from '../org/discover';
import { openOrg } from '../org/open-org';
import { agentFolderProblem, createResumeText, resumeFileOf } from '../org/resume-file';
import { findAgent, nameOf } from './agent-lookup';
import type { OrgContext } from './org-context';
import { issuesFromProblems } from './problems';
import { AGENTS_FOLDER, agentPaths, inOrg } from '../org/org-layout';

/** Removed agents wait here, inside the app's folder of the org, until restored or deleted by hand. */
export const REMOVED_AGENTS_FOLDER = '.lemming/removed-agents';

const REMOVED_ID = /^(\d+)-(.+)$/;

/** Creates agents/<name>/ with a resume LeMMing reads too and an empty workspace. */
export function createAgent(
  context: OrgContext,
  input: z.output<typeof CreateAgentInput>,
): Promise<IpcResult<AgentListItem>> {
  return keepingTrust(context, AGENT_RESUMES, () => writeNewAgent(context, input));
}

async function writeNewAgent(
  context: OrgContext,
  input: z.output<typeof CreateAgentInput>,
): Promise<IpcResult<AgentListItem>> {
  const { orgPath } = context;
  const taken = (await discoverAgents(orgPath)).find(
    (agent) =>
      nameOf(agent).toLowerCase() === input.name.toLowerCase() ||
      agent.folder.toLowerCase() === input.name.toLowerCase(),
  );
  if (taken || (await stat(inOrg(orgPath, agentPaths(input.name).root)).catch(() => null)))
    return fail('already_exists', `There is already an agent named "${taken ? nameOf(taken) : input.name}".`);

  const model = input.model ?? (await readModelsFile(orgPath)).entries[0]?.key;
  if (!model)
    return fail('invalid_change', 'Choose a model for the agent: models.json has none yet.', [
      { path: 'model', message: 'add a model in Settings, then choose it here' },
    ]);
  const created = createResumeText({
    name: input.name,
    title: input.title,
    short_description: input.title,
    instructions: input.instructions ?? '',
    model: { key: model },
    permissions: { read_outboxes: input.readOutboxes ?? ['human'], tools: input.tools ?? [] },
    schedule: input.schedule ?? { run_every_n_ticks: 1, phase_offset: 0 },
    ...(input.credits ? { credits: input.credits } : {}),
  });
  if (!created.ok)
    return fail('invalid_change', 'The new agent would not be valid.', issuesFromProblems(created.error));

  // Settings an agent of this name had before are not the new agent's.
  const stale = await forgetAgentApprovals(orgPath, created.value.name);
  if (stale) return fail('invalid_change', `The agent was not created: ${stale}`);
  await mkdir(inOrg(orgPath, agentPaths(input.name).workspace), { recursive: true });
  await newAgentIdentity(orgPath, input.name);
  await writeFileAtomic(join(orgPath, resumeFileOf(input.name)), created.text);
  return ok({
    folder: input.name,
    name: created.value.name,
    title: created.value.title,
    valid: true,
    problems: [],
    warnings: created.warnings,
  });
}

/** Moves the agent's folder out of agents/, so it no longer runs; org.restoreAgent brings it back. */
export function removeAgent(
  context: OrgContext,
  name: string,
  now: Date = new Date(),
): Promise<IpcResult<RemovedAgent>> {
  return keepingTrust(
    context,
    (file) => file.startsWith(`${AGENTS_FOLDER}/`),
    () => moveAgentOut(context, name, now),
  );
}

async function moveAgentOut(context: OrgContext, name: string, now: Date): Promise<IpcResult<RemovedAgent>> {
  const busy = runBusyReason(context);
  if (busy) return fail('busy', `${busy} before removing an agent.`);
  const found = await findAgent(context.orgPath, name);
  if (!found.ok) return found;
  const { folder } = found.value;
  // Its approval settings and the person's "always" answers go with it: a restored agent asks again.
  const forgotten = await context.trust.forgetAgent(orgKeyOf(context.orgPath), {
    id: await keptAgentIdentity(context.orgPath, folder),
    name: nameOf(found.value),
  });
  if (!forgotten.ok)
    return fail(
      'invalid_change',
      `The agent was not removed: your approval answers for it could not be removed (${forgotten.error}).`,
    );
  const stale = await forgetAgentApprovals(context.orgPath, nameOf(found.value));
  if (stale) return fail('invalid_change', `The agent was not removed: ${stale}`);
  const removedId = `${now.getTime()}-${folder}`;
  const movedTo = `${REMOVED_AGENTS_FOLDER}/${removedId}`;
  await mkdir(join(context.orgPath, REMOVED_AGENTS_FOLDER), { recursive: true });
  await rename(inOrg(context.orgPath, agentPaths(folder).root), join(context.orgPath, movedTo));
  return ok({ removedId, folder, movedTo });
}

/**
 * Brings a removed agent's folder back. What it can run and reach then is not trusted on the person's
 * word alone: the folder is the org's (it may have come with it), so an org trusted before asks again.
 */
export async function restoreAgent(
  context: OrgContext,
  removedId: string,
): Promise<IpcResult<AgentListItem>> {
  const busy = runBusyReason(context);
  if (busy) return fail('busy', `${busy} before restoring an agent.`);
  const folder = REMOVED_ID.exec(removedId)?.[2];
  const source = join(context.orgPath, REMOVED_AGENTS_FOLDER, removedId);
  if (!folder || agentFolderProblem(folder) || !(await stat(source).catch(() => null)))
    return fail('not_found', `There is no removed agent "${removedId}" to restore.`);
  const target = inOrg(context.orgPath, agentPaths(folder).root);
  if (await stat(target).catch(() => null))
    return fail('already_exists', `${agentPaths(folder).root} exists again; rename or remove it first.`);
  await rename(source, target);
  const agent = (await openOrg(context.orgPath)).agents.find((candidate) => candidate.folder === folder);
  return agent ? ok(agent) : fail('not_found', `${agentPaths(folder).root} has no resume.json.`);
}

/** Why agents cannot be moved now (a tick is running or about to), or null. */
function runBusyReason(context: OrgContext): string | null {
  const { phase, tickInProgress } = context.controller.state();
  if (tickInProgress !== null || (phase !== 'idle' && phase !== 'paused')) return 'Pause or stop the run';
  return null;
}
