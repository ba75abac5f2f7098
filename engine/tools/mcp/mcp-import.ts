import { homedir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import type { Result } from '../../api/result';
import { McpImportSource } from '../../api/tool-schemas';
import { parseJsonText } from '../../files/json-text';
import { readTextFile } from '../../files/read-text-file';
import { McpServerName, SECRET_REFERENCE } from './mcp-config';

/** Apps whose MCP settings can be imported, and where each keeps them on this OS. */
export const IMPORT_SOURCES = McpImportSource.options;
export type ImportSource = McpImportSource;

export function importSourceFile(
  source: ImportSource,
  place: { platform: NodeJS.Platform; home: string; appData?: string | undefined } = {
    platform: process.platform,
    home: homedir(),
    appData: process.env.APPDATA,
  },
): string {
  if (source === 'cursor') return join(place.home, '.cursor', 'mcp.json');
  if (place.platform === 'darwin')
    return join(place.home, 'Library', 'Application Support', 'Claude', 'claude_desktop_config.json');
  if (place.platform === 'win32')
    return join(
      place.appData ?? join(place.home, 'AppData', 'Roaming'),
      'Claude',
      'claude_desktop_config.json',
    );
  return join(place.home, '.config', 'Claude', 'claude_desktop_config.json');
}

const ForeignServer = z.looseObject({
  command: z.string().optional(),
  args: z.array(z.string()).optional(),
  env: z.record(z.string(), z.string()).optional(),
  url: z.string().optional(),
  headers: z.record(z.string(), z.string()).optional(),
  type: z.string().optional(),
  disabled: z.boolean().optional(),
});
const ForeignConfig = z.looseObject({ mcpServers: z.record(z.string(), z.unknown()).default({}) });

/** One server ready to be written to mcp.json, and the secrets to store first (values never in the file). */
export interface ImportedServer {
  name: string;
  entry: Record<string, unknown>;
  secrets: { name: string; value: string }[];
}

export interface ImportPlan {
  servers: ImportedServer[];
  skipped: { name: string; reason: string }[];
}

const SECRET_NAME_MAX = 128;

/**
 * `my server` + `API_KEY` → `MCP_MY_SERVER_API_KEY`: a valid secret name that says where it came from.
 * Different servers and keys can spell alike (`gh` + `X_TOKEN`, `gh_x` + `TOKEN`); a name already
 * `taken` gets `_2`, `_3`…, so no server is handed another one's value.
 */
export function secretNameFor(server: string, key: string, taken: Set<string>): string {
  const base = `MCP_${server}_${key}`
    .toUpperCase()
    .replace(/[^A-Z0-9_]+/g, '_')
    .replace(/_+/g, '_')
    .slice(0, SECRET_NAME_MAX);
  let name = base;
  for (let count = 2; taken.has(name); count += 1)
    name = `${base.slice(0, SECRET_NAME_MAX - `_${count}`.length)}_${count}`;
  taken.add(name);
  return name;
}

/** What the org has already: its servers' names, and the secret names their entries use. */
export interface ImportTarget {
  servers: ReadonlySet<string>;
  secretNames: ReadonlySet<string>;
}

/**
 * Reads another app's `mcpServers` and plans their import: every env and header value moves to the
 * secret store (imported values are often keys, and which ones is not written anywhere), and the entry
 * names it, each value its own name (none the org's servers use); servers the org already has, or
 * whose names cannot name tools, are skipped with the reason.
 */
export async function planImport(file: string, existing: ImportTarget): Promise<Result<ImportPlan, string>> {
  const read = await readTextFile(file);
  if (!read.found) return { ok: false, error: read.missing ? `${file} does not exist` : read.message };
  const parsed = parseJsonText(read.text);
  if (!parsed.ok) return { ok: false, error: `${file} is not valid JSON: ${parsed.error.message}` };
  return planServers(parsed.value, existing, file);
}

/** The import plan of settings already read (`where` names them in the error): see planImport. */
export function planServers(
  value: unknown,
  existing: ImportTarget,
  where: string,
): Result<ImportPlan, string> {
  const config = ForeignConfig.safeParse(value);
  if (!config.success) return { ok: false, error: `${where} has no mcpServers object` };
  const plan: ImportPlan = { servers: [], skipped: [] };
  const taken = new Set(existing.secretNames);
  for (const [name, raw] of Object.entries(config.data.mcpServers)) {
    const server = ForeignServer.safeParse(raw);
    if (!server.success || (server.data.command === undefined) === (server.data.url === undefined)) {
      plan.skipped.push({ name, reason: 'it has neither a command nor a url (or both)' });
      continue;
    }
    if (!McpServerName.safeParse(name).success) {
      plan.skipped.push({
        name,
        reason: 'its name cannot name tools (letters, digits, - and single _, at most 32)',
      });
      continue;
    }
    if (existing.servers.has(name)) {
      plan.skipped.push({ name, reason: 'the org already has a server with that name' });
      continue;
    }
    const secrets: { name: string; value: string }[] = [];
    const toSecrets = (values: Record<string, string> | undefined) =>
      Object.fromEntries(
        Object.entries(values ?? {}).map(([key, value]) => {
          if (value.replace(SECRET_REFERENCE, '') === '') return [key, value];
          const secret = secretNameFor(name, key, taken);
          secrets.push({ name: secret, value });
          return [key, `\${secrets.${secret}}`];
        }),
      );
    const { command, args, env, url, headers, disabled } = server.data;
    const entry: Record<string, unknown> =
      command !== undefined
        ? { command, args: args ?? [], env: toSecrets(env) }
        : { url, headers: toSecrets(headers) };
    if (disabled) entry.disabled = true;
    plan.servers.push({ name, entry, secrets });
  }
  return { ok: true, value: plan };
}
