import type { AgentProblem } from '../../engine/api/schemas';
import { discoverAgents } from '../../engine/org/discover';
import { DEFAULT_ORG_POLICY, readPolicy } from '../../engine/org/policy-file';
import { ResumeSchema } from '../../engine/org/resume-schema';
import { detectConfinement } from '../../engine/sandbox/shell/detect-confinement';
import { secretPresence, type SecretStore } from '../../engine/secrets/secret-store';
import {
  composedToolSpecs,
  loadComposedTools,
  netHttpPrimitive,
  requiredSecrets,
} from '../../engine/tools/composed';
import { connectorCatalog, type ComposedConnectorInput } from '../../engine/tools/connectors/catalog';
import type { Connector } from '../../engine/tools/connectors/connector';
import { toolCatalog } from '../../engine/tools/tool-catalog';

export interface OrgConnectors {
  connectors: Connector[];
  /** Tool files that did not load, and org files the catalog could not read. */
  loadErrors: AgentProblem[];
}

/** Stands in for an agent when only the names and kinds of the built-in tools are needed. */
const PROBE = ResumeSchema.parse({
  name: 'probe',
  title: 'probe',
  instructions: '',
  model: { key: 'none' },
  permissions: { read_outboxes: [], tools: [] },
  schedule: { run_every_n_ticks: 1, phase_offset: 0 },
});

/**
 * The org's Tool Store: the built-in connectors and every composed tool (the org's tools/ and each
 * agent's api-tools/), judged against the org's policy and secret presence (never values).
 */
export async function orgConnectors(orgPath: string, store: SecretStore): Promise<OrgConnectors> {
  const loadErrors: AgentProblem[] = [];
  const [policyRead, discovered, hasSecret, confinement] = await Promise.all([
    readPolicy(orgPath),
    discoverAgents(orgPath),
    secretPresence(store),
    detectConfinement(),
  ]);
  if (!policyRead.ok) loadErrors.push(...policyRead.problems);
  const agents = discovered.flatMap((agent) =>
    agent.valid
      ? [{ name: agent.resume.name, folder: agent.folder, tools: agent.resume.permissions.tools }]
      : [],
  );

  const loads = await Promise.all([
    loadComposedTools(orgPath).then((load) => ({ folder: null, ...load })),
    ...discovered.map(async (agent) => ({
      folder: agent.folder,
      ...(await loadComposedTools(orgPath, agent.folder)),
    })),
  ]);
  const seenProblems = new Set<string>();
  const composed: ComposedConnectorInput[] = [];
  const builtins = new Map(toolCatalog(PROBE, { confinement }).map((entry) => [entry.spec.name, entry.spec]));
  for (const load of loads) {
    for (const problem of load.problems) {
      const key = JSON.stringify(problem);
      if (!seenProblems.has(key)) loadErrors.push(problem);
      seenProblems.add(key);
    }
    // An agent's load repeats the org's tools (they can be delegated to); each is listed once, from the org's load.
    const ownScope = load.folder === null ? 'org' : 'agent';
    const specs = composedToolSpecs(load.tools, {
      lookup: () => undefined,
      http: netHttpPrimitive(),
      lookupTool: (name) => builtins.get(name),
    });
    for (const problem of specs.problems) {
      if (problem.source.scope === ownScope)
        loadErrors.push({
          file: problem.source.file,
          field: problem.path.map(String).join('.'),
          message: problem.message,
        });
    }
    for (const entry of specs.entries) {
      if (entry.tool.source.scope !== ownScope) continue;
      composed.push({
        name: entry.tool.name,
        description: entry.tool.description,
        file: entry.tool.source.file,
        agent: load.folder,
        toolKind: entry.spec.kind,
        secrets: requiredSecrets(entry.tool).map((name) => ({ name })),
        problems: [],
      });
    }
  }
  const connectors = connectorCatalog({
    policy: policyRead.ok ? policyRead.value : DEFAULT_ORG_POLICY,
    hasSecret,
    confinement,
    composed,
    agents,
  });
  return { connectors, loadErrors };
}
