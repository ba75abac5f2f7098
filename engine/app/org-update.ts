import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type {
  ApplyOrgUpdateInput,
  OrgUpdateApplied,
  OrgUpdatePlan,
  OrgUpdatePlanInput,
} from '../api/org-update-schemas';
import { ApplyOrgUpdateInput as ApplyInput } from '../api/org-update-schemas';
import { fail, ok, type IpcResult } from '../api/result';
import { readAgentDefinitions, type AgentDefinition } from '../org/agent-definition';
import { planAgentUpdates } from '../org/agent-update-diff';
import { addAgentDefinition, applyAgentDefinition } from '../org/apply-agent-update';
import { unpackBundle } from '../bundle/unpack-bundle';
import { AGENTS_FOLDER } from '../org/org-layout';
import { mayRun, orgKeyOf, orgTrust, reachChanges } from '../trust/org-trust';
import type { OrgContext } from './org-context';
import { removeAgent } from './org-directory';
import { openTemplate } from './templates';
import { previewReachAdded } from './update-reach-preview';

/**
 * The newer copy of an org an update reads from: a folder (a template's, or another copy of the org), or a
 * bundle, unpacked (every check of an import passed) into a temporary folder and read the same way.
 * `close` removes what opening made.
 */
export interface UpdateSource {
  /** What the person named: the folder or the bundle (a plan says it, and applying names it again). */
  readonly named: string;
  readonly orgPath: string;
  close(): Promise<void>;
}

/** Opens the newer copy named by `source`: a folder, or a `.lemming.zip` bundle. */
export async function openUpdateSource(orgPath: string, source: string): Promise<IpcResult<UpdateSource>> {
  const info = await stat(source).catch(() => null);
  if (info?.isFile()) return openBundleSource(source);
  if (!info?.isDirectory())
    return fail('not_found', `There is no folder or bundle at ${source} to update from.`);
  if (!(await stat(`${source}/${AGENTS_FOLDER}`).catch(() => null))?.isDirectory())
    return fail('not_an_org', `${source} is not an org folder: it has no "${AGENTS_FOLDER}" folder.`);
  if (orgKeyOf(source) === orgKeyOf(orgPath))
    return fail('invalid_input', 'That is this org itself; choose the newer copy to update from.');
  return ok({ named: source, orgPath: source, close: async () => {} });
}

async function openBundleSource(file: string): Promise<IpcResult<UpdateSource>> {
  const scratch = await mkdtemp(join(tmpdir(), 'lemming-update-'));
  const close = () => rm(scratch, { recursive: true, force: true });
  const unpacked = await unpackBundle(file, { kind: 'new', folder: join(scratch, 'org') });
  if (!unpacked.ok) {
    await close();
    return fail('invalid_input', `${file} cannot be updated from: ${unpacked.error.reason}.`);
  }
  return ok({ named: file, orgPath: unpacked.value.folder, close });
}

/** Where the newer copy is: the folder or bundle named, or the folder of a template shipped with the app. */
async function sourceNamed(
  input: OrgUpdatePlanInput,
  templatesFolder: string | null,
): Promise<IpcResult<string>> {
  if ('source' in input) return ok(input.source);
  if (!templatesFolder) return fail('not_found', 'No templates are installed with this program.');
  const template = await openTemplate(templatesFolder, input.template);
  return template.ok ? ok(template.value.orgFolder) : template;
}

/** Every agent of either copy, with what updating it would change. Reads files only. */
export async function planOrgUpdate(
  orgPath: string,
  input: OrgUpdatePlanInput,
  templatesFolder: string | null = null,
): Promise<IpcResult<OrgUpdatePlan>> {
  const source = await sourceNamed(input, templatesFolder);
  if (!source.ok) return source;
  const opened = await openUpdateSource(orgPath, source.value);
  if (!opened.ok) return opened;
  try {
    const { plan, ours, theirs } = await comparedWith(orgPath, opened.value);
    const updating = plan.agents
      .filter((agent) => agent.status === 'changed' || agent.status === 'added')
      .map((agent) => theirs.get(agent.agent)!);
    const reach = await previewReachAdded(orgPath, ours, {
      orgPath: opened.value.orgPath,
      definitions: updating,
    });
    return ok({
      ...plan,
      agents: plan.agents.map((agent) => ({ ...agent, reachAdded: reach.get(agent.agent) ?? [] })),
    });
  } finally {
    await opened.value.close();
  }
}

async function comparedWith(orgPath: string, source: UpdateSource) {
  const ours = await readAgentDefinitions(orgPath);
  const theirs = await readAgentDefinitions(source.orgPath);
  const plan: OrgUpdatePlan = {
    source: source.named,
    agents: planAgentUpdates(ours.definitions, theirs.definitions),
    problems: [
      ...ours.problems,
      ...theirs.problems.map((problem) => ({ ...problem, file: `(newer copy) ${problem.file}` })),
    ],
  };
  const byName = (definitions: readonly AgentDefinition[]) =>
    new Map(definitions.map((agent) => [agent.name, agent]));
  return { plan, ours: byName(ours.definitions), theirs: byName(theirs.definitions) };
}

/**
 * Updates the chosen agents from the newer copy, adds the chosen new ones and removes the chosen gone
 * ones. Each updated agent keeps its memory, outbox, workspace, credits and history. When the org may
 * reach further afterwards it needs its person's trust again; when it reaches only less, the trust the
 * person gave stays.
 */
export async function applyOrgUpdate(
  context: OrgContext,
  input: ApplyOrgUpdateInput,
): Promise<IpcResult<OrgUpdateApplied>> {
  const { agents, remove, source } = ApplyInput.parse(input);
  const { phase, tickInProgress } = context.controller.state();
  if (tickInProgress !== null || (phase !== 'idle' && phase !== 'paused'))
    return fail('busy', 'Pause or stop the run before updating agents.');
  const opened = await openUpdateSource(context.orgPath, source);
  if (!opened.ok) return opened;
  try {
    const { plan, ours, theirs } = await comparedWith(context.orgPath, opened.value);
    const status = new Map(plan.agents.map((agent) => [agent.agent, agent.status]));
    const cannot = [
      ...agents.filter((name) => status.get(name) !== 'changed' && status.get(name) !== 'added'),
      ...remove.filter((name) => status.get(name) !== 'removed'),
    ];
    if (cannot.length > 0)
      return fail(
        'invalid_input',
        `Nothing to do for ${cannot.map((name) => `"${name}"`).join(', ')}: only changed or new agents are updated, and only agents gone from the newer copy are removed.`,
      );
    const before = await orgTrust(context.orgPath, context.trust);
    const applied: OrgUpdateApplied = {
      updated: [],
      added: [],
      removed: [],
      reachAdded: [],
      needsTrustAgain: false,
    };
    for (const name of agents) {
      const definition = theirs.get(name)!;
      const current = ours.get(name);
      const done = current
        ? await applyAgentDefinition(context.orgPath, current, { orgPath: opened.value.orgPath, definition })
        : await addAgentDefinition(context.orgPath, { orgPath: opened.value.orgPath, definition });
      if (!done.ok)
        return fail('invalid_change', `${name} was not updated: ${done.error}${doneSoFar(applied)}`);
      (current ? applied.updated : applied.added).push(name);
    }
    for (const name of remove) {
      const removed = await removeAgent(context, name);
      if (!removed.ok) return fail(removed.error.code, `${removed.error.message}${doneSoFar(applied)}`);
      applied.removed.push(name);
    }
    const after = await orgTrust(context.orgPath, context.trust);
    applied.reachAdded = reachChanges(before.reach.items, after.reach.items).added;
    if (
      mayRun(before) &&
      !mayRun(after) &&
      applied.reachAdded.length === 0 &&
      after.reach.unreadable.length === 0
    )
      await context.trust.trust(after.orgPath, after.fingerprint, after.reach);
    applied.needsTrustAgain = !mayRun(await orgTrust(context.orgPath, context.trust));
    return ok(applied);
  } finally {
    await opened.value.close();
  }
}

function doneSoFar(applied: OrgUpdateApplied): string {
  const done = [...applied.updated, ...applied.added];
  return done.length > 0 ? ` (already updated: ${done.join(', ')})` : '';
}
