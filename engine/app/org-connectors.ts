import type { AgentProblem } from '../api/schemas';
import { discoverAgents } from '../org/discover';
import { DEFAULT_ORG_POLICY, readPolicy } from '../org/policy-file';
import { detectConfinement } from '../sandbox/shell/detect-confinement';
import { secretPresence, type SecretStore } from '../secrets/secret-store';
import { connectorCatalog } from '../tools/connectors/catalog';
import { loadComposedConnectors } from '../tools/connectors/composed-connectors';
import { restApiConnectors } from '../tools/connectors/rest-api-connectors';
import { readRestApis } from '../tools/rest-api/rest-api-config';
import { readToolSettings } from '../tools/connectors/tool-settings-file';
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
  const [policy, discovered, hasSecret, confinement, restApis, toolSettings] = await Promise.all([
    readPolicy(orgPath),
    discoverAgents(orgPath),
    secretPresence(store),
    detectConfinement(),
    readRestApis(orgPath),
    readToolSettings(orgPath),
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
    hasSetting: (name) => toolSettings.ok && (toolSettings.value.settings[name] ?? '') !== '',
    confinement,
    composed,
    agents,
  });
  const rest = restApiConnectors(
    restApis.ok ? Object.entries(restApis.value.apis).map(([name, entry]) => ({ name, entry })) : [],
    { policy: policy.ok ? policy.value : DEFAULT_ORG_POLICY, hasSecret, agents },
  );
  return {
    connectors: [...connectors, ...rest],
    loadErrors: [
      ...(policy.ok ? [] : policy.error),
      ...problems,
      ...(restApis.ok ? [] : restApis.error),
      ...(toolSettings.ok ? [] : toolSettings.error),
    ],
  };
}
