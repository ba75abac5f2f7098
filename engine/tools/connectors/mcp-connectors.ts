import { formatProblem } from '../../api/problem';
import type { McpServerView } from '../../api/tool-schemas';
import { POLICY_FILE, type OrgPolicy } from '../../org/policy-file';
import { MCP_CONFIG_FILE, serverSecretNames, type McpServerConfig } from '../mcp/mcp-config';
import { reachPastGrants, serverFolders, type AgentReading } from '../mcp/mcp-roots';
import { mcpServerGroup } from '../mcp/mcp-tools';
import { TOOL_GROUPS } from '../tool-catalog';
import { NO_SETTINGS } from './builtin-connectors';
import { KIND_WORDS } from '../../api/tool-kind-words';
import type { Connector, ConnectorPermission, ConnectorReadiness } from './connector';

export interface McpConnectorInput {
  view: McpServerView;
  /** Its settings; null for an entry that is not valid (its card shows the entry's problems). */
  config: McpServerConfig | null;
  policy: OrgPolicy;
  hasSecret: (name: string) => boolean;
  agents: readonly (AgentReading & { tools: readonly string[] })[];
  orgPath: string;
}

const STATUS_WORDS: Record<McpServerView['status'], string> = {
  stopped: 'stopped',
  starting: 'starting',
  running: 'running',
  restarting: 'restarting after a crash',
  failed: 'failed',
  disabled: 'turned off',
  not_trusted: 'not started: this org is not trusted yet',
  network_off: "not started: the org's internet access is off",
  needs_sign_in: 'waiting for you to sign in',
};

/** An MCP server as a Tool Store card: its status, its tools, the secrets it names and who may use it. */
export function mcpConnector(input: McpConnectorInput): Connector {
  const { config, policy, hasSecret, agents, orgPath } = input;
  const group = mcpServerGroup(input.view.server);
  const tools = input.view.tools.map((tool) => tool.grantName);
  const grants = new Set([...tools, group, TOOL_GROUPS.mcp]);
  const users = agents.filter((agent) => agent.tools.some((tool) => grants.has(tool)));
  // Its file tools answer to its own folders, not to the agents' grants: the card says where that reaches.
  const reach = config ? reachPastGrants(serverFolders(config, orgPath), users, orgPath) : [];
  const view = { ...input.view, rights: [input.view.rights, ...reach].join(' ') };
  const permissions: ConnectorPermission[] = [
    {
      scope: 'agent',
      requirement: `add "${group}" (all of its tools) or single tool names (mcp__${view.server}__<tool>) to the agent's permissions.tools`,
      plain: 'switched on for each agent that should use it (on its page, or under Tools below)',
      met: null,
    },
    {
      scope: 'org',
      requirement: `"mcp" is in allowed_tool_kinds (${POLICY_FILE})`,
      plain: `${KIND_WORDS.mcp} tools are allowed for the org`,
      met: policy.allowed_tool_kinds.includes('mcp'),
    },
    ...(view.transport === 'http'
      ? [
          {
            scope: 'org' as const,
            requirement: `network.enabled is true (${POLICY_FILE})`,
            plain: "the org's internet access is on",
            met: policy.network.enabled,
          },
        ]
      : []),
    ...tools
      .filter((tool) => policy.tools.deny.includes(tool))
      .map((tool) => ({
        scope: 'org' as const,
        requirement: `"${tool}" is not in tools.deny (${POLICY_FILE})`,
        plain: `the org has not turned “${tool}” off`,
        met: false,
      })),
  ];
  const secrets = (config ? serverSecretNames(config) : []).map((name) => ({
    name,
    description: `named in the ${view.server} entry of ${MCP_CONFIG_FILE}`,
    isSet: hasSecret(name),
  }));
  return {
    id: `mcp:${view.server}`,
    name: view.server,
    description: `MCP server (${view.transport === 'stdio' ? 'a program on this computer' : 'over HTTP'}): ${view.target}. ${STATUS_WORDS[view.status]}.`,
    kind: 'mcp',
    toolKinds: ['mcp'],
    tools,
    permissions,
    configSchema: secrets.length > 0 ? secretsSchema(secrets.map((secret) => secret.name)) : NO_SETTINGS,
    config: null,
    secrets,
    readiness: readiness(view),
    source: { file: MCP_CONFIG_FILE, agent: null },
    grantedTo: users.map((agent) => agent.name),
    mcp: view,
  };
}

function readiness(view: McpServerView): ConnectorReadiness {
  if (view.status === 'running') return { ready: true, note: view.rights };
  if (view.status === 'disabled')
    return {
      ready: false,
      reason: `the MCP server ${view.server} is turned off`,
      fix: `remove "disabled" from its entry in ${MCP_CONFIG_FILE}`,
      plain: { reason: `the tool server ${view.server} is turned off`, fix: 'turn it on' },
    };
  if (view.status === 'network_off')
    return {
      ready: false,
      reason: `the MCP server ${view.server} is not started: network access is off for this org (network.enabled in ${POLICY_FILE})`,
      fix: `set network.enabled to true in ${POLICY_FILE}`,
      plain: {
        reason: `the tool server ${view.server} is ${STATUS_WORDS.network_off}`,
        fix: 'turn internet access on for the org',
      },
    };
  if (view.status === 'needs_sign_in')
    return {
      ready: false,
      reason: `the MCP server ${view.server} is ${STATUS_WORDS.needs_sign_in}${view.error ? `: ${view.error}` : ''}`,
      fix: `sign in to it (lemming connectors <org> --sign-in ${view.server}, or Sign in on its card in the app)`,
      plain: {
        reason: `the tool server ${view.server} is ${STATUS_WORDS.needs_sign_in}`,
        fix: `sign in to ${view.server} on its card`,
      },
    };
  if (view.status === 'not_trusted')
    return {
      ready: false,
      reason: `the MCP server ${view.server} is ${STATUS_WORDS.not_trusted}`,
      fix: 'trust the org as it is now (lemming trust <org> --yes, or Trust in the app)',
      plain: {
        reason: `the tool server ${view.server} is ${STATUS_WORDS.not_trusted}`,
        fix: 'trust this org if you trust what it would run',
      },
    };
  if (view.entryProblems.length > 0)
    return {
      ready: false,
      reason: `the MCP server ${view.server} is not started: its entry in ${MCP_CONFIG_FILE} is not valid (${view.entryProblems.map(formatProblem).join('; ')})`,
      fix: `fix its entry in ${MCP_CONFIG_FILE} as the problems say`,
      plain: {
        reason: `the tool server ${view.server} is not started: its settings have a problem`,
        fix: 'correct its settings (what is wrong is under Advanced)',
      },
    };
  return {
    ready: false,
    reason: `the MCP server ${view.server} is ${STATUS_WORDS[view.status]}${view.error ? `: ${view.error}` : ''}`,
    fix: `fix its entry in ${MCP_CONFIG_FILE} (the command, the URL, the secrets it names) so that it starts`,
    plain: {
      reason: `the tool server ${view.server} is ${STATUS_WORDS[view.status]}`,
      fix: 'check its program or address and its keys so that it starts (what it said is under Advanced)',
    },
  };
}

function secretsSchema(names: readonly string[]): Record<string, unknown> {
  return {
    type: 'object',
    properties: Object.fromEntries(
      names.map((name) => [name, { type: 'string', title: name, writeOnly: true }]),
    ),
    required: [...names],
    additionalProperties: false,
  };
}
