import { join } from 'node:path';
import type { z } from 'zod';
import { AGENT_RESUMES, keepingTrust } from './trust';
import { fail, ok, type IpcResult } from '../api/result';
import type {
  Connector,
  ConnectorConfigInput,
  ConnectorList,
  McpImportResult,
  McpSignInInput,
  TrustMcpHintsInput,
  AllowMcpSamplingInput,
} from '../api/tool-schemas';
import type { McpServerRecord } from '../api/approval-schemas';
import type { JsonEdit } from '../files/json-edit';
import { parseHostPatterns } from '../net/host-patterns';
import type { OrgPolicy } from '../org/policy-file';
import { DEFAULT_ORG_POLICY, POLICY_FILE, readPolicy, updatePolicy } from '../org/policy-file';
import { discoverAgents } from '../org/discover';
import { agentPaths } from '../org/org-layout';
import type { Resume } from '../org/resume-schema';
import { secretPresence } from '../secrets/secret-store';
import { mcpConnector } from '../tools/connectors/mcp-connectors';
import { BASE_URL_KEYWORD } from '../tools/connectors/catalog';
import {
  readToolSettings,
  TOOL_SETTINGS_FILE,
  updateToolSettings,
} from '../tools/connectors/tool-settings-file';
import { isBareOrigin } from '../tools/composed/template';
import { MCP_CONFIG_FILE, readMcpConfig, serverSecretNames, updateMcpConfig } from '../tools/mcp/mcp-config';
import { IMPORT_SOURCES, importSourceFile, planImport, type ImportSource } from '../tools/mcp/mcp-import';
import { withHintsTrusted, withSamplingAllowed } from '../tools/mcp/mcp-tool-record';
import { openInBrowser } from '../tools/mcp/auth/open-browser';
import { orgKeyOf } from '../trust/org-trust';
import type { CatalogEntry } from '../tools/tool-catalog';
import { resolveTools } from '../tools/policy-resolver';
import type { Connector as CatalogConnector } from '../tools/connectors/connector';
import { mcpEntryViews, savedSecretsNamed } from './mcp-entry-view';
import { orgConnectors } from './org-connectors';
import type { OrgContext } from './org-context';
import { issuesFromProblems } from './problems';
import { deleteSecret, setSecret } from './secrets';
import { grantAskedSecrets, grantStoredSecrets } from './trust';

type Settings = Record<string, unknown>;

/** `/network/private_hosts` → ['network', 'private_hosts'] (RFC 6901 escapes undone). */
function pointerPath(pointer: string): string[] {
  return pointer === ''
    ? []
    : pointer
        .slice(1)
        .split('/')
        .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'));
}

function settingNames(connector: CatalogConnector): string[] {
  const properties = connector.configSchema.properties;
  return typeof properties === 'object' && properties !== null ? Object.keys(properties) : [];
}

/** The connector's setting values as they are in its file (only the fields its schema names). */
function settingsOf(connector: CatalogConnector, files: Record<string, unknown>): Settings {
  if (!connector.config || !(connector.config.file in files)) return {};
  let value: unknown = files[connector.config.file];
  for (const key of pointerPath(connector.config.pointer))
    value = typeof value === 'object' && value !== null ? (value as Settings)[key] : undefined;
  if (typeof value !== 'object' || value === null) return {};
  return Object.fromEntries(
    settingNames(connector)
      .filter((name) => name in value)
      .map((name) => [name, (value as Settings)[name]]),
  );
}

async function connectorViews(context: OrgContext) {
  const [{ connectors, loadErrors }, policy, discovered, toolSettings] = await Promise.all([
    orgConnectors(context.orgPath, context.secrets.store),
    readPolicy(context.orgPath),
    discoverAgents(context.orgPath),
    readToolSettings(context.orgPath),
  ]);
  const files = {
    [POLICY_FILE]: policy.ok ? policy.value : {},
    [TOOL_SETTINGS_FILE]: toolSettings.ok ? toolSettings.value : {},
  };
  const agents = discovered.flatMap((agent) => (agent.valid ? [agent] : []));
  const mcp = await mcpConnectors(context, policy.ok ? policy.value : DEFAULT_ORG_POLICY);
  const entries = await mcpEntryViews(context.orgPath, context.secrets.store);
  const catalogs = new Map<string, Promise<CatalogEntry[]>>();
  const catalogOf = (name: string) => {
    if (!catalogs.has(name)) catalogs.set(name, context.engine.agentToolCatalog(name));
    return catalogs.get(name) as Promise<CatalogEntry[]>;
  };
  const views: { connector: CatalogConnector; view: Connector }[] = [];
  for (const connector of [...connectors, ...mcp.connectors]) {
    const agent = agents.find(
      (candidate) => connector.source?.agent == null || candidate.folder === connector.source.agent,
    );
    const usable =
      agent && policy.ok
        ? usableFor(connector, agent.resume, policy.value, await catalogOf(agent.resume.name))
        : connector.readiness;
    const mcpEntry = connector.mcp && entries.get(connector.mcp.server);
    views.push({
      connector,
      view: {
        ...connector,
        usable,
        settings: settingsOf(connector, files),
        ...(mcpEntry ? { mcpEntry } : {}),
      },
    });
  }
  return { views, loadErrors: [...loadErrors, ...mcp.problems] };
}

/** The org's MCP servers as cards, each started (or tried) first so its card shows its tools or its error. */
async function mcpConnectors(context: OrgContext, policy: OrgPolicy) {
  await context.engine.syncMcpServers(policy);
  const [hasSecret, discovered] = await Promise.all([
    secretPresence(context.secrets.store),
    discoverAgents(context.orgPath),
  ]);
  const agents = discovered.flatMap((agent) =>
    agent.valid
      ? [
          {
            name: agent.resume.name,
            tools: agent.resume.permissions.tools,
            agentDir: join(context.orgPath, agentPaths(agent.folder).root),
            fileAccess: agent.resume.permissions.file_access,
          },
        ]
      : [],
  );
  const configs = new Map(context.engine.mcp.serverConfigs().map(({ name, config }) => [name, config]));
  const connectors = context.engine.mcp.views().map((view) =>
    mcpConnector({
      view,
      config: configs.get(view.server) ?? null,
      policy,
      hasSecret,
      agents,
      orgPath: context.orgPath,
    }),
  );
  return { connectors, problems: context.engine.mcp.problems };
}

/** The layers of the policy resolver that are the org's, not one agent's: what decides whether the connector works at all. */
const ORG_LAYERS = new Set(['org_deny', 'kind', 'readiness']);

/**
 * Whether the connector's tools can work in this org, from the policy resolver itself: its tools
 * judged for an agent granted them (the org's deny list, tool kinds, network, setup), leaving out
 * what each agent decides (its grants, tool kinds, credits).
 */
function usableFor(
  connector: CatalogConnector,
  resume: Resume,
  policy: OrgPolicy,
  catalog: readonly CatalogEntry[],
): Connector['usable'] {
  if (!connector.readiness.ready) return connector.readiness;
  const granted: Resume = {
    ...resume,
    permissions: { ...resume.permissions, tools: [...connector.tools], tool_kinds: undefined },
  };
  const entries = catalog.filter((entry) => connector.tools.includes(entry.spec.name));
  const failing = resolveTools({ resume: granted, policy, catalog: entries, credits: null }).flatMap(
    (verdict) =>
      verdict.layers
        .filter((layer) => ORG_LAYERS.has(layer.layer) && !layer.passed)
        .map((layer) => ({ verdict, layer })),
  );
  const first = failing[0];
  if (!first) return connector.readiness;
  const reasons = [...new Set(failing.map(({ layer }) => layer.reason))];
  const plainReasons = [...new Set(failing.map(({ layer }) => layer.plain))];
  return {
    ready: false,
    reason: reasons.join('; '),
    fix: first.verdict.fix?.summary ?? 'no setting of the org makes it usable',
    plain: {
      reason: plainReasons.join('; '),
      fix: first.verdict.fix?.plain ?? 'nothing in the org’s settings can make it work',
    },
  };
}

/** A setting that is a service's base URL must be only a scheme, host and port (the rule its template renders by). */
function baseUrlSettingProblems(
  connector: CatalogConnector,
  name: string,
  value: unknown,
): { path: string; message: string }[] {
  const property = (connector.configSchema.properties as Record<string, Record<string, unknown>>)[name];
  if (property?.[BASE_URL_KEYWORD] !== true || value === null) return [];
  if (typeof value === 'string' && isBareOrigin(value.trim())) return [];
  return [
    {
      path: `values.${name}`,
      message: `${JSON.stringify(value)} is not an address of the form https://api.example.com (a scheme, a host and maybe a port; no path, user, ? or #)`,
    },
  ];
}

/** Settings that name hosts, by the JSON Schema format their connector gives them. */
function hostSettingProblems(
  connector: CatalogConnector,
  name: string,
  value: unknown,
): { path: string; message: string }[] {
  const property = (connector.configSchema.properties as Record<string, { items?: { format?: string } }>)[
    name
  ];
  if (property?.items?.format !== 'hostname' || !Array.isArray(value)) return [];
  return value.flatMap((item, index) => {
    if (typeof item !== 'string') return [];
    const parsed = parseHostPatterns([item]);
    const message = !parsed.ok
      ? `"${item}" is not a host name: ${parsed.error[0]?.message ?? 'it cannot be read'}`
      : parsed.value[0]?.kind !== 'exact'
        ? `"${item}" is a pattern; name each private host exactly (for example nas.local)`
        : null;
    return message ? [{ path: `values.${name}[${index}]`, message }] : [];
  });
}

/**
 * The person trusts (or stops trusting) what one MCP server says about which of its tools only read.
 * Kept in their own record, outside the org, under what the server is (its identity): the org's files
 * cannot say it for them, and an entry pointed at another program or address is not trusted by it.
 */
export function trustMcpHints(context: OrgContext, input: TrustMcpHintsInput): Promise<IpcResult<Connector>> {
  return changeMcpServerChoice(context, input, (record) => withHintsTrusted(record, input.trusted));
}

/**
 * The person lets (or stops letting) one MCP server ask the models of the agents using it (sampling),
 * each question paid by the agent whose tool call it serves. Kept like the hints choice: in their own
 * record, under the server's identity, so no org file can allow it and another program or address is
 * asked about again. The server is started again with its new choice (it is told as it starts).
 */
export function allowMcpSampling(
  context: OrgContext,
  input: AllowMcpSamplingInput,
): Promise<IpcResult<Connector>> {
  return changeMcpServerChoice(context, input, (record) => withSamplingAllowed(record, input.allowed));
}

/** Records a choice about the server the person was shown; the card after it (listing it restarts a server whose choices changed). */
async function changeMcpServerChoice(
  context: OrgContext,
  input: { server: string; identity: string },
  edit: (record: McpServerRecord | undefined) => McpServerRecord,
): Promise<IpcResult<Connector>> {
  const card = (await connectorViews(context)).views.find(({ view }) => view.id === `mcp:${input.server}`);
  if (!card?.view.mcp) return fail('not_found', `There is no MCP server "${input.server}" in this org.`);
  if (card.view.mcp.identity !== input.identity)
    return fail(
      'refused',
      `The MCP server ${input.server} now runs or reaches something else than what you were shown; nothing was changed.`,
      undefined,
      'Look at its card again and choose again.',
    );
  const changed = await context.trust.changeMcpServer(orgKeyOf(context.orgPath), input.identity, edit);
  if (!changed.ok) return fail('invalid_change', `Your choice could not be saved: ${changed.error}`);
  const updated = (await connectorViews(context)).views.find(({ view }) => view.id === `mcp:${input.server}`);
  return updated
    ? ok(updated.view)
    : fail('not_found', `The MCP server ${input.server} is no longer in this org.`);
}

/**
 * The person signs in to one MCP server over HTTP: its sign-in page opens with `openPage` (the app's
 * system browser, the CLI's `BROWSER` or system default), the answer comes back to a loopback redirect,
 * and the tokens go to the secret store (scoped to this org and server); the server then starts.
 */
export async function signInToMcpServer(
  context: OrgContext,
  input: McpSignInInput,
  openPage: (url: URL) => Promise<void> = (url) => openInBrowser(url),
): Promise<IpcResult<Connector>> {
  const policy = await readPolicy(context.orgPath);
  await context.engine.syncMcpServers(policy.ok ? policy.value : DEFAULT_ORG_POLICY);
  try {
    await context.engine.mcp.signIn(input.server, openPage);
  } catch (error) {
    return fail(
      'refused',
      `Signing in to ${input.server} did not work: ${error instanceof Error ? error.message : String(error)}.`,
    );
  } finally {
    await context.secrets.changed();
  }
  const updated = (await connectorViews(context)).views.find(({ view }) => view.id === `mcp:${input.server}`);
  return updated
    ? ok(updated.view)
    : fail('not_found', `The MCP server ${input.server} is no longer in this org.`);
}

export async function listConnectors(
  context: OrgContext,
): Promise<IpcResult<z.output<typeof ConnectorList>>> {
  const { views, loadErrors } = await connectorViews(context);
  return ok({ connectors: views.map(({ view }) => view), loadErrors });
}

/**
 * Saves a connector drawer. A secret field's value goes to the secret store (null deletes it), is
 * granted to the org and is never returned; a setting is written to the part of policy.json the connector names, and the file
 * must stay valid or nothing is written. Fields the connector does not have are refused.
 */
export function setConnectorConfig(
  context: OrgContext,
  input: z.output<typeof ConnectorConfigInput>,
): Promise<IpcResult<Connector>> {
  // Turning network access on gives the agents granted web requests their reach: items of their resumes.
  return keepingTrust(
    context,
    (file) => file === POLICY_FILE || file === TOOL_SETTINGS_FILE || AGENT_RESUMES(file),
    () => saveConnectorConfig(context, input),
  );
}

async function saveConnectorConfig(
  context: OrgContext,
  input: z.output<typeof ConnectorConfigInput>,
): Promise<IpcResult<Connector>> {
  const found = (await connectorViews(context)).views.find(({ view }) => view.id === input.connector);
  if (!found) return fail('not_found', `There is no connector "${input.connector}" in this org.`);
  const { connector } = found;
  const secretNames = new Set(connector.secrets.map((secret) => secret.name));
  const settings = new Set(connector.config ? settingNames(connector) : []);

  const issues: { path: string; message: string }[] = [];
  const settingEdits: JsonEdit[] = [];
  const secretChanges: [string, string | null][] = [];
  for (const [name, value] of Object.entries(input.values)) {
    if (secretNames.has(name)) {
      if (typeof value === 'string' || value === null) secretChanges.push([name, value]);
      else
        issues.push({
          path: `values.${name}`,
          message: `${name} is a secret: give text, or null to delete it`,
        });
    } else if (settings.has(name) && connector.config) {
      const problems = [
        ...hostSettingProblems(connector, name, value),
        ...baseUrlSettingProblems(connector, name, value),
      ];
      if (problems.length > 0) {
        issues.push(...problems);
        continue;
      }
      const path = [...pointerPath(connector.config.pointer), name];
      const trimmed = typeof value === 'string' ? value.trim() : value;
      settingEdits.push(trimmed === null ? { path, remove: true } : { path, value: trimmed });
    } else {
      issues.push({
        path: `values.${name}`,
        message: `${connector.name} has no setting or secret named ${name}`,
      });
    }
  }
  if (issues.length > 0) return fail('invalid_change', `Nothing was saved for ${connector.name}.`, issues);
  if (settingEdits.length > 0) {
    const file = connector.config?.file;
    if (file !== POLICY_FILE && file !== TOOL_SETTINGS_FILE)
      return fail('refused', `${connector.name}'s settings cannot be changed here.`);
    const updated =
      file === POLICY_FILE
        ? await updatePolicy(context.orgPath, settingEdits)
        : await updateToolSettings(context.orgPath, settingEdits);
    if (!updated.ok)
      return fail(
        'invalid_change',
        `Nothing was saved for ${connector.name}.`,
        issuesFromProblems(updated.error),
      );
  }
  for (const [name, value] of secretChanges) {
    const changed =
      value === null
        ? await deleteSecret(context.secrets, name)
        : await setSecret(context.secrets, name, value);
    if (!changed.ok) return changed;
  }
  const granted = await grantStoredSecrets(
    context,
    secretChanges.flatMap(([name, value]) => (value === null ? [] : [name])),
  );
  if (!granted.ok) return granted;
  const after = (await connectorViews(context)).views.find(({ view }) => view.id === input.connector);
  return after ? ok(after.view) : fail('not_found', `The connector "${input.connector}" is gone.`);
}

/**
 * Imports the MCP servers of Claude Desktop or Cursor (from where they keep them on this OS, or a
 * given file) into the org's mcp.json: each env and header value goes to the secret store first, granted
 * to the org, and the entry names it, so no value lands in the file. Servers the org has are left alone.
 * A stored secret is never replaced unless the person named it in `replaceSecrets`: otherwise nothing is
 * imported and the answer (`needs_confirmation`) lists each such secret as an issue.
 */
export function importMcpServers(
  context: OrgContext,
  input: { from: ImportSource | string; replaceSecrets?: readonly string[] },
): Promise<IpcResult<McpImportResult>> {
  return keepingTrust(context, [MCP_CONFIG_FILE], () => addImportedServers(context, input));
}

async function addImportedServers(
  context: OrgContext,
  input: { from: ImportSource | string; replaceSecrets?: readonly string[] },
): Promise<IpcResult<McpImportResult>> {
  const file = (IMPORT_SOURCES as readonly string[]).includes(input.from)
    ? importSourceFile(input.from as ImportSource)
    : input.from;
  const current = await readMcpConfig(context.orgPath);
  if (!current.ok)
    return fail(
      'invalid_change',
      `${MCP_CONFIG_FILE} is not valid; fix it before importing.`,
      issuesFromProblems(current.error),
    );
  const planned = await planImport(file, {
    servers: new Set(current.value.entries.map((entry) => entry.name)),
    secretNames: new Set(Object.values(current.value.servers).flatMap(serverSecretNames)),
  });
  if (!planned.ok) return fail('not_found', `Nothing was imported: ${planned.error}.`);
  const handedSecrets = savedSecretsNamed(planned.value, 'an imported file');
  if (handedSecrets.length > 0)
    return fail(
      'refused',
      `Nothing was imported: ${handedSecrets.join('; ')}.`,
      handedSecrets.map((message) => ({ path: file, message })),
    );
  const replacing = await secretsReplaced(
    context,
    planned.value.servers.flatMap((server) => server.secrets),
  );
  const unasked = replacing.filter((name) => !(input.replaceSecrets ?? []).includes(name));
  if (unasked.length > 0)
    return fail(
      'needs_confirmation',
      `Nothing was imported: the secret store already has ${unasked.join(', ')}, and importing would replace ${unasked.length === 1 ? 'its value' : 'their values'} with the one${unasked.length === 1 ? '' : 's'} in ${file}.`,
      unasked.map((name) => ({
        path: name,
        message: 'already in the secret store with another value; importing replaces it',
      })),
      `Import again agreeing to replace ${unasked.length === 1 ? 'it' : 'them'} (lemming connectors <org> --import ${input.from} --replace-secrets ${unasked.join(',')}), or leave ${unasked.length === 1 ? 'it' : 'them'} as ${unasked.length === 1 ? 'it is' : 'they are'}.`,
    );
  const { servers, skipped } = planned.value;
  for (const server of servers)
    for (const secret of server.secrets) {
      const saved = await setSecret(context.secrets, secret.name, secret.value);
      if (!saved.ok) return saved;
    }
  const granted = await grantStoredSecrets(
    context,
    servers.flatMap((server) => server.secrets.map((secret) => secret.name)),
  );
  if (!granted.ok) return granted;
  const grantedAsked = await grantAskedSecrets(
    context,
    planned.value.asks.map((ask) => ask.name),
  );
  if (!grantedAsked.ok) return grantedAsked;
  if (servers.length > 0) {
    const updated = await updateMcpConfig(
      context.orgPath,
      servers.map((server) => ({ path: [current.value.list, server.name], value: server.entry })),
    );
    if (!updated.ok)
      return fail(
        'invalid_change',
        'The imported servers could not be written.',
        issuesFromProblems(updated.error),
      );
  }
  return ok({
    file,
    imported: servers.map((server) => server.name),
    secrets: servers.flatMap((server) => server.secrets.map((secret) => secret.name)),
    skipped,
    toAsk: planned.value.asks,
  });
}

/** The planned secrets the store already holds with another value (the same value replaces nothing). */
async function secretsReplaced(
  context: OrgContext,
  planned: readonly { name: string; value: string }[],
): Promise<string[]> {
  const replaced: string[] = [];
  for (const { name, value } of planned) {
    if (!(await context.secrets.store.has(name))) continue;
    if ((await context.secrets.store.reveal(name)) !== value) replaced.push(name);
  }
  return replaced;
}
