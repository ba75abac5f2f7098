import type { OrgPolicy } from '../org/policy-file';
import type { Resume } from '../org/resume-schema';
import type { CatalogEntry, ToolDelegation } from './tool-catalog';
import { PolicyLayer, type PolicyChange, type ToolVerdict } from '../api/tool-schemas';
import { plainChange, plainWords, type TitleOf } from './policy-plain-words';

/** The layers a tool passes on its way to the model, in the order they are checked (docs/ARCHITECTURE.md, “Tools”). */
export const POLICY_LAYERS = PolicyLayer.options;
export type { PolicyChange, PolicyLayer, ToolVerdict };

/** One layer's verdict on one tool: passed or not, and why in words a non-developer can act on. */
export type LayerVerdict = ToolVerdict['layers'][number];

export interface PolicyInput {
  resume: Resume;
  policy: OrgPolicy;
  catalog: readonly CatalogEntry[];
  /** The agent's balance in credits; null when it has never been seeded (it will be, at its first turn). */
  credits: number | null;
}

/**
 * The one policy resolver (docs/ARCHITECTURE.md, “Tools”): the engine sends the model exactly the tools it marks
 * available, `lemming tools` and the app explain the others with it, and every call is checked
 * against it again.
 */
export function resolveTools(input: PolicyInput): ToolVerdict[] {
  return judgeTools(input).map((verdict, index) => withFix(verdict, input.catalog[index]!, input));
}

/** A verdict without its fix: what a turn needs for every tool, where a fix is needed only for a few. */
export type ToolAvailability = Omit<ToolVerdict, 'fix'>;

/**
 * Every tool's verdict without the fix (one pass of the layers per tool). Finding a fix runs the
 * resolver again for each changed layer, so a turn asks for it only when it tells someone why.
 */
export function judgeTools(input: PolicyInput): ToolAvailability[] {
  return input.catalog.map((entry) => {
    const layers = judge(entry, input);
    return {
      name: entry.spec.name,
      kind: entry.spec.kind,
      title: entry.spec.title,
      available: layers.every((layer) => layer.passed),
      layers,
      ...(entry.readiness.ready && entry.readiness.note ? { note: entry.readiness.note } : {}),
      ...(entry.readiness.ready && entry.readiness.plainNote ? { plainNote: entry.readiness.plainNote } : {}),
      ...(entry.spec.annotations ? { annotations: entry.spec.annotations } : {}),
      ...(entry.spec.endsIn ? { endsIn: entry.spec.endsIn } : {}),
      ...(entry.spec.mcpTool ? { mcpTool: entry.spec.mcpTool } : {}),
      ...(entry.spec.onlyReads ? { onlyReads: true as const } : {}),
    };
  });
}

/** The whole verdict on `entry` (one of `input.catalog`), given its availability from `judgeTools`. */
export function withFix(verdict: ToolAvailability, entry: CatalogEntry, input: PolicyInput): ToolVerdict {
  const { name, kind, title, available, layers, ...rest } = verdict;
  return { name, kind, title, available, layers, fix: available ? null : findFix(entry, input), ...rest };
}

function judge(entry: CatalogEntry, input: PolicyInput): LayerVerdict[] {
  const { resume, policy, credits } = input;
  const { name, kind } = entry.spec;
  const granted = resume.permissions.tools.find((grant) => entry.grantedBy.includes(grant));
  const agentKinds = resume.permissions.tool_kinds;
  const kindProblem: { reason: string; plain: string } | null = !policy.allowed_tool_kinds.includes(kind)
    ? {
        reason: `the org does not allow ${kind} tools (allowed_tool_kinds in lemming/config/policy.json)`,
        plain: plainWords.kindNotAllowed(kind),
      }
    : kind === 'network' && !policy.network.enabled
      ? {
          reason: 'network access is off for this org (network.enabled in lemming/config/policy.json)',
          plain: plainWords.networkOff,
        }
      : agentKinds && !agentKinds.includes(kind)
        ? {
            reason: `this agent may use only ${agentKinds.length ? agentKinds.join(', ') : 'no'} tools (permissions.tool_kinds in its resume)`,
            plain: plainWords.agentKindsOnly(agentKinds),
          }
        : null;
  const denied = policy.tools.deny.includes(name);
  const { readiness } = entry;
  return [
    {
      layer: 'allowlist',
      passed: granted !== undefined,
      reason:
        granted === undefined
          ? `its resume does not grant it (add "${name}" to permissions.tools)`
          : granted === name
            ? `granted by name in permissions.tools`
            : `granted by "${granted}" in permissions.tools`,
      plain: granted === undefined ? plainWords.notGranted : plainWords.granted,
    },
    {
      layer: 'org_deny',
      passed: !denied,
      reason: denied
        ? 'the org denies it to every agent (tools.deny in lemming/config/policy.json)'
        : 'not denied by the org',
      plain: denied ? plainWords.deniedByOrg : plainWords.notDenied,
    },
    {
      layer: 'kind',
      passed: kindProblem === null,
      reason: kindProblem?.reason ?? `${kind} tools are allowed`,
      plain: kindProblem?.plain ?? plainWords.kindAllowed(kind),
    },
    ...(entry.delegation ? [judgeDelegate(entry, entry.delegation, input)] : []),
    {
      layer: 'readiness',
      passed: readiness.ready,
      reason: readiness.ready ? (readiness.note ?? 'ready to use') : readiness.reason,
      plain: readiness.ready
        ? (readiness.plainNote ?? plainWords.ready)
        : readiness.plain
          ? `${plainWords.notReady}: ${readiness.plain.reason}`
          : plainWords.notReady,
    },
    {
      layer: 'credits',
      passed: credits === null || credits > 0,
      reason:
        credits === null
          ? 'credits are set at the first turn'
          : credits > 0
            ? `${credits} credits left`
            : 'the agent has no credits left',
      plain:
        credits === null
          ? plainWords.creditsLater
          : credits > 0
            ? plainWords.creditsLeft(credits)
            : plainWords.noCredits,
    },
  ];
}

/** The grant that lets `tool` (a composed tool) use `primitive` without the agent having the primitive itself. */
export const delegationGrant = (tool: string, primitive: string): string => `${tool} via ${primitive}`;

/**
 * A composed tool that calls a registered tool is judged as that tool too: nothing it passes through
 * may be denied by the org, and the agent must be granted the tool it ends in, or this tool's use of it.
 */
function judgeDelegate(
  entry: CatalogEntry,
  delegation: ToolDelegation,
  { resume, policy, catalog }: PolicyInput,
): LayerVerdict {
  const { name } = entry.spec;
  const { primitive } = delegation;
  const titleOf = titleIn(catalog);
  const denied = deniedDelegate(delegation, policy);
  if (denied !== undefined)
    return {
      layer: 'delegate',
      passed: false,
      reason: `it runs ${denied}, which the org denies to every agent (tools.deny in lemming/config/policy.json)`,
      plain: plainWords.delegateDenied(titleOf(denied)),
    };
  if (primitive === null)
    return {
      layer: 'delegate',
      passed: true,
      reason: `it calls ${delegation.through.join(' → ')}, which the org does not deny`,
      plain: plainWords.delegateChainAllowed,
    };
  const grants = catalog.find((candidate) => candidate.spec.name === primitive)?.grantedBy ?? [primitive];
  const granted = resume.permissions.tools.find(
    (grant) => grants.includes(grant) || grant === delegationGrant(name, primitive),
  );
  return granted === undefined
    ? {
        layer: 'delegate',
        passed: false,
        reason: `it runs ${primitive}, which ${resume.name}'s resume does not grant (add "${primitive}", or "${delegationGrant(name, primitive)}" to let only this tool use it, to permissions.tools)`,
        plain: plainWords.delegateNotGranted(titleOf(primitive)),
      }
    : {
        layer: 'delegate',
        passed: true,
        reason: `it runs ${primitive}, granted by "${granted}" in permissions.tools`,
        plain: plainWords.delegateGranted(titleOf(primitive)),
      };
}

/** A tool's title by its name in the catalog, for words a person reads; an unknown name is kept as it is. */
export const titleIn =
  (catalog: readonly CatalogEntry[]): TitleOf =>
  (tool) =>
    catalog.find((candidate) => candidate.spec.name === tool)?.spec.title ?? tool;

function deniedDelegate(delegation: ToolDelegation, policy: OrgPolicy): string | undefined {
  return [...delegation.through, delegation.primitive ?? ''].find((tool) => policy.tools.deny.includes(tool));
}

/** The change that gets the tool past one failing layer, or null when no setting can. */
function changeFor(
  layer: LayerVerdict,
  entry: CatalogEntry,
  { resume, policy }: PolicyInput,
): PolicyChange | null {
  const { name, kind } = entry.spec;
  switch (layer.layer) {
    case 'allowlist':
      return { kind: 'grant_tool', tool: name };
    case 'org_deny':
      return { kind: 'undeny_tool', tool: name };
    case 'kind':
      if (!policy.allowed_tool_kinds.includes(kind)) return { kind: 'allow_org_kind', toolKind: kind };
      if (kind === 'network' && !policy.network.enabled) return { kind: 'enable_network' };
      return resume.permissions.tool_kinds ? { kind: 'allow_agent_kind', toolKind: kind } : null;
    case 'readiness':
      return entry.readiness.ready ? null : { kind: 'make_ready', instructions: entry.readiness.fix };
    case 'delegate': {
      if (!entry.delegation) return null;
      const denied = deniedDelegate(entry.delegation, policy);
      if (denied !== undefined) return { kind: 'undeny_tool', tool: denied };
      return entry.delegation.primitive === null
        ? null
        : { kind: 'grant_tool', tool: delegationGrant(name, entry.delegation.primitive) };
    }
    case 'credits':
      return { kind: 'top_up_credits' };
  }
}

/** Applies a change to the inputs, as the UI or the CLI would apply it to the files. */
export function applyChange(input: PolicyInput, change: PolicyChange, entry?: CatalogEntry): PolicyInput {
  const { resume, policy } = input;
  switch (change.kind) {
    case 'grant_tool':
      return {
        ...input,
        resume: {
          ...resume,
          permissions: { ...resume.permissions, tools: [...resume.permissions.tools, change.tool] },
        },
      };
    case 'undeny_tool':
      return {
        ...input,
        policy: {
          ...policy,
          tools: { ...policy.tools, deny: policy.tools.deny.filter((tool) => tool !== change.tool) },
        },
      };
    case 'allow_org_kind':
      return {
        ...input,
        policy: { ...policy, allowed_tool_kinds: [...policy.allowed_tool_kinds, change.toolKind] },
      };
    case 'enable_network':
      return { ...input, policy: { ...policy, network: { ...policy.network, enabled: true } } };
    case 'allow_agent_kind':
      return {
        ...input,
        resume: {
          ...resume,
          permissions: {
            ...resume.permissions,
            tool_kinds: [...(resume.permissions.tool_kinds ?? []), change.toolKind],
          },
        },
      };
    case 'top_up_credits':
      return { ...input, credits: Math.max(input.credits ?? 0, 0) + 1 };
    case 'make_ready':
      return {
        ...input,
        catalog: input.catalog.map((candidate) =>
          candidate === entry ? { ...candidate, readiness: { ready: true } } : candidate,
        ),
      };
  }
}

export function describeChange(change: PolicyChange, agent: string): string {
  switch (change.kind) {
    case 'grant_tool':
      return `add "${change.tool}" to ${agent}'s permissions.tools`;
    case 'undeny_tool':
      return `remove "${change.tool}" from tools.deny in lemming/config/policy.json`;
    case 'allow_org_kind':
      return `add "${change.toolKind}" to allowed_tool_kinds in lemming/config/policy.json`;
    case 'enable_network':
      return 'set network.enabled to true in lemming/config/policy.json';
    case 'allow_agent_kind':
      return `add "${change.toolKind}" to ${agent}'s permissions.tool_kinds`;
    case 'top_up_credits':
      return `top up ${agent}'s credits`;
    case 'make_ready':
      return change.instructions;
  }
}

/**
 * The smallest list of changes that makes `entry` available: each failing layer's change, applied and
 * the resolver run again, until the tool passes (proof that the fix works) or a layer has no fix.
 */
function findFix(entry: CatalogEntry, input: PolicyInput): ToolVerdict['fix'] {
  const changes: PolicyChange[] = [];
  let current = input;
  let currentEntry = entry;
  for (let step = 0; step < POLICY_LAYERS.length; step += 1) {
    const failing = judge(currentEntry, current).find((layer) => !layer.passed);
    if (!failing)
      return {
        changes,
        summary: changes.map((change) => describeChange(change, input.resume.name)).join(', then '),
        plain: changes
          .map((change) => plainChange(change, input.resume.name, titleIn(input.catalog)))
          .join(', then '),
      };
    const change = changeFor(failing, currentEntry, current);
    if (!change) return null;
    changes.push(change);
    current = applyChange(current, change, currentEntry);
    currentEntry = current.catalog[input.catalog.indexOf(entry)]!;
  }
  return null;
}
