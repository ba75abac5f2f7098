import type { ApprovalAsker } from '../tools/approval-gate';
import type { z } from 'zod';
import { AGENT_RESUMES, keepingTrust } from './trust';
import type { PolicyChange } from '../api/tool-schemas';
import { orgWideChange } from '../api/tool-schemas';
import type {
  AppliedFix,
  ApplyFixInput,
  SetEnabledInput,
  SetEnabledResult,
  ToolsCatalog,
} from '../api/tool-schemas';
import { fail, ok, type IpcResult } from '../api/result';
import { discoverAgents } from '../org/discover';
import type { JsonEdit } from '../files/json-edit';
import { DEFAULT_ORG_POLICY, POLICY_FILE, readPolicy, updatePolicy } from '../org/policy-file';
import { updateResume } from '../org/resume-file';
import { ResumeSchema, type Resume } from '../org/resume-schema';
import { detectConfinement } from '../sandbox/shell/detect-confinement';
import { describeChange, type ToolVerdict } from '../tools/policy-resolver';
import { KIND_WORDS } from '../api/tool-kind-words';
import { plainChange } from '../tools/policy-plain-words';
import type { ToolResult } from '../tools/tool-result';
import { TOOL_GROUPS, toolCatalog, type CatalogEntry } from '../tools/tool-catalog';
import { findValidAgent } from './agent-lookup';
import { orgConnectors } from './org-connectors';
import type { OrgContext } from './org-context';
import { issuesFromProblems } from './problems';
import { toggledGrants } from './tool-grants';

/** Stands in for an agent when an org has none yet, so the Tool Store still lists what agents could have. */
const CATALOG_PROBE: Resume = ResumeSchema.parse({
  name: 'probe',
  title: 'probe',
  instructions: '',
  model: { key: 'none' },
  permissions: { read_outboxes: [], tools: [] },
  schedule: { run_every_n_ticks: 1, phase_offset: 0 },
});

/**
 * Runs one tool as the agent outside a turn, with every check a turn has (policy, sandbox, costs);
 * the call and its result are recorded in the timeline. A tool that fails is still an answer.
 */
/** The person calls one tool as an agent; `forms` fills in the forms its MCP server asks for (else they are declined). */
export async function callTool(
  context: OrgContext,
  input: { agent: string; tool: string; args: unknown },
  forms?: ApprovalAsker,
): Promise<IpcResult<ToolResult>> {
  return ok(await context.engine.callTool(input.agent, input.tool, input.args, forms));
}

export async function explainTools(
  context: OrgContext,
  agent: string,
): Promise<IpcResult<{ agent: string; tools: ToolVerdict[] }>> {
  return ok({ agent, tools: await context.engine.explainTools(agent) });
}

/** Every tool agents of the org could be given, and per agent which are granted and which reach the model. */
export async function toolsCatalog(context: OrgContext): Promise<IpcResult<ToolsCatalog>> {
  const resumes = (await discoverAgents(context.orgPath)).flatMap((agent) =>
    agent.valid ? [agent.resume] : [],
  );
  const composedNames = new Set(
    (await orgConnectors(context.orgPath, context.secrets.store)).connectors
      .filter((connector) => connector.kind === 'composed' || connector.kind === 'rest')
      .flatMap((connector) => connector.tools),
  );
  const probeEntries = await mcpEntries(context, CATALOG_PROBE);
  const catalogs =
    resumes.length > 0
      ? await Promise.all(resumes.map((resume) => context.engine.agentToolCatalog(resume.name)))
      : [[...toolCatalog(CATALOG_PROBE, { confinement: await detectConfinement() }), ...probeEntries]];
  const byName = new Map<string, CatalogEntry>();
  for (const catalog of catalogs)
    for (const entry of catalog) if (!byName.has(entry.spec.name)) byName.set(entry.spec.name, entry);

  const grants = [];
  for (const resume of resumes) {
    const verdicts = await context.engine.explainTools(resume.name);
    grants.push({
      agent: resume.name,
      enabled: verdicts.filter((verdict) => verdict.layers[0]?.passed).map((verdict) => verdict.name),
      available: verdicts.filter((verdict) => verdict.available).map((verdict) => verdict.name),
    });
  }
  return ok({
    tools: [...byName.values()].map((entry) => ({
      name: entry.spec.name,
      kind: entry.spec.kind,
      title: entry.spec.title,
      description: entry.spec.definition.description,
      grantedBy: [...entry.grantedBy],
      requiredPermissions: requiredPermissions(entry),
      plainNeeds: plainNeeds(entry),
      source:
        composedNames.has(entry.spec.name) || entry.spec.kind === 'mcp'
          ? ('connector' as const)
          : ('built_in' as const),
    })),
    grants,
  });
}

/** The org's MCP tools an agent could have (its servers started first, so their tools are known). */
async function mcpEntries(context: OrgContext, resume: Resume): Promise<CatalogEntry[]> {
  const policy = await readPolicy(context.orgPath);
  await context.engine.syncMcpServers(policy.ok ? policy.value : DEFAULT_ORG_POLICY);
  return context.engine.mcp.catalogEntries(resume.permissions.tools);
}

function requiredPermissions(entry: CatalogEntry): string[] {
  const { name, kind } = entry.spec;
  const required = [
    `"${name}" or "${TOOL_GROUPS[kind]}" in the agent's permissions.tools`,
    `${kind} tools allowed for the org (allowed_tool_kinds in lemming/config/policy.json)`,
  ];
  if (kind === 'network')
    required.push('network access turned on for the org (network.enabled in lemming/config/policy.json)');
  if (kind === 'shell')
    required.push('commands run in the agent workspace, confined where this computer allows it');
  if (kind === 'mcp') required.push('its MCP server running (see its card)');
  return required;
}

/** requiredPermissions in words for people. */
function plainNeeds(entry: CatalogEntry): string[] {
  const { kind } = entry.spec;
  const needs = ['switched on for the agent', `${KIND_WORDS[kind]} tools allowed for the org`];
  if (kind === 'network') needs.push('internet access turned on for the org');
  if (kind === 'shell')
    needs.push("commands run in the agent's own folder, walled off where this computer can");
  if (kind === 'mcp') needs.push('its tool server running (see its card)');
  return needs;
}

async function verdictOf(context: OrgContext, agent: string, tool: string): Promise<IpcResult<ToolVerdict>> {
  const verdict = (await context.engine.explainTools(agent)).find((candidate) => candidate.name === tool);
  return verdict ? ok(verdict) : fail('not_found', `${agent} has no tool named "${tool}" in this org.`);
}

/**
 * Writes the resolver's own fix for one tool to the files it names (the agent's resume, the org
 * policy); what only the user can supply (a top-up amount, a connector setting) is handed back.
 * The fix is always computed here, never taken from the renderer.
 */
export function applyToolFix(
  context: OrgContext,
  input: z.output<typeof ApplyFixInput>,
): Promise<IpcResult<z.output<typeof AppliedFix>>> {
  return keepingTrust(
    context,
    (file) => file === POLICY_FILE || AGENT_RESUMES(file),
    () => writeToolFix(context, input),
  );
}

async function writeToolFix(
  context: OrgContext,
  input: z.output<typeof ApplyFixInput>,
): Promise<IpcResult<z.output<typeof AppliedFix>>> {
  const before = await verdictOf(context, input.agent, input.tool);
  if (!before.ok) return before;
  if (before.value.available) return ok({ applied: [], needsUser: [], tool: before.value });
  const fix = before.value.fix;
  if (!fix) {
    const failing = before.value.layers.find((layer) => !layer.passed);
    return fail(
      'refused',
      `No setting makes ${input.tool} available to ${input.agent}: ${failing?.reason ?? 'it is refused'}.`,
    );
  }
  const orgWide = fix.changes.flatMap((change) => orgWideChange(change) ?? []);
  if (orgWide.length > 0 && !input.confirmOrgWide)
    return fail(
      'needs_confirmation',
      `This fix for ${input.tool} changes the whole org, not only ${input.agent}: it ${orgWide.join('; it ')}. Nothing was changed.`,
      undefined,
      'Confirm the org-wide change to apply it.',
    );
  const found = await findValidAgent(context.orgPath, input.agent);
  if (!found.ok) return found;
  const resume = found.value.resume;

  const resumeChanges: JsonEdit[] = [];
  const policyChanges: PolicyChange[] = [];
  const needsUser: { change: PolicyChange; summary: string; plain: string }[] = [];
  for (const change of fix.changes) {
    if (change.kind === 'grant_tool')
      resumeChanges.push({
        path: ['permissions', 'tools'],
        value: [...resume.permissions.tools, change.tool],
      });
    else if (change.kind === 'allow_agent_kind')
      resumeChanges.push({
        path: ['permissions', 'tool_kinds'],
        value: [...(resume.permissions.tool_kinds ?? []), change.toolKind],
      });
    else if (change.kind === 'top_up_credits' || change.kind === 'make_ready')
      needsUser.push({
        change,
        summary: describeChange(change, input.agent),
        plain: plainChange(change, input.agent, (tool) => tool),
      });
    else policyChanges.push(change);
  }

  if (policyChanges.length > 0) {
    const policy = await readPolicy(context.orgPath);
    if (!policy.ok)
      return fail('invalid_change', 'The org policy file is not valid.', issuesFromProblems(policy.error));
    const updated = await updatePolicy(context.orgPath, policyEdits(policy.value, policyChanges));
    if (!updated.ok)
      return fail(
        'invalid_change',
        'The org policy could not be changed.',
        issuesFromProblems(updated.error),
      );
  }
  if (resumeChanges.length > 0) {
    const updated = await updateResume(context.orgPath, found.value.folder, resumeChanges);
    if (!updated.ok)
      return fail('invalid_change', 'The resume could not be changed.', issuesFromProblems(updated.error));
  }
  const after = await verdictOf(context, input.agent, input.tool);
  if (!after.ok) return after;
  const applied = fix.changes.filter((change) => !needsUser.some((pending) => pending.change === change));
  return ok({ applied, needsUser, tool: after.value });
}

function policyEdits(
  policy: { tools: { deny: string[] }; allowed_tool_kinds: string[] },
  changes: readonly PolicyChange[],
): JsonEdit[] {
  let deny = policy.tools.deny;
  let kinds = policy.allowed_tool_kinds;
  let network = false;
  for (const change of changes) {
    if (change.kind === 'undeny_tool') deny = deny.filter((tool) => tool !== change.tool);
    if (change.kind === 'allow_org_kind') kinds = [...kinds, change.toolKind];
    if (change.kind === 'enable_network') network = true;
  }
  return [
    ...(deny !== policy.tools.deny ? [{ path: ['tools', 'deny'], value: deny }] : []),
    ...(kinds !== policy.allowed_tool_kinds ? [{ path: ['allowed_tool_kinds'], value: kinds }] : []),
    ...(network ? [{ path: ['network', 'enabled'], value: true }] : []),
  ];
}

/** Turns one tool on or off in the agent's permissions.tools (see toggledGrants for groups). */
export function setToolEnabled(
  context: OrgContext,
  input: z.output<typeof SetEnabledInput>,
): Promise<IpcResult<z.output<typeof SetEnabledResult>>> {
  return keepingTrust(context, AGENT_RESUMES, () => writeToolEnabled(context, input));
}

async function writeToolEnabled(
  context: OrgContext,
  input: z.output<typeof SetEnabledInput>,
): Promise<IpcResult<z.output<typeof SetEnabledResult>>> {
  const found = await findValidAgent(context.orgPath, input.agent);
  if (!found.ok) return found;
  await mcpEntries(context, found.value.resume);
  const catalog = (await context.engine.agentToolCatalog(input.agent)).map((entry) => ({
    name: entry.spec.name,
    grantedBy: entry.grantedBy,
  }));
  const tool = catalog.find((entry) => entry.name === input.tool);
  if (!tool)
    return fail('not_found', `This org has no tool named "${input.tool}" that ${input.agent} could have.`);
  const grants = toggledGrants(found.value.resume.permissions.tools, tool, catalog, input.enabled);
  const updated = await updateResume(context.orgPath, found.value.folder, [
    { path: ['permissions', 'tools'], value: grants },
  ]);
  if (!updated.ok)
    return fail('invalid_change', 'The resume could not be changed.', issuesFromProblems(updated.error));
  const verdict = await verdictOf(context, input.agent, input.tool);
  return verdict.ok ? ok({ tool: verdict.value, grants }) : verdict;
}
