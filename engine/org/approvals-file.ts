import { ApprovalSettings, type ApprovalMode } from '../api/approval-schemas';
import type { JsonEdit } from '../files/json-edit';
import { boundConfigFile, type ConfigFileSpec } from './config-file';

/** This app's approval settings ("ask me first"); LeMMing ignores the file. */
export const APPROVALS_FILE = 'lemming/config/approvals.json';

export const APPROVALS_SPEC: ConfigFileSpec<typeof ApprovalSettings> = {
  file: APPROVALS_FILE,
  schema: ApprovalSettings,
  defaultDocument: {},
};

/**
 * The org's approval settings (a missing file means the built-in rules and the default timeout), and
 * edits to them in place: unknown fields and untouched bytes stay.
 */
export const { read: readApprovals, update: updateApprovals } = boundConfigFile(APPROVALS_SPEC);

type ApprovalsRead = Awaited<ReturnType<typeof readApprovals>>;

const entryOf = <T>(record: Record<string, T>, key: string): T | undefined =>
  Object.hasOwn(record, key) ? record[key] : undefined;

/**
 * The settings as they apply to the agents given (name and identity): an entry under `agents` counts
 * only for the agent it was made for, and is ignored for another agent that holds the name now. An
 * entry kept before identities existed is bound to the agent of its name now, once.
 */
export async function readApprovalsFor(
  orgPath: string,
  agents: readonly { name: string; id: string }[],
): Promise<ApprovalsRead> {
  const read = await readApprovals(orgPath);
  if (!read.ok) return read;
  const settings = read.value;
  const unbound: JsonEdit[] = [];
  const kept = { ...settings.agents };
  for (const { name, id } of agents) {
    if (!Object.hasOwn(settings.agents, name)) continue;
    const madeFor = entryOf(settings.agent_ids, name);
    if (madeFor === undefined) unbound.push({ path: ['agent_ids', name], value: id });
    else if (madeFor !== id) delete kept[name];
  }
  if (unbound.length === 0) return { ...read, value: { ...settings, agents: kept } };
  const updated = await updateApprovals(orgPath, unbound);
  if (!updated.ok) return updated;
  return { ...read, value: { ...settings, agents: kept, agent_ids: updated.value.agent_ids } };
}

/**
 * Sets (or clears, with null) one agent's setting for one tool, for that agent (its identity): the
 * settings an agent that held the name before left behind are dropped.
 */
export async function setAgentApproval(
  orgPath: string,
  agent: { name: string; id: string },
  tool: string,
  mode: ApprovalMode | null,
): ReturnType<typeof updateApprovals> {
  const read = await readApprovals(orgPath);
  const settings = read.ok ? read.value : null;
  const madeFor = settings ? entryOf(settings.agent_ids, agent.name) : undefined;
  const theirs = madeFor === undefined || madeFor === agent.id;
  const own = settings && theirs ? (entryOf(settings.agents, agent.name) ?? {}) : {};
  if (mode === null && Object.keys(own).every((name) => name === tool))
    return updateApprovals(orgPath, [
      { path: ['agents', agent.name], remove: true },
      { path: ['agent_ids', agent.name], remove: true },
    ]);
  return updateApprovals(orgPath, [
    ...(theirs ? [] : [{ path: ['agents', agent.name], remove: true } as const]),
    { path: ['agent_ids', agent.name], value: agent.id },
    mode === null
      ? { path: ['agents', agent.name, tool], remove: true }
      : { path: ['agents', agent.name, tool], value: mode },
  ]);
}

/**
 * Removes an agent's settings, when it is removed or a new agent takes its name; a file without any
 * stays as it is. The problem when the file cannot be written, else null.
 */
export async function forgetAgentApprovals(orgPath: string, name: string): Promise<string | null> {
  const read = await readApprovals(orgPath);
  if (!read.ok || !read.exists) return null;
  const { agents, agent_ids: ids } = read.value;
  if (!Object.hasOwn(agents, name) && !Object.hasOwn(ids, name)) return null;
  const updated = await updateApprovals(orgPath, [
    { path: ['agents', name], remove: true },
    { path: ['agent_ids', name], remove: true },
  ]);
  return updated.ok
    ? null
    : `${APPROVALS_FILE} could not be changed: ${updated.error.map((problem) => problem.message).join('; ')}`;
}
