import type { AgentProblem } from '../api/schemas';
import { discoverAgents } from '../org/discover';
import { DEFAULT_ORG_POLICY, readPolicy } from '../org/policy-file';
import { detectConfinement } from '../sandbox/shell/detect-confinement';
import { secretPresence, type SecretStore } from '../secrets/secret-store';
import { connectorCatalog } from '../tools/connectors/catalog';
import { loadComposedConnectors } from '../tools/connectors/composed-connectors';
import type { Connector } from '../tools/connectors/connector';

export interface OrgConnectors {
  connectors: Connector[];
  /** Tool files that did not load and org files the catalog could not read, each problem located in its file. */
  loadErrors: AgentProblem[];
}

/**
 * The org's Tool Store: the built-in connectors and every composed tool (the org's tools/ and each
 * agent's api-tools/), judged against the org's policy and secret presence (never values). A tool
 * file that did not load is listed among the load errors, not as a connector.
 */
export async function orgConnectors(orgPath: string, store: SecretStore): Promise<OrgConnectors> {
  const [policy, discovered, hasSecret, confinement] = await Promise.all([
    readPolicy(orgPath),
    discoverAgents(orgPath),
    secretPresence(store),
    detectConfinement(),
  ]);
  const agents = discovered.flatMap((agent) =>
    agent.valid
      ? [{ name: agent.resume.name, folder: agent.folder, tools: agent.resume.permissions.tools }]
      : [],
  );
  const { composed, problems } = await loadComposedConnectors(
    orgPath,
    discovered.map((agent) => agent.folder),
  );
  const connectors = connectorCatalog({
    policy: policy.ok ? policy.value : DEFAULT_ORG_POLICY,
    hasSecret,
    confinement,
    composed,
    agents,
  });
  return { connectors, loadErrors: [...(policy.ok ? [] : policy.error), ...problems] };
}
