import type { Problem } from '../../api/problem';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import type { Result } from '../../api/result';
import { McpImportSource } from '../../api/tool-schemas';
import { formatProblem } from '../../api/problem';
import { syntaxProblem } from '../../files/json-problems';
import { jsonNestingProblem } from '../../files/json-text';
import { locatePath, parseJsonTree } from '../../files/json-tree';
import { readTextFile } from '../../files/read-text-file';
import { INPUT_REFERENCE, McpServerName, readMcpEntries, SECRET_REFERENCE, SERVER_LISTS } from './mcp-config';

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

/** One server ready to be written to mcp.json, and the secrets to store first (values never in the file). */
export interface ImportedServer {
  name: string;
  entry: Record<string, unknown>;
  secrets: { name: string; value: string }[];
}

/**
 * A secret the person is to be asked for: VS Code's `${input:ID}` (declared in the file's `inputs`,
 * which VS Code asks for as the server starts); the entry names it, its value is not in what was read.
 */
export interface SecretToAsk {
  server: string;
  name: string;
  /** The input's own description, as VS Code would show it, or its id. */
  description: string;
}

export interface ImportPlan {
  servers: ImportedServer[];
  /** Secrets the entries name whose values the person must give (VS Code's inputs). */
  asks: SecretToAsk[];
  skipped: { name: string; reason: string }[];
  /** What was wrong with the servers skipped for their settings, each located in what was read. */
  problems: Problem[];
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

/** Reads another app's MCP settings file and plans their import (`readServersFromAnySpelling`). */
export async function planImport(file: string, existing: ImportTarget): Promise<Result<ImportPlan, string>> {
  const read = await readTextFile(file);
  if (!read.found) return { ok: false, error: read.missing ? `${file} does not exist` : read.message };
  const planned = readServersFromAnySpelling(read.text, file, existing);
  return planned.ok ? planned : { ok: false, error: planned.error.map(formatProblem).join('; ') };
}

const VsCodeInput = z.looseObject({ id: z.string(), description: z.string().optional() });

/** Where the servers are in what was read, and the inputs VS Code declares beside them. */
interface FoundServers {
  /** The path of the server list in the document (`["mcpServers"]`, `["mcp", "servers"]`, or `[]`). */
  at: string[];
  servers: Record<string, unknown>;
  /** VS Code's inputs: each id with its description. */
  inputs: Map<string, string>;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const looksLikeServer = (value: unknown): boolean =>
  isObject(value) && (typeof value.command === 'string' || typeof value.url === 'string');

/**
 * The server list of any spelling: `mcpServers` (Claude Desktop, Cursor, LM Studio), `servers` with
 * `inputs` (VS Code's mcp.json; `mcp.servers` in its settings.json), one server with its `name` (VS
 * Code's `--add-mcp`), or servers by name with no wrapper (as pasted from a README).
 */
function findServers(document: unknown, source: string): Result<FoundServers, Problem[]> {
  const none = (message: string, field = ''): Result<FoundServers, Problem[]> => ({
    ok: false,
    error: [{ file: source, field, message }],
  });
  if (!isObject(document)) return none('it is not an object of MCP servers');
  const holder = isObject(document.mcp) ? { value: document.mcp, at: ['mcp'] } : { value: document, at: [] };
  const inputs = new Map<string, string>();
  if (Array.isArray(holder.value.inputs))
    for (const raw of holder.value.inputs) {
      const input = VsCodeInput.safeParse(raw);
      if (input.success) inputs.set(input.data.id, input.data.description ?? input.data.id);
    }
  for (const list of SERVER_LISTS) {
    const servers = holder.value[list];
    if (servers === undefined) continue;
    if (!isObject(servers))
      return none(`${list} must be an object of servers by name`, [...holder.at, list].join('.'));
    return { ok: true, value: { at: [...holder.at, list], servers, inputs } };
  }
  if (looksLikeServer(document)) {
    if (typeof document.name !== 'string' || document.name === '')
      return none(
        'this is one server without a name: give it one ("name": "…"), or write { "mcpServers": { "<name>": … } }',
      );
    const { name, ...server } = document;
    return { ok: true, value: { at: [], servers: { [name]: server }, inputs } };
  }
  const values = Object.values(document);
  if (values.length > 0 && values.every(looksLikeServer))
    return { ok: true, value: { at: [], servers: document, inputs } };
  return none(
    'no MCP servers found: expected "mcpServers" (Claude Desktop, Cursor, LM Studio), "servers" (VS Code) or servers by name, each with a "command" or a "url"',
  );
}

/**
 * Reads MCP servers in any app's spelling (Claude Desktop, Cursor, VS Code, LM Studio; a file, or JSON
 * pasted by the person) into entries for the org's mcp.json: every env and header value moves to the
 * secret store (imported values are often keys, and which ones is not written anywhere), each its own
 * name (none the org's servers use), and the entry names it; a VS Code `${input:ID}` becomes a secret
 * to ask the person for. A server the org already has, whose name cannot name tools, or whose settings
 * are not valid is skipped with the reason (and, for its settings, the located problems); the others
 * are read. `source` names what was read in problems (a file, or "pasted JSON").
 */
export function readServersFromAnySpelling(
  text: string,
  source: string,
  existing: ImportTarget,
): Result<ImportPlan, Problem[]> {
  const tooDeep = jsonNestingProblem(text);
  if (tooDeep) return { ok: false, error: [syntaxProblem(source, tooDeep)] };
  const tree = parseJsonTree(text);
  if (!tree.ok) return { ok: false, error: [syntaxProblem(source, tree.error)] };
  const found = findServers(tree.value, source);
  if (!found.ok) return found;
  const { at, servers, inputs } = found.value;
  const plan: ImportPlan = { servers: [], asks: [], skipped: [], problems: [] };
  const taken = new Set(existing.secretNames);
  for (const [name, raw] of Object.entries(servers)) {
    if (!isObject(raw) || (raw.command === undefined) === (raw.url === undefined)) {
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
    const asks: SecretToAsk[] = [];
    const askedFor = new Map<string, string>();
    const askFor = (id: string): string => {
      const known = askedFor.get(id);
      if (known) return known;
      const secret = secretNameFor(name, id, taken);
      askedFor.set(id, secret);
      asks.push({ server: name, name: secret, description: inputs.get(id) ?? id });
      return secret;
    };
    const toSecrets = (values: unknown) =>
      isObject(values)
        ? Object.fromEntries(
            Object.entries(values).map(([key, value]) => {
              if (typeof value !== 'string' || value.replace(SECRET_REFERENCE, '') === '')
                return [key, value];
              // "Bearer ${input:token}": the asked-for part is the secret, the rest stays as written.
              if (INPUT_REFERENCE.test(value))
                return [
                  key,
                  value.replace(
                    new RegExp(INPUT_REFERENCE.source, 'g'),
                    (_, id: string) => `\${secrets.${askFor(id)}}`,
                  ),
                ];
              const secret = secretNameFor(name, key, taken);
              secrets.push({ name: secret, value });
              return [key, `\${secrets.${secret}}`];
            }),
          )
        : values;
    const entry: Record<string, unknown> = { ...raw };
    if (raw.command !== undefined) {
      entry.args = raw.args ?? [];
      entry.env = toSecrets(raw.env ?? {});
    } else entry.headers = toSecrets(raw.headers ?? {});
    const problems = readMcpEntries({ mcpServers: { [name]: entry } }, source, null).flatMap((read) =>
      read.valid ? [] : read.problems,
    );
    if (problems.length > 0) {
      // Located in what was read, where the person can find them.
      const located = problems.map((problem) => {
        const path = [...at, name, ...problem.field.split('.').slice(2)];
        return { ...problem, field: path.join('.'), ...locatePath(text, tree.root, path) };
      });
      plan.skipped.push({
        name,
        reason: located.map((problem) => `${problem.field}: ${problem.message}`).join('; '),
      });
      plan.problems.push(...located);
      for (const secret of [...secrets, ...asks]) taken.delete(secret.name);
      continue;
    }
    plan.servers.push({ name, entry, secrets });
    plan.asks.push(...asks);
  }
  return { ok: true, value: plan };
}
