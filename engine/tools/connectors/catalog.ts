import { POLICY_FILE, type OrgPolicy } from '../../org/policy-file';
import type { Confinement } from '../../sandbox/shell/confinement';
import { secretNameProblem } from '../../secrets/secret-name';
import { TOOL_GROUPS, type CatalogEntry } from '../tool-catalog';
import type { ToolKind } from '../tool-spec';
import { KIND_WORDS } from '../../api/tool-kind-words';
import { BUILTIN_CONNECTORS, NO_SETTINGS, type BuiltinConnector } from './builtin-connectors';
import { TOOL_SETTINGS_FILE } from './tool-settings-file';

/** The JSON Schema keyword marking a setting that must be a bare origin (`https://host[:port]`). */
export const BASE_URL_KEYWORD = 'x-base-url';
import type { Connector, ConnectorPermission, ConnectorReadiness, ConnectorSecret } from './connector';

/** A composed tool as the Tool Store needs it (from engine/tools/composed: its source and requiredSecrets). */
export interface ComposedConnectorInput {
  name: string;
  description: string;
  /** The YAML file, relative to the org folder. */
  file: string;
  /** The agent folder for a tool under `agents/<folder>/api-tools/`; null for an org tool under `tools/`. */
  agent: string | null;
  /** The kind of what it finally calls: `network` for HTTP tools. */
  toolKind: ToolKind;
  secrets: readonly { name: string; description?: string }[];
  /** Settings that are not secrets (a base URL), saved in the org's tool-settings.json. */
  settings?: readonly string[];
  /** Load errors; a tool with any is not ready. */
  problems: readonly string[];
}

/** A tool file whose problems kept its tools out: shown in the Tool Store so the user can fix it. */
export interface BrokenToolFile {
  file: string;
  agent: string | null;
  problems: string[];
}

export interface ConnectorCatalogInput {
  policy: OrgPolicy;
  /** Whether a secret is set; never its value (see secretPresence). */
  hasSecret: (name: string) => boolean;
  /** Whether a tool setting (lemming/config/tool-settings.json) is filled in. */
  hasSetting?: (name: string) => boolean;
  /** How the shell is confined here; without it nothing is said about confinement. */
  confinement?: Confinement;
  composed?: readonly ComposedConnectorInput[];
  brokenFiles?: readonly BrokenToolFile[];
  /** The org's agents, to say which agents each connector's tools are granted to. */
  agents?: readonly { name: string; folder: string; tools: readonly string[] }[];
}

/**
 * The Tool Store's connectors: the built-in primitives by kind, then the composed tools, each with
 * what it needs (permissions, settings, secrets), whether the org meets each org-level need, and its
 * readiness, judged from secret presence alone.
 */
export function connectorCatalog(input: ConnectorCatalogInput): Connector[] {
  return [
    ...BUILTIN_CONNECTORS.map((connector) => builtin(connector, input)),
    ...(input.composed ?? []).map((tool) => composed(tool, input)),
    ...(input.brokenFiles ?? []).map(broken),
  ];
}

function builtin(connector: BuiltinConnector, input: ConnectorCatalogInput): Connector {
  return {
    id: connector.id,
    name: connector.name,
    description: connector.description,
    kind: 'builtin',
    toolKinds: [connector.toolKind],
    tools: [...connector.tools],
    permissions: permissionsFor(connector.tools, connector.toolKind, input.policy),
    configSchema: connector.configSchema,
    config: connector.config,
    secrets: [],
    readiness: connector.readiness(input.confinement ? { confinement: input.confinement } : {}),
    source: null,
    grantedTo: grantedTo(connector.tools, connector.toolKind, input.agents ?? []),
  };
}

function composed(tool: ComposedConnectorInput, input: ConnectorCatalogInput): Connector {
  const secrets: ConnectorSecret[] = tool.secrets.map(({ name, description }) => ({
    name,
    description: description ?? `used by ${friendlyName(tool.name)}`,
    isSet: input.hasSecret(name),
  }));
  const settings = tool.settings ?? [];
  const hasSetting = input.hasSetting ?? (() => false);
  const agents = (input.agents ?? []).filter((agent) => tool.agent === null || agent.folder === tool.agent);
  return {
    id: tool.agent === null ? `composed:org:${tool.name}` : `composed:agent:${tool.agent}:${tool.name}`,
    name: friendlyName(tool.name),
    description: tool.description,
    kind: 'composed',
    toolKinds: [tool.toolKind],
    tools: [tool.name],
    permissions: permissionsFor([tool.name], tool.toolKind, input.policy),
    configSchema: {
      type: 'object',
      properties: Object.fromEntries([
        ...settings.map((name) => [
          name,
          {
            type: 'string',
            title: 'Address of the service',
            description: `Where ${friendlyName(tool.name)} sends its requests: only a scheme, host and port, such as https://api.example.com.`,
            format: 'uri',
            [BASE_URL_KEYWORD]: true,
          },
        ]),
        ...secrets.map((secret) => [
          secret.name,
          { type: 'string', title: secret.name, description: secret.description, writeOnly: true },
        ]),
      ]),
      required: [...settings, ...secrets.map((secret) => secret.name)],
      additionalProperties: false,
    },
    config: settings.length > 0 ? { file: TOOL_SETTINGS_FILE, pointer: '/settings' } : null,
    secrets,
    readiness: composedReadiness(
      tool,
      secrets,
      settings.filter((name) => !hasSetting(name)),
    ),
    source: { file: tool.file, agent: tool.agent },
    grantedTo: grantedTo([tool.name], tool.toolKind, agents),
  };
}

function broken(file: BrokenToolFile): Connector {
  return {
    id: `file:${file.file}`,
    name: file.file,
    description: 'A tool file that could not be loaded; none of its tools are offered.',
    kind: 'composed',
    toolKinds: [],
    tools: [],
    permissions: [],
    configSchema: NO_SETTINGS,
    config: null,
    secrets: [],
    readiness: problemReadiness(file.file, file.problems),
    source: { file: file.file, agent: file.agent },
    grantedTo: [],
  };
}

function problemReadiness(file: string, problems: readonly string[]): ConnectorReadiness {
  const more =
    problems.length > 1 ? ` (and ${problems.length - 1} more problem${problems.length > 2 ? 's' : ''})` : '';
  return {
    ready: false,
    reason: `${file} has errors: ${problems[0] ?? 'unknown'}${more}`,
    fix: `fix ${file}`,
    plain: {
      reason: 'its tool file has mistakes, so it cannot be used',
      fix: 'have its tool file corrected (what is wrong is under Advanced)',
    },
  };
}

function composedReadiness(
  tool: ComposedConnectorInput,
  secrets: readonly ConnectorSecret[],
  missingSettings: readonly string[],
): ConnectorReadiness {
  if (tool.problems.length > 0) return problemReadiness(tool.file, tool.problems);
  const badName = secrets.map((secret) => secretNameProblem(secret.name)).find((problem) => problem !== null);
  if (badName)
    return {
      ready: false,
      reason: `it needs a secret it cannot have: ${badName}`,
      fix: `rename the secret in ${tool.file}`,
      plain: {
        reason: 'it asks for a key under a name the app cannot store',
        fix: 'have its tool file corrected (what is wrong is under Advanced)',
      },
    };
  if (missingSettings.length > 0)
    return {
      ready: false,
      reason: `its address (${listOf(missingSettings)}) is not filled in`,
      fix: `fill in the address in the Tool Store under ${friendlyName(tool.name)}`,
    };
  const missing = secrets.filter((secret) => !secret.isSet).map((secret) => secret.name);
  if (missing.length === 0) return { ready: true };
  const names = listOf(missing);
  return {
    ready: false,
    reason: `it needs the secret${missing.length > 1 ? 's' : ''} ${names}, which ${missing.length > 1 ? 'are' : 'is'} not set`,
    fix: `set ${names} in the Tool Store (or: ${missing.map((name) => `lemming secret set ${name}`).join('; ')})`,
    plain: {
      reason: `it needs the key${missing.length > 1 ? 's' : ''} ${names}, which ${missing.length > 1 ? 'are' : 'is'} not set yet`,
      fix: `enter ${missing.length > 1 ? 'them' : 'it'} with its “Set up” button`,
    },
  };
}

export function permissionsFor(
  tools: readonly string[],
  kind: ToolKind,
  policy: OrgPolicy,
): ConnectorPermission[] {
  const group = TOOL_GROUPS[kind];
  const grant =
    tools.length === 1 ? `"${tools[0]}" or "${group}"` : `"${group}" (all of its tools) or single tool names`;
  const permissions: ConnectorPermission[] = [
    {
      scope: 'agent',
      requirement: `add ${grant} to the agent's permissions.tools`,
      plain: 'switched on for each agent that should use it (on its page, or under Tools below)',
      met: null,
    },
    {
      scope: 'org',
      requirement: `"${kind}" is in allowed_tool_kinds (${POLICY_FILE})`,
      plain: `${KIND_WORDS[kind]} tools are allowed for the org`,
      met: policy.allowed_tool_kinds.includes(kind),
    },
  ];
  if (kind === 'network')
    permissions.push({
      scope: 'org',
      requirement: `network.enabled is true (${POLICY_FILE})`,
      plain: 'internet access is on for the org',
      met: policy.network.enabled,
    });
  for (const tool of tools.filter((name) => policy.tools.deny.includes(name))) {
    permissions.push({
      scope: 'org',
      requirement: `"${tool}" is not in tools.deny (${POLICY_FILE})`,
      plain: `the org has not turned “${friendlyName(tool)}” off`,
      met: false,
    });
  }
  return permissions;
}

export function grantedTo(
  tools: readonly string[],
  kind: ToolKind,
  agents: readonly { name: string; tools: readonly string[] }[],
): string[] {
  const grants = new Set([...tools, TOOL_GROUPS[kind]]);
  return agents.filter((agent) => agent.tools.some((tool) => grants.has(tool))).map((agent) => agent.name);
}

/** `fetch_weather` → "Fetch weather", as OpenClaw labels api-tools. */
function friendlyName(name: string): string {
  const words = name.replace(/[_-]+/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

function listOf(names: readonly string[]): string {
  return names.length <= 1 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}

/**
 * The policy resolver's readiness layer from the connectors: a catalog entry whose connector is not
 * ready takes the connector's reason and fix (pass the org's connectors and the agent's own).
 */
export function withConnectorReadiness(
  catalog: readonly CatalogEntry[],
  connectors: readonly Connector[],
): CatalogEntry[] {
  const notReady = new Map<string, ConnectorReadiness>();
  for (const connector of connectors) {
    if (connector.readiness.ready) continue;
    for (const tool of connector.tools) notReady.set(tool, connector.readiness);
  }
  return catalog.map((entry) => {
    const readiness = notReady.get(entry.spec.name);
    return readiness && entry.readiness.ready ? { ...entry, readiness } : entry;
  });
}
