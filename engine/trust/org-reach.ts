import type { OrgReach, ReachItem } from '../api/trust-schemas';
import { MODELS_FILE, readModelsFile, type ModelEntry } from '../models/models-file';
import { isStdioServer, MCP_CONFIG_FILE, readMcpConfig, secretReferences } from '../tools/mcp/mcp-config';

/** A command line as a person would type it: arguments with spaces or quotes are quoted. */
export function commandLineOf(command: readonly string[]): string {
  return command
    .map((word) => (/^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`))
    .join(' ');
}

/**
 * Everything the org folder could make this computer do once it runs: the programs it would start, the
 * addresses it would contact, the secrets and environment variables it names, and the agents that may
 * run commands or reach addresses of their model's choosing. Reads files only; starts and sends nothing.
 */
export async function readOrgReach(orgPath: string): Promise<OrgReach> {
  const reach: OrgReach = { items: [], unreadable: [] };
  await Promise.all([mcpReach(orgPath, reach), modelReach(orgPath, reach)]);
  reach.items.sort((a, b) => (a.kind + a.subject < b.kind + b.subject ? -1 : 1));
  return reach;
}

async function mcpReach(orgPath: string, reach: OrgReach): Promise<void> {
  const read = await readMcpConfig(orgPath);
  if (!read.ok) {
    reach.unreadable.push({
      file: MCP_CONFIG_FILE,
      message: read.error.map((problem) => problem.message).join('; '),
    });
    return;
  }
  for (const [name, server] of Object.entries(read.value.mcpServers)) {
    const because = `the MCP server “${name}”`;
    const at = (field: string): Pick<ReachItem, 'file' | 'field'> => ({
      file: MCP_CONFIG_FILE,
      field: `mcpServers.${name}.${field}`,
    });
    if (isStdioServer(server)) {
      reach.items.push({
        kind: 'program',
        subject: commandLineOf([server.command, ...server.args]),
        because,
        ...at('command'),
      });
      for (const [variable, value] of Object.entries(server.env)) {
        for (const secret of secretReferences(value))
          reach.items.push({ kind: 'secret', subject: secret, because, ...at(`env.${variable}`) });
      }
    } else {
      reach.items.push({ kind: 'address', subject: server.url, because, ...at('url') });
      for (const [header, value] of Object.entries(server.headers))
        for (const secret of secretReferences(value))
          reach.items.push({ kind: 'secret', subject: secret, because, ...at(`headers.${header}`) });
    }
  }
}

async function modelReach(orgPath: string, reach: OrgReach): Promise<void> {
  const models = await readModelsFile(orgPath);
  for (const entry of models.entries) reach.items.push(...modelItems(entry));
}

function modelItems(entry: ModelEntry): ReachItem[] {
  const because = `the model “${entry.key}”`;
  const config = entry.provider_config;
  const at = (field: string): Pick<ReachItem, 'file' | 'field'> => ({
    file: MODELS_FILE,
    field: `${entry.key}.${field}`,
  });
  const items: ReachItem[] = [];
  if (entry.provider === 'cli' && config.command)
    items.push({
      kind: 'program',
      subject: commandLineOf(config.command),
      because,
      ...at('provider_config.command'),
    });
  if (config.base_url)
    items.push({ kind: 'address', subject: config.base_url, because, ...at('provider_config.base_url') });
  if (config.api_key_secret)
    items.push({
      kind: 'secret',
      subject: config.api_key_secret,
      because,
      ...at('provider_config.api_key_secret'),
    });
  if (config.api_key_env)
    items.push({
      kind: 'environment',
      subject: config.api_key_env,
      because,
      ...at('provider_config.api_key_env'),
    });
  for (const value of Object.values(config.headers ?? {}))
    for (const secret of secretReferences(String(value)))
      items.push({ kind: 'secret', subject: secret, because, ...at('provider_config.headers') });
  return items;
}
