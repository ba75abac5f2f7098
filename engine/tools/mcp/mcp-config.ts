import type { Problem } from '../../api/problem';
import { join } from 'node:path';
import { z } from 'zod';
import { SecretName } from '../../api/secret-name';
import {
  planConfigEdit,
  readConfigFile,
  type ConfigFileSpec,
  type ConfigRead,
  type ConfigUpdate,
} from '../../org/config-file';
import { writeFileAtomic } from '../../files/atomic-write';
import type { JsonEdit } from '../../files/json-edit';
import { fileProblem, problemsFromIssues, type LocatedJson } from '../../files/json-problems';
import { formatJsonDocument } from '../../files/json-style';
import { parseJsonTree } from '../../files/json-tree';
import { runSerially } from '../../files/serial-by-key';
import { isCredentialHeader } from '../../net/credential-headers';

/** The org's MCP servers, in the spellings of Claude Desktop, Cursor and LM Studio (`mcpServers`) or VS Code (`servers`). */
export const MCP_CONFIG_FILE = 'lemming/config/mcp.json';

/** `${secrets.NAME}`: how a value names a secret; the value itself is never in the file. */
export const SECRET_REFERENCE = /\$\{secrets\.([^}]*)\}/g;

/** `${input:ID}`: VS Code's value asked for when the server starts (declared in the file's `inputs`). */
export const INPUT_REFERENCE = /\$\{input:([^}]*)\}/;

/** A server's name is part of its tools' names (`mcp__<server>__<tool>`), which model APIs limit to [A-Za-z0-9_-]. */
export const McpServerName = z
  .string()
  .regex(/^[A-Za-z0-9-]+(?:_[A-Za-z0-9-]+)*$/, 'a server name may hold only letters, digits, - and single _')
  .max(32, 'a server name has at most 32 characters');

/** Environment names whose values are credentials: they must name a secret, never hold one. */
const CREDENTIAL_ENV = /KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL|AUTH|COOKIE|SESSION/i;

const timing = {
  /** Off without removing it, as Claude Desktop and Cursor write it. */
  disabled: z.boolean({ error: 'disabled must be true or false' }).optional(),
  /** How long the server may take to start and list its tools. */
  start_timeout_ms: z.number().int().min(100).max(120_000).default(15_000),
  /** How long one tool call may take. */
  call_timeout_ms: z.number().int().min(100).max(600_000).default(60_000),
};

const stringMap = (what: string) =>
  z.record(z.string(), z.string({ error: `each value of ${what} must be text` }), {
    error: `${what} must be an object of text values`,
  });

export const McpStdioServer = z.looseObject({
  type: z.literal('stdio').optional(),
  command: z.string({ error: 'command must be text' }).min(1, 'command must not be empty'),
  args: z.array(z.string({ error: 'each argument must be text' })).default([]),
  env: stringMap('env').default({}),
  ...timing,
});
export type McpStdioServer = z.output<typeof McpStdioServer>;

/** The spellings of a server reached over the network: Streamable HTTP (VS Code's `http`) or legacy SSE (`sse`). */
const HTTP_TYPES = ['http', 'streamable-http', 'streamableHttp'] as const;
const SSE_TYPES = ['sse'] as const;
/**
 * How an HTTP server is signed in to, when its authorization server needs more than the defaults
 * (a person signing in, the client registering itself): a client registered beforehand, a client
 * metadata document, the app signing in by itself with client credentials. Credentials name secrets.
 */
export const McpOAuthEntry = z.strictObject({
  grant: z
    .enum(['authorization_code', 'client_credentials', 'identity_assertion'], {
      error:
        'grant must be "authorization_code" (a person signs in), "client_credentials" or "identity_assertion" (your organization\'s sign-in service vouches)',
    })
    .default('authorization_code'),
  client_id: z.string({ error: 'client_id must be text' }).min(1).optional(),
  client_secret: z.string({ error: 'client_secret must be text' }).optional(),
  private_key: z.string({ error: 'private_key must be text' }).optional(),
  signing_algorithm: z.string({ error: 'signing_algorithm must be text' }).optional(),
  client_metadata_url: z
    .url({ protocol: /^https$/, error: 'client_metadata_url must be an https URL' })
    .optional(),
  scope: z.string({ error: 'scope must be text' }).optional(),
  issuer: z.url({ protocol: /^https?$/, error: 'issuer must be an http or https URL' }).optional(),
  /** Enterprise-managed authorization (SEP-990): the organization's identity provider trades its ID token for a grant. */
  idp_token_endpoint: z
    .url({ protocol: /^https?$/, error: 'idp_token_endpoint must be an http or https URL' })
    .optional(),
  idp_client_id: z.string({ error: 'idp_client_id must be text' }).optional(),
  idp_id_token: z.string({ error: 'idp_id_token must be text' }).optional(),
});
export type McpOAuthEntry = z.output<typeof McpOAuthEntry>;

export const McpHttpServer = z.looseObject({
  /** Left out: Streamable HTTP is tried first, then legacy SSE (as the MCP specification advises clients). */
  type: z
    .enum([...HTTP_TYPES, ...SSE_TYPES], {
      error: `type must be one of stdio, ${[...HTTP_TYPES, ...SSE_TYPES].join(', ')}`,
    })
    .optional(),
  url: z.url({ protocol: /^https?$/, error: 'url must be an http or https URL' }),
  headers: stringMap('headers').default({}),
  oauth: McpOAuthEntry.optional(),
  ...timing,
});
export type McpHttpServer = z.output<typeof McpHttpServer>;

export type McpServerConfig = McpStdioServer | McpHttpServer;

/** How a server at a URL is spoken to: as its entry says, or (no `type`) Streamable HTTP with legacy SSE as the fallback. */
export type McpHttpTransport = 'streamable-http' | 'sse' | 'either';

export function httpTransportOf(server: McpHttpServer): McpHttpTransport {
  if (server.type === undefined) return 'either';
  return server.type === 'sse' ? 'sse' : 'streamable-http';
}

const McpServerEntry = z
  .looseObject({}, { error: 'a server entry must be an object' })
  .superRefine((raw, context) => {
    const hasCommand = 'command' in raw;
    const hasUrl = 'url' in raw;
    if (hasCommand === hasUrl)
      context.addIssue({
        code: 'custom',
        message: 'a server has either "command" (a program to start) or "url" (a server to reach), not both',
      });
    else if (raw.type === 'stdio' && hasUrl)
      context.addIssue({
        code: 'custom',
        path: ['type'],
        message: 'type "stdio" starts a program: give "command", not "url"',
      });
    else if (typeof raw.type === 'string' && raw.type !== 'stdio' && hasCommand)
      context.addIssue({
        code: 'custom',
        path: ['type'],
        message: `type "${raw.type}" reaches a server at a URL: give "url", or write "type": "stdio" to start a program`,
      });
  })
  .transform((raw, context): McpServerConfig => {
    const parsed = ('command' in raw ? McpStdioServer : McpHttpServer).safeParse(raw);
    if (parsed.success) return parsed.data;
    // Each issue as zod gave it (its code kept), so a field that is not there reads as missing.
    for (const issue of parsed.error.issues)
      context.addIssue({ ...issue, input: issue.input } as z.core.$ZodRawIssue);
    return z.NEVER;
  })
  .superRefine((server, context) => {
    for (const problem of literalSecretProblems(server)) context.addIssue({ code: 'custom', ...problem });
  });

/** Where servers are listed: `mcpServers` (Claude Desktop, Cursor, LM Studio) or `servers` (VS Code). */
export const SERVER_LISTS = ['mcpServers', 'servers'] as const;
export type ServerList = (typeof SERVER_LISTS)[number];

const serverList = (key: ServerList) =>
  z.record(z.string(), z.unknown(), { error: `${key} must be an object of servers by name` }).optional();

/**
 * The file's own shape; each entry is read on its own (`readMcpConfig`), so one bad server is that
 * server's problem and the others start. Unknown fields are kept.
 */
export const McpConfigSchema = z.looseObject({
  mcpServers: serverList('mcpServers'),
  servers: serverList('servers'),
});

/** One server of the file: where it is listed, and its settings or what is wrong with them. */
export type McpEntry = { name: string; list: ServerList } & (
  | { valid: true; config: McpServerConfig }
  | {
      valid: false;
      problems: Problem[];
      /** What the entry seems to be, for its card: a program to start or a server at a URL. */
      looksLike: 'program' | 'address';
      /** Its command line or URL as far as they are text. */
      target: string;
    }
);

export interface McpConfig {
  /** Every entry in the file's order (`mcpServers` first), valid or not. */
  entries: McpEntry[];
  /** The valid ones by name: the servers that may start. */
  servers: Record<string, McpServerConfig>;
  /** Where a new server is written: `servers` in a file that has only VS Code's list, else `mcpServers`. */
  list: ServerList;
}

function mcpConfigOf(document: unknown, entries: McpEntry[]): McpConfig {
  const has = (list: ServerList) => typeof document === 'object' && document !== null && list in document;
  return {
    entries,
    servers: Object.fromEntries(
      entries.flatMap((entry) => (entry.valid ? [[entry.name, entry.config] as const] : [])),
    ),
    list: has('servers') && !has('mcpServers') ? 'servers' : 'mcpServers',
  };
}

export const MCP_CONFIG_SPEC: ConfigFileSpec<typeof McpConfigSchema> = {
  file: MCP_CONFIG_FILE,
  schema: McpConfigSchema,
  defaultDocument: { mcpServers: {} },
};

export function isStdioServer(server: McpServerConfig): server is McpStdioServer {
  return 'command' in server;
}

/** The field of a server's entry: `mcpServers.files.command`, or `servers.files.command` in VS Code's spelling. */
export function entryField(entry: Pick<McpEntry, 'name' | 'list'>, field?: string): string {
  return [entry.list, entry.name, ...(field === undefined ? [] : [field])].join('.');
}

/**
 * Each server of an MCP config's document on its own: its name and settings checked, problems located
 * at its own fields (file, field, line), the other entries untouched by them.
 */
export function readMcpEntries(document: unknown, file: string, located: LocatedJson | null): McpEntry[] {
  const entries: McpEntry[] = [];
  const seen = new Set<string>();
  const lists = (document ?? {}) as Partial<Record<ServerList, Record<string, unknown>>>;
  for (const list of SERVER_LISTS) {
    for (const [name, raw] of Object.entries(lists[list] ?? {})) {
      const issues: z.core.$ZodIssue[] = [];
      const named = McpServerName.safeParse(name);
      if (!named.success)
        issues.push(...named.error.issues.map((issue) => ({ ...issue, path: [list, name] })));
      if (seen.has(name))
        issues.push({
          code: 'custom',
          input: raw,
          path: [list, name],
          message: `"${name}" is also listed under mcpServers: a server name is used once`,
        });
      seen.add(name);
      const parsed = McpServerEntry.safeParse(raw);
      if (!parsed.success)
        issues.push(...parsed.error.issues.map((issue) => ({ ...issue, path: [list, name, ...issue.path] })));
      if (!parsed.success || issues.length > 0)
        entries.push({
          name,
          list,
          valid: false,
          problems: problemsFromIssues(issues, file, document, located),
          ...roughly(raw),
        });
      else entries.push({ name, list, valid: true, config: parsed.data });
    }
  }
  return entries;
}

/** What an entry that is not valid seems to be, from whatever of it is text. */
function roughly(raw: unknown): { looksLike: 'program' | 'address'; target: string } {
  const entry = (typeof raw === 'object' && raw !== null ? raw : {}) as Record<string, unknown>;
  const text = (value: unknown) => (typeof value === 'string' ? [value] : []);
  if ('command' in entry || entry.type === 'stdio') {
    const args = Array.isArray(entry.args) ? entry.args.flatMap(text) : [];
    return { looksLike: 'program', target: [...text(entry.command), ...args].join(' ') };
  }
  return { looksLike: 'address', target: text(entry.url).join('') };
}

/** The org's MCP servers; a missing file is no servers. Problems name the file, field, line and column. */
export async function readMcpConfig(orgPath: string): Promise<ConfigRead<McpConfig>> {
  const read = await readConfigFile(orgPath, MCP_CONFIG_SPEC);
  if (!read.ok) return read;
  const text = read.text ?? formatJsonDocument(MCP_CONFIG_SPEC.defaultDocument);
  const tree = parseJsonTree(text);
  const located = tree.ok ? { text, root: tree.root } : null;
  return { ...read, value: mcpConfigOf(read.value, readMcpEntries(read.value, MCP_CONFIG_FILE, located)) };
}

/**
 * Edits mcp.json in place (unknown fields and untouched bytes kept). An edit that leaves a server it
 * touches invalid is refused with that server's problems and nothing is written; another entry's
 * problems do not stop it.
 */
export function updateMcpConfig(orgPath: string, edits: readonly JsonEdit[]) {
  const path = join(orgPath, MCP_CONFIG_FILE);
  return runSerially(path, async (): Promise<ConfigUpdate<McpConfig>> => {
    const planned = await planConfigEdit(orgPath, MCP_CONFIG_SPEC, edits);
    if (!planned.ok) return planned;
    const tree = parseJsonTree(planned.text);
    const located = tree.ok ? { text: planned.text, root: tree.root } : null;
    const entries = readMcpEntries(planned.value, MCP_CONFIG_FILE, located);
    const touched = (entry: McpEntry) =>
      edits.some(
        (edit) => edit.path[0] === entry.list && (edit.path.length < 2 || edit.path[1] === entry.name),
      );
    const broken = entries.flatMap((entry) => (!entry.valid && touched(entry) ? entry.problems : []));
    if (broken.length > 0) return { ok: false, error: broken };
    if (planned.changed) {
      try {
        await writeFileAtomic(path, planned.text);
      } catch (error) {
        return {
          ok: false,
          error: [fileProblem(MCP_CONFIG_FILE, `cannot write: ${(error as Error).message}`)],
        };
      }
    }
    return { ...planned, value: mcpConfigOf(planned.value, entries) };
  });
}

/** The secret names a text refers to with `${secrets.NAME}`. */
export function secretReferences(text: string): string[] {
  return [...text.matchAll(SECRET_REFERENCE)].map((match) => match[1] ?? '');
}

/** Every secret a server names (env values, header values), each once. */
export function serverSecretNames(server: McpServerConfig): string[] {
  const values = isStdioServer(server)
    ? Object.values(server.env)
    : [
        ...Object.values(server.headers),
        server.oauth?.client_secret ?? '',
        server.oauth?.private_key ?? '',
        server.oauth?.idp_id_token ?? '',
      ];
  return [...new Set(values.flatMap(secretReferences))];
}

/**
 * What would put a secret's value in the file, or on a command line any program can read: a credential
 * env variable or header with a literal value, a bad secret name, a secret in the arguments or the URL.
 */
function literalSecretProblems(server: McpServerConfig): { path: (string | number)[]; message: string }[] {
  const problems: { path: (string | number)[]; message: string }[] = [];
  const named = (
    where: 'env' | 'headers' | 'oauth',
    entries: Record<string, string>,
    isCredential: (key: string) => boolean,
  ) => {
    for (const [key, value] of Object.entries(entries)) {
      const names = secretReferences(value);
      for (const name of names) {
        const checked = SecretName.safeParse(name);
        if (!checked.success)
          problems.push({
            path: [where, key],
            message: `"${name}" is not a valid secret name: ${checked.error.issues[0]?.message ?? 'invalid'}`,
          });
      }
      if (INPUT_REFERENCE.test(value))
        problems.push({
          path: [where, key],
          message:
            'a "${input:…}" value is asked for by VS Code as it starts the server; here a value you give is kept as a secret: write "${secrets.NAME}" (lemming secret set NAME), or paste or import this entry, which asks for it',
        });
      else if (names.length === 0 && isCredential(key))
        problems.push({
          path: [where, key],
          message: `${key} holds a credential: keep its value in the secret store and write "\${secrets.NAME}" here (lemming secret set NAME)`,
        });
    }
  };
  if (isStdioServer(server)) {
    named('env', server.env, (key) => CREDENTIAL_ENV.test(key));
    server.args.forEach((arg, index) => {
      if (secretReferences(arg).length > 0 || INPUT_REFERENCE.test(arg))
        problems.push({
          path: ['args', index],
          message:
            'a secret may not be passed as an argument (every program on this computer can read those); pass it in env',
        });
    });
  } else {
    named('headers', server.headers, isCredentialHeader);
    const credentials: Record<string, string> = {};
    if (server.oauth?.client_secret !== undefined) credentials.client_secret = server.oauth.client_secret;
    if (server.oauth?.private_key !== undefined) credentials.private_key = server.oauth.private_key;
    if (server.oauth?.idp_id_token !== undefined) credentials.idp_id_token = server.oauth.idp_id_token;
    named('oauth', credentials, () => true);
    if (server.oauth && server.oauth.grant !== 'authorization_code' && !server.oauth.client_id)
      problems.push({
        path: ['oauth', 'client_id'],
        message: `${server.oauth.grant} needs the client_id registered for this app`,
      });
    if (server.oauth?.grant === 'identity_assertion')
      for (const key of ['idp_token_endpoint', 'idp_client_id', 'idp_id_token'] as const)
        if (!server.oauth[key])
          problems.push({ path: ['oauth', key], message: `identity_assertion needs ${key}` });
    if (secretReferences(decodeURIComponent(server.url)).length > 0)
      problems.push({ path: ['url'], message: 'a secret may not be part of the URL; send it in a header' });
  }
  return problems;
}

/** A value with each `${secrets.NAME}` replaced by the secret's value; the names that are not set. */
export function fillSecrets(
  text: string,
  lookup: (name: string) => string | undefined,
): { text: string; missing: string[] } {
  const missing: string[] = [];
  const filled = text.replace(SECRET_REFERENCE, (_, name: string) => {
    const value = lookup(name);
    if (value === undefined) missing.push(name);
    return value ?? '';
  });
  return { text: filled, missing };
}
