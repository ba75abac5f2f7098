import type { z } from 'zod';
import { AGENT_RESUMES, keepingTrust } from './trust';
import type {
  AgentDetail,
  AgentUpdateInput,
  FileAccessPreview,
  FileAccessPreviewInput,
  SchedulePreview,
  SchedulePreviewInput,
} from '../api/agent-schemas';
import { fail, ok, type IpcResult } from '../api/result';
import { fromMicros } from '../credits/credit-amount';
import { realpath } from 'node:fs/promises';
import { isHumanOperator } from '../api/human-operator';
import { discoverAgents, type DiscoveredAgent } from '../org/discover';
import { readResume, updateResume } from '../org/resume-file';
import { firePoint, nextFiringTicks } from '../org/schedule';
import { previewAccessPath } from '../sandbox/preview-access-path';
import { isWithin } from '../sandbox/sandbox-layout';
import { findAgent, nameOf } from './agent-lookup';
import { agentState } from './agent-states';
import { nextDueOf, tickPace } from './next-due';
import type { OrgContext } from './org-context';
import { issuesFromProblems } from './problems';
import { resumeEdits } from './resume-patch';
import { otherFields, resumeView } from './resume-view';
import { agentPaths, inOrg } from '../org/org-layout';

const DEFAULT_PREVIEW_COUNT = 10;

export async function getAgent(context: OrgContext, name: string): Promise<IpcResult<AgentDetail>> {
  const found = await findAgent(context.orgPath, name);
  if (!found.ok) return found;
  return ok(await detailOf(context, found.value));
}

async function detailOf(context: OrgContext, agent: DiscoveredAgent): Promise<AgentDetail> {
  const read = await readResume(context.orgPath, agent.folder);
  const micros = agent.valid ? context.engine.ledger.balance(nameOf(agent)) : null;
  return {
    folder: agent.folder,
    name: nameOf(agent),
    file: read.file,
    valid: agent.valid,
    problems: agent.valid ? [] : agent.problems,
    warnings: agent.warnings,
    resume: read.ok ? resumeView(read.value) : null,
    otherFields: otherFields(read.raw),
    text: read.text,
    state: await agentState(context, agent),
    balance: micros === null ? null : fromMicros(micros),
    nextDue: agent.valid ? nextDueOf(agent, await tickPace(context)) : null,
  };
}

/** Applies a form patch with the text-preserving editor; nothing is written unless the result is a valid resume. */
export function updateAgent(
  context: OrgContext,
  input: z.output<typeof AgentUpdateInput>,
): Promise<IpcResult<AgentDetail>> {
  return keepingTrust(context, AGENT_RESUMES, () => writeAgentUpdate(context, input));
}

async function writeAgentUpdate(
  context: OrgContext,
  input: z.output<typeof AgentUpdateInput>,
): Promise<IpcResult<AgentDetail>> {
  const found = await findAgent(context.orgPath, input.agent);
  if (!found.ok) return found;
  const read = await readResume(context.orgPath, found.value.folder);
  if (typeof read.raw !== 'object' || read.raw === null || Array.isArray(read.raw)) {
    const problems = read.ok ? [] : read.error;
    return fail(
      'invalid_change',
      `${read.file} is not a JSON object, so the form cannot change it; fix its text first.`,
      issuesFromProblems(problems),
    );
  }
  const agentDir = inOrg(context.orgPath, agentPaths(found.value.folder).root);
  const fileAccess = await canonicalFileAccess(context.orgPath, agentDir, input.patch);
  if (!fileAccess.ok) return fileAccess;
  const edits = resumeEdits(read.raw as Record<string, unknown>, fileAccess.value);
  if (edits.length > 0) {
    const updated = await updateResume(context.orgPath, found.value.folder, edits);
    if (!updated.ok)
      return fail(
        'invalid_change',
        `The change was not saved: ${read.file} would not be valid.`,
        issuesFromProblems(updated.error),
      );
  }
  const after = await findAgent(context.orgPath, nameOf(found.value));
  return ok(await detailOf(context, after.ok ? after.value : found.value));
}

export function schedulePreview(
  input: z.output<typeof SchedulePreviewInput>,
  nextTick: number | null,
): SchedulePreview {
  const fromTick = input.fromTick ?? nextTick ?? 1;
  return {
    fromTick,
    ticks: nextFiringTicks(input.schedule, fromTick, input.count ?? DEFAULT_PREVIEW_COUNT),
    firePoint: firePoint(input.schedule),
  };
}

/**
 * The patch with its file_access entries as the sandbox's canonicalizer writes them (relative to the
 * org, `shared/./reports/../reports/` → `shared/reports`), or every entry it refuses, located: nothing
 * the sandbox would refuse is saved.
 */
async function canonicalFileAccess(
  orgPath: string,
  agentDir: string,
  patch: z.output<typeof AgentUpdateInput>['patch'],
): Promise<IpcResult<z.output<typeof AgentUpdateInput>['patch']>> {
  const fileAccess = patch.permissions?.file_access;
  if (!fileAccess) return ok(patch);
  const issues: { path: string; message: string }[] = [];
  const canonical: Record<string, string[]> = {};
  for (const [field, kind] of [
    ['allow_read', 'read'],
    ['allow_write', 'write'],
  ] as const) {
    const entries = fileAccess[field];
    if (entries === undefined || entries === null) continue;
    canonical[field] = [];
    for (const [index, entry] of entries.entries()) {
      const preview = await previewAccessPath(orgPath, entry, { agentDir, kind });
      if (preview.ok) canonical[field].push(preview.value.display);
      else issues.push({ path: `permissions.file_access.${field}[${index}]`, message: preview.error });
    }
  }
  if (issues.length > 0)
    return fail('invalid_change', 'The change was not saved: some file-access paths are refused.', issues);
  return ok({
    ...patch,
    permissions: { ...patch.permissions, file_access: { ...fileAccess, ...canonical } },
  });
}

/** Each entry judged by the sandbox's own canonicalizer, from this agent's point of view. */
export async function fileAccessPreview(
  context: OrgContext,
  input: z.output<typeof FileAccessPreviewInput>,
): Promise<IpcResult<FileAccessPreview>> {
  const found = await findAgent(context.orgPath, input.agent);
  if (!found.ok) return found;
  const agentDir = inOrg(context.orgPath, agentPaths(found.value.folder).root);
  const kind = input.access ?? 'read';
  const others = kind === 'write' ? await otherWorkspaces(context.orgPath, found.value.folder) : [];
  const previews = await Promise.all(
    input.entries.map(async (entry): Promise<FileAccessPreview['previews'][number]> => {
      const preview = await previewAccessPath(context.orgPath, entry, { agentDir, kind });
      if (!preview.ok) return { entry, ok: false, reason: preview.error };
      const { canonical } = preview.value;
      const otherAgents = others
        .filter(({ workspace }) => isWithin(workspace, canonical) || isWithin(canonical, workspace))
        .map(({ name }) => name);
      return { entry, ok: true, ...preview.value, otherAgents };
    }),
  );
  return ok({ previews });
}

/** The other agents of the org and the real paths of their workspaces, their private files. */
async function otherWorkspaces(
  orgPath: string,
  ownFolder: string,
): Promise<{ name: string; workspace: string }[]> {
  const agents = (await discoverAgents(orgPath)).filter(
    (agent) => agent.folder !== ownFolder && !isHumanOperator(agent.folder),
  );
  return Promise.all(
    agents.map(async (agent) => {
      const workspace = inOrg(orgPath, agentPaths(agent.folder).workspace);
      return { name: nameOf(agent), workspace: await realpath(workspace).catch(() => workspace) };
    }),
  );
}
