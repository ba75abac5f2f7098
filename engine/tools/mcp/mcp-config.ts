import { z } from 'zod';
import { SecretName } from '../../api/secret-name';
import {
  readConfigFile,
  updateConfigFile,
  type ConfigFileSpec,
  type ConfigRead,
} from '../../org/config-file';
import type { JsonEdit } from '../../files/json-edit';
import { isCredentialHeader } from '../../net/credential-headers';

/** The org's MCP servers, in the `mcpServers` format Claude Desktop, Cursor and LM Studio share. */
export const MCP_CONFIG_FILE = 'lemming/config/mcp.json';

/** `${secrets.NAME}`: how a value names a secret; the value itself is never in the file. */
export const SECRET_REFERENCE = /\$\{secrets\.([^}]*)\}/g;

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
  type: z.enum(['http', 'streamable-http', 'streamableHttp']).optional(),
  url: z.url({ protocol: /^https?$/, error: 'url must be an http or https URL' }),
  headers: stringMap('headers').default({}),
  oauth: McpOAuthEntry.optional(),
  ...timing,
});
export type McpHttpServer = z.output<typeof McpHttpServer>;

export type McpServerConfig = McpStdioServer | McpHttpServer;

const McpServerEntry = z
  .looseObject({})
  .superRefine((raw, context) => {
    const hasCommand = 'command' in raw;
    const hasUrl = 'url' in raw;
    if (hasCommand === hasUrl)
      context.addIssue({
        code: 'custom',
        message: 'a server has either "command" (a program to start) or "url" (a server to reach), not both',
      });
  })
  .transform((raw, context): McpServerConfig => {
    const parsed = ('command' in raw ? McpStdioServer : McpHttpServer).safeParse(raw);
    if (parsed.success) return parsed.data;
    for (const issue of parsed.error.issues)
      context.addIssue({ ...issue, code: 'custom', message: issue.message });
    return z.NEVER;
  })
  .superRefine((server, context) => {
    for (const problem of literalSecretProblems(server)) context.addIssue({ code: 'custom', ...problem });
  });

export const McpConfigSchema = z.looseObject({
  mcpServers: z.record(McpServerName, McpServerEntry).default({}),
});
export type McpConfig = z.output<typeof McpConfigSchema>;

export const MCP_CONFIG_SPEC: ConfigFileSpec<typeof McpConfigSchema> = {
  file: MCP_CONFIG_FILE,
  schema: McpConfigSchema,
  defaultDocument: { mcpServers: {} },
};

export function isStdioServer(server: McpServerConfig): server is McpStdioServer {
  return 'command' in server;
}

/** The org's MCP servers; a missing file is no servers. Problems name the file, field, line and column. */
export function readMcpConfig(orgPath: string): Promise<ConfigRead<McpConfig>> {
  return readConfigFile(orgPath, MCP_CONFIG_SPEC);
}

export function updateMcpConfig(orgPath: string, edits: readonly JsonEdit[]) {
  return updateConfigFile(orgPath, MCP_CONFIG_SPEC, edits);
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
      if (names.length === 0 && isCredential(key))
        problems.push({
          path: [where, key],
          message: `${key} holds a credential: keep its value in the secret store and write "\${secrets.NAME}" here (lemming secret set NAME)`,
        });
    }
  };
  if (isStdioServer(server)) {
    named('env', server.env, (key) => CREDENTIAL_ENV.test(key));
    server.args.forEach((arg, index) => {
      if (secretReferences(arg).length > 0)
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
