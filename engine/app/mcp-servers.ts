import { join } from 'node:path';
import type { z } from 'zod';
import { fail, ok, type IpcIssue, type IpcResult } from '../api/result';
import type {
  Connector,
  McpPasteInput,
  McpPasteResult,
  McpServerInput,
  McpServerRef as McpServerRefSchema,
  McpServerRemoved,
} from '../api/tool-schemas';
import type { Problem } from '../api/problem';
import type { JsonEdit } from '../files/json-edit';
import { parseJsonText } from '../files/json-text';
import { readTextFile } from '../files/read-text-file';
import { planConfigEdit } from '../org/config-file';
import {
  MCP_CONFIG_FILE,
  MCP_CONFIG_SPEC,
  isStdioServer,
  McpServerName,
  readMcpConfig,
  secretReferences,
  serverSecretNames,
  updateMcpConfig,
  type McpConfig,
  type McpServerConfig,
} from '../tools/mcp/mcp-config';
import { planServers, secretNameFor, type ImportPlan } from '../tools/mcp/mcp-import';
import { listConnectors } from './connectors';
import { entryRevision, savedSecretsNamed } from './mcp-entry-view';
import type { OrgContext } from './org-context';
import { issuesFromProblems } from './problems';
import { deleteSecret, setSecret } from './secrets';
import { grantStoredSecrets, keepingTrust } from './trust';

/** An environment variable's name, as shells and `env` take it. */
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** A header's name: an HTTP token (RFC 9110). */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

type Entries = Record<string, unknown>;

/**
 * Pasted or picked settings in the `mcpServers` shape the import reads. VS Code's `servers`, and a bare
 * map of servers by name (as documentation shows one entry), are read as `mcpServers`. The one place
 * settings of another app are read here: the spelling reader of the import takes its place.
 */
function planForeignServers(value: unknown, target: Parameters<typeof planServers>[1]) {
  return planServers(asMcpServers(value), target, 'The pasted settings');
}

function asMcpServers(value: unknown): unknown {
  if (!isObject(value) || 'mcpServers' in value) return value;
  if (isObject(value.servers)) return { mcpServers: value.servers };
  const entries = Object.values(value);
  const bareMap =
    entries.length > 0 && entries.every((entry) => isObject(entry) && ('command' in entry || 'url' in entry));
  return bareMap ? { mcpServers: value } : value;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The org's servers, or the refusal to change them while mcp.json is not valid. */
async function serversToChange(orgPath: string): Promise<IpcResult<McpConfig>> {
  const current = await readMcpConfig(orgPath);
  if (current.ok) return ok(current.value);
  return fail(
    'invalid_change',
    `${MCP_CONFIG_FILE} is not valid; fix it before changing its servers.`,
    issuesFromProblems(current.error),
  );
}

/**
 * Adds an MCP server the person described (a program with its arguments and environment values, or an
 * address with its headers) to the org's mcp.json, or changes one (`opened`). Every environment value
 * and header goes to the secret store, granted to the org, and the entry names it; none is written to
 * the file or returned. A server of the same name is replaced only when the person agreed (`replace`),
 * a stored secret of another value only when they named it (`replaceSecrets`); else nothing is written
 * and the answer (`needs_confirmation`) says what would be replaced. A change never writes over the
 * entry as someone else changed it since its form opened. Nothing is written when a field is wrong; each
 * problem names its field.
 */
export async function saveMcpServer(
  context: OrgContext,
  input: McpServerInput,
): Promise<IpcResult<Connector>> {
  const saved = await keepingTrust(context, [MCP_CONFIG_FILE], () => saveServer(context, input));
  if (!saved.ok) return saved;
  // Its card is made once the org's trust took the change in: only then does the server start.
  const listed = await listConnectors(context);
  if (!listed.ok) return listed;
  const card = listed.value.connectors.find((connector) => connector.id === `mcp:${saved.value}`);
  return card ? ok(card) : fail('not_found', `The MCP server ${saved.value} is gone.`);
}

/** Writes the server; its name. */
async function saveServer(context: OrgContext, input: McpServerInput): Promise<IpcResult<string>> {
  const current = await serversToChange(context.orgPath);
  if (!current.ok) return current;
  const name = input.name.trim();
  const named = McpServerName.safeParse(name);
  if (!named.success)
    return fail('invalid_change', 'Nothing was saved.', [
      { path: 'name', message: named.error.issues[0]?.message ?? 'not a server name' },
    ]);
  const before = ownEntry(current.value.mcpServers, name);
  if (input.opened && (!before || entryRevision(before) !== input.opened.revision))
    return fail(
      'refused',
      `${MCP_CONFIG_FILE} changed since this form was opened; nothing was saved over the change.`,
      undefined,
      'Close the form and open it again to see the server as it is now.',
    );
  if (before && !input.opened && !input.replace)
    return fail(
      'needs_confirmation',
      `There is already a server named ${name}; nothing was added.`,
      [{ path: 'name', message: `there is already a server named ${name}; adding this one replaces it` }],
      `Add it again agreeing to replace ${name} (lemming connectors <org> --add ${name} … --replace), or pick another name.`,
    );
  const kept = input.opened ? before : undefined;
  const described = describedEntry(input, kept);
  if (!described.ok) return described;

  const planned = plannedServers(current.value, { mcpServers: { [name]: described.value } }, [name]);
  if (!planned.ok) return planned;
  const server = planned.value.plan.servers[0];
  if (!server) return fail('invalid_change', 'Nothing was saved.', [{ path: 'name', message: 'not added' }]);
  const edits = kept
    ? changedFieldEdits(name, kept, server.entry)
    : [{ path: ['mcpServers', name], value: server.entry }];
  const written = await writeServers(context, planned.value, edits, input.replaceSecrets ?? [], (problems) =>
    fieldIssues(name, problems),
  );
  return written.ok ? ok(name) : written;
}

/**
 * The entry the form describes, in the shape the import plans from: each row's value, or for a row
 * left empty while editing, the value the entry has (a stored secret stays where it is).
 */
function describedEntry(
  input: McpServerInput,
  kept: McpServerConfig | undefined,
): IpcResult<Record<string, unknown>> {
  const issues: IpcIssue[] = [];
  const { target } = input;
  const keptValues: Record<string, string> = kept ? (isStdioServer(kept) ? kept.env : kept.headers) : {};
  const rows = target.kind === 'program' ? target.env : target.headers;
  const field = target.kind === 'program' ? 'env' : 'headers';
  const values: Record<string, string> = {};
  const seen = new Set<string>();
  rows.forEach((row, index) => {
    const key = row.name.trim();
    const valid = target.kind === 'program' ? ENV_NAME.test(key) : HEADER_NAME.test(key);
    // Header names are the same whatever their case; environment names are not (on Linux and macOS).
    const spelling = target.kind === 'program' ? key : key.toLowerCase();
    const taken = seen.has(spelling);
    seen.add(spelling);
    if (!valid)
      issues.push({
        path: `${field}.${index}.name`,
        message:
          target.kind === 'program'
            ? 'a name of an environment value holds only letters, digits and _, and does not start with a digit'
            : 'a header name holds only letters, digits and - _ .',
      });
    else if (taken) issues.push({ path: `${field}.${index}.name`, message: `${key} is given twice` });
    const value = row.value ?? ownEntry(keptValues, key);
    const named = secretReferences(row.value ?? '');
    if (value === undefined || value === '')
      issues.push({ path: `${field}.${index}.value`, message: `enter the value of ${key || 'this row'}` });
    else if (named.length > 0)
      issues.push({ path: `${field}.${index}.value`, message: savedSecretMessage(named) });
    else if (valid && !taken) values[key] = value;
  });
  if (target.kind === 'program') {
    if (target.command.trim() === '')
      issues.push({ path: 'command', message: 'give the program to start, such as npx or python' });
    target.args.forEach((arg, index) => {
      if (secretReferences(arg).length > 0)
        issues.push({
          path: `args.${index}`,
          message:
            'a secret may not be passed as an argument (every program on this computer can read those)',
        });
    });
  } else if (target.url.trim() === '')
    issues.push({ path: 'url', message: 'give the address of the server, such as https://example.com/mcp' });
  if (issues.length > 0) return fail('invalid_change', 'Nothing was saved.', issues);
  return ok(
    target.kind === 'program'
      ? { command: target.command.trim(), args: target.args, env: values }
      : { url: target.url.trim(), headers: values },
  );
}

/** Edits that change what the form shows of an entry, in place: its other fields stay as they are. */
function changedFieldEdits(
  name: string,
  before: McpServerConfig,
  entry: Record<string, unknown>,
): JsonEdit[] {
  const at = ['mcpServers', name];
  const fields = 'command' in entry ? ['command', 'args', 'env'] : ['url', 'headers'];
  const gone = isStdioServer(before) ? ['command', 'args', 'env'] : ['url', 'headers'];
  const switched = isStdioServer(before) !== 'command' in entry;
  return [
    ...(switched ? [...gone, 'type'].map((field) => ({ path: [...at, field], remove: true as const })) : []),
    ...fields.map((field) => ({ path: [...at, field], value: entry[field] })),
  ];
}

/**
 * Adds the MCP servers of settings the person pasted or read from a file they picked (any app's
 * spelling) to the org's mcp.json, their values to the secret store as an import does. Servers of the
 * org with a pasted server's name are replaced only when the person named them (`replaceServers`), stored
 * secrets of another value only when named (`replaceSecrets`); else nothing is written and the answer
 * (`needs_confirmation`) lists each, as `servers.NAME` and `secrets.NAME`.
 */
export function pasteMcpServers(
  context: OrgContext,
  input: McpPasteInput,
): Promise<IpcResult<McpPasteResult>> {
  return keepingTrust(context, [MCP_CONFIG_FILE], () => addPastedServers(context, input));
}

async function addPastedServers(
  context: OrgContext,
  input: McpPasteInput,
): Promise<IpcResult<McpPasteResult>> {
  const parsed = parseJsonText(input.text);
  if (!parsed.ok)
    return fail('invalid_change', 'Nothing was added: the pasted text is not JSON.', [
      {
        path: 'text',
        message: `line ${parsed.error.line}, column ${parsed.error.column}: ${parsed.error.message}`,
      },
    ]);
  const current = await serversToChange(context.orgPath);
  if (!current.ok) return current;
  const pastedNames = Object.keys(mcpServersOf(asMcpServers(parsed.value)));
  const planned = plannedServers(current.value, parsed.value, pastedNames);
  if (!planned.ok) return planned;
  const { plan } = planned.value;
  const handedSecrets = savedSecretsNamed(plan.servers, 'pasted settings');
  if (handedSecrets.length > 0)
    return fail(
      'invalid_change',
      'Nothing was added.',
      handedSecrets.map((message) => ({ path: 'text', message })),
    );
  const agreed = new Set(input.replaceServers ?? []);
  const unasked = plan.servers
    .map((server) => server.name)
    .filter((name) => ownEntry(current.value.mcpServers, name) !== undefined && !agreed.has(name));
  const secretsUnasked = await unagreedSecrets(context, planned.value, input.replaceSecrets ?? []);
  if (unasked.length > 0 || secretsUnasked.length > 0)
    return fail(
      'needs_confirmation',
      `Nothing was added: ${[
        ...(unasked.length > 0 ? [`the org already has ${unasked.join(', ')}`] : []),
        ...(secretsUnasked.length > 0 ? [`the secret store already has ${secretsUnasked.join(', ')}`] : []),
      ].join(', and ')}.`,
      [
        ...unasked.map((name) => ({
          path: `servers.${name}`,
          message: 'the org already has a server with that name; adding replaces it',
        })),
        ...secretsUnasked.map((name) => ({
          path: `secrets.${name}`,
          message: 'already in the secret store with another value; adding replaces it',
        })),
      ],
      'Add them again agreeing to replace them, or leave them as they are.',
    );
  if (plan.servers.length === 0) return ok({ imported: [], secrets: [], skipped: plan.skipped });
  const written = await writeServers(
    context,
    planned.value,
    plan.servers.map((server) => ({ path: ['mcpServers', server.name], value: server.entry })),
    input.replaceSecrets ?? [],
    pastedIssues,
  );
  if (!written.ok) return written;
  return ok({
    imported: plan.servers.map((server) => server.name),
    secrets: plan.servers.flatMap((server) => server.secrets.map((secret) => secret.name)),
    skipped: plan.skipped,
  });
}

/** A value of `record` that is its own, never one every object has (`constructor`, `toString`). */
function ownEntry<T>(record: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}

function savedSecretMessage(names: readonly string[]): string {
  return `this names the saved secret ${names.join(', ')}; type the value itself (it is kept as a secret of this server)`;
}

function mcpServersOf(value: unknown): Entries {
  return isObject(value) && isObject(value.mcpServers) ? value.mcpServers : {};
}

/** A plan and what it replaces: the org's entries of the names it adds, and their secrets. */
interface PlannedServers {
  plan: ImportPlan;
  /** Entries of the org the plan writes over (edited or replaced), by name. */
  replaced: Map<string, McpServerConfig>;
  config: McpConfig;
}

/**
 * Plans adding `foreign`'s servers as if the org's servers of the names in `replacing` were gone: their
 * secret names are free to take again, and the others' are not.
 */
function plannedServers(
  config: McpConfig,
  foreign: unknown,
  replacing: readonly string[],
): IpcResult<PlannedServers> {
  const replaced = new Map(Object.entries(config.mcpServers).filter(([name]) => replacing.includes(name)));
  const others = Object.entries(config.mcpServers).filter(([name]) => !replaced.has(name));
  const keptReferences = Object.values(mcpServersOf(asMcpServers(foreign))).flatMap((entry) =>
    isObject(entry)
      ? [entry.env, entry.headers].flatMap((values) =>
          isObject(values)
            ? Object.values(values).flatMap((value) =>
                typeof value === 'string' ? secretReferences(value) : [],
              )
            : [],
        )
      : [],
  );
  const plan = planForeignServers(foreign, {
    servers: new Set(others.map(([name]) => name)),
    secretNames: new Set([...others.flatMap(([, entry]) => serverSecretNames(entry)), ...keptReferences]),
  });
  if (!plan.ok)
    return fail('invalid_change', `Nothing was added: ${plan.error}.`, [
      { path: 'text', message: plan.error },
    ]);
  if (plan.value.servers.length === 0 && plan.value.skipped.length === 0)
    return fail('invalid_change', 'Nothing was added: the settings name no server.', [
      {
        path: 'text',
        message:
          'expected servers by name, as in {"mcpServers": {"name": {"command": …}}} or VS Code\'s {"servers": {…}}',
      },
    ]);
  return ok({ plan: plan.value, replaced, config });
}

/** Stored secrets the plan would give another value that the person did not agree to, nor are the replaced servers' own. */
async function unagreedSecrets(
  context: OrgContext,
  planned: PlannedServers,
  agreed: readonly string[],
): Promise<string[]> {
  const own = new Set([...planned.replaced.values()].flatMap(serverSecretNames));
  const unasked: string[] = [];
  for (const { name, value } of planned.plan.servers.flatMap((server) => server.secrets)) {
    if (own.has(name) || agreed.includes(name) || !(await context.secrets.store.has(name))) continue;
    if ((await context.secrets.store.reveal(name)) !== value) unasked.push(name);
  }
  return unasked;
}

/**
 * Checks the file as it would be, stores and grants the secrets, writes the file, and deletes the secrets
 * of replaced entries that nothing names any more (only those named for their server).
 */
async function writeServers(
  context: OrgContext,
  planned: PlannedServers,
  edits: readonly JsonEdit[],
  agreedSecrets: readonly string[],
  located: (problems: readonly Problem[]) => IpcIssue[],
): Promise<IpcResult<null>> {
  const unasked = await unagreedSecrets(context, planned, agreedSecrets);
  if (unasked.length > 0)
    return fail(
      'needs_confirmation',
      `Nothing was saved: the secret store already has ${unasked.join(', ')}, and saving would replace ${unasked.length === 1 ? 'its value' : 'their values'}.`,
      unasked.map((name) => ({
        path: `secrets.${name}`,
        message: 'already in the secret store with another value; saving replaces it',
      })),
      `Save again agreeing to replace ${unasked.length === 1 ? 'it' : 'them'} (--replace-secrets ${unasked.join(',')}), or leave ${unasked.length === 1 ? 'it' : 'them'} as ${unasked.length === 1 ? 'it is' : 'they are'}.`,
    );
  const checked = await planConfigEdit(context.orgPath, MCP_CONFIG_SPEC, edits);
  if (!checked.ok) return fail('invalid_change', 'Nothing was saved.', located(checked.error));
  const secrets = planned.plan.servers.flatMap((server) => server.secrets);
  for (const secret of secrets) {
    const saved = await setSecret(context.secrets, secret.name, secret.value);
    if (!saved.ok) return saved;
  }
  const granted = await grantStoredSecrets(
    context,
    secrets.map((secret) => secret.name),
  );
  if (!granted.ok) return granted;
  const updated = await updateMcpConfig(context.orgPath, edits);
  if (!updated.ok) return fail('invalid_change', 'Nothing was saved.', located(updated.error));
  const deleted = await deleteUnusedSecrets(context, planned.replaced, updated.value);
  return deleted.ok ? ok(null) : deleted;
}

/** File problems of one entry at the form's field names (`mcpServers.x.args.0` → `args.0`); others as they are. */
function fieldIssues(name: string, problems: readonly Problem[]): IpcIssue[] {
  const prefix = `mcpServers.${name}.`;
  return problems.map((problem) =>
    problem.field?.startsWith(prefix)
      ? { path: problem.field.slice(prefix.length), message: problem.message }
      : (issuesFromProblems([problem])[0] as IpcIssue),
  );
}

/** File problems of pasted servers, said at the pasted text by server and field (`x, args.0: …`). */
function pastedIssues(problems: readonly Problem[]): IpcIssue[] {
  return problems.map((problem) => {
    const [, server, field] = /^mcpServers\.([^.]+)(?:\.(.+))?$/.exec(problem.field ?? '') ?? [];
    return server
      ? { path: 'text', message: `${server}${field ? `, ${field}` : ''}: ${problem.message}` }
      : (issuesFromProblems([problem])[0] as IpcIssue);
  });
}

/**
 * Removes an MCP server from the org's mcp.json (even one whose entry is not valid), and the secrets
 * stored for it alone: those named for it (as the form and the import name them) that no other server
 * names. Secrets it shares, or that were named otherwise, stay.
 */
export function removeMcpServer(
  context: OrgContext,
  input: z.infer<typeof McpServerRefSchema>,
): Promise<IpcResult<McpServerRemoved>> {
  return keepingTrust(context, [MCP_CONFIG_FILE], () => removeServer(context, input));
}

async function removeServer(
  context: OrgContext,
  input: z.infer<typeof McpServerRefSchema>,
): Promise<IpcResult<McpServerRemoved>> {
  const read = await readTextFile(join(context.orgPath, MCP_CONFIG_FILE));
  const raw = read.found ? parseJsonText(read.text) : null;
  const entry = raw?.ok ? ownEntry(mcpServersOf(raw.value), input.name) : undefined;
  if (!isObject(entry)) return fail('not_found', `There is no MCP server named ${input.name} in this org.`);
  const updated = await updateMcpConfig(context.orgPath, [
    { path: ['mcpServers', input.name], remove: true },
  ]);
  if (!updated.ok) return fail('invalid_change', 'Nothing was removed.', issuesFromProblems(updated.error));
  const deleted = await deleteUnusedSecrets(context, new Map([[input.name, rawEntry(entry)]]), updated.value);
  return deleted.ok ? ok({ name: input.name, secretsDeleted: deleted.value }) : deleted;
}

/** The values of an entry as written, whether or not it is valid. */
function rawEntry(entry: Record<string, unknown>): {
  env: Record<string, string>;
  headers: Record<string, string>;
} {
  const texts = (values: unknown) =>
    isObject(values)
      ? Object.fromEntries(
          Object.entries(values).filter((pair): pair is [string, string] => typeof pair[1] === 'string'),
        )
      : {};
  return { env: texts(entry.env), headers: texts(entry.headers) };
}

/** Whether `secret`, named by `key` of `server`'s entry, is the name the form and the import give it. */
function namedFor(server: string, key: string, secret: string): boolean {
  const base = secretNameFor(server, key, new Set());
  return secret === base || new RegExp(`^${base}_\\d+$`).test(secret);
}

async function deleteUnusedSecrets(
  context: OrgContext,
  gone: ReadonlyMap<string, { env?: Record<string, string>; headers?: Record<string, string> }>,
  after: McpConfig,
): Promise<IpcResult<string[]>> {
  const stillNamed = new Set(Object.values(after.mcpServers).flatMap(serverSecretNames));
  const deleted: string[] = [];
  for (const [server, entry] of gone)
    for (const [key, value] of Object.entries({ ...entry.env, ...entry.headers }))
      for (const secret of secretReferences(value)) {
        if (stillNamed.has(secret) || !namedFor(server, key, secret) || deleted.includes(secret)) continue;
        if (!(await context.secrets.store.has(secret))) continue;
        const removed = await deleteSecret(context.secrets, secret);
        if (!removed.ok) return removed;
        deleted.push(secret);
      }
  return ok(deleted);
}
