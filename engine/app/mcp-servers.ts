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
  SERVER_LISTS,
  updateMcpConfig,
  type McpConfig,
  type McpEntry,
  type McpServerConfig,
} from '../tools/mcp/mcp-config';
import { readServersFromAnySpelling, secretNameFor, type ImportPlan } from '../tools/mcp/mcp-import';
import { listConnectors } from './connectors';
import { entryRevision, savedSecretsNamed } from './mcp-entry-view';
import type { OrgContext } from './org-context';
import { issuesFromProblems } from './problems';
import { deleteSecret, setSecret } from './secrets';
import { grantAskedSecrets, grantStoredSecrets, keepingTrust } from './trust';

/** An environment variable's name, as shells and `env` take it. */
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** A header's name: an HTTP token (RFC 9110). */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** What pasted settings are called in what is said about them. */
const PASTED = 'pasted settings';
/** What the form's fields are called while they are read as an entry. */
const FORM = 'the form';

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
  const existing = current.value.entries.find((entry) => entry.name === name);
  const before = ownEntry(current.value.servers, name);
  if (input.opened && (!before || entryRevision(before) !== input.opened.revision))
    return fail(
      'refused',
      `${MCP_CONFIG_FILE} changed since this form was opened; nothing was saved over the change.`,
      undefined,
      'Close the form and open it again to see the server as it is now.',
    );
  if (existing && !input.opened && !input.replace)
    return fail(
      'needs_confirmation',
      `There is already a server named ${name}; nothing was added.`,
      [{ path: 'name', message: `there is already a server named ${name}; adding this one replaces it` }],
      `Add it again agreeing to replace ${name} (lemming connectors <org> --add ${name} … --replace), or pick another name.`,
    );
  const kept = input.opened ? before : undefined;
  const described = describedEntry(input, kept);
  if (!described.ok) return described;

  const text = JSON.stringify({ mcpServers: { [name]: described.value } });
  const planned = plannedServers(current.value, text, FORM, secretReferencesOf(described.value));
  if (!planned.ok) return planned;
  const { plan } = planned.value;
  if (plan.problems.length > 0)
    return fail('invalid_change', 'Nothing was saved.', fieldIssues(name, plan.problems));
  const server = plan.servers[0];
  if (!server)
    return fail('invalid_change', 'Nothing was saved.', [
      { path: 'name', message: plan.skipped[0]?.reason ?? 'not a server the file can take' },
    ]);
  const at = [existing?.list ?? current.value.list, name];
  const edits = kept ? changedFieldEdits(at, kept, server.entry) : [{ path: at, value: server.entry }];
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
  at: readonly string[],
  before: McpServerConfig,
  entry: Record<string, unknown>,
): JsonEdit[] {
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
  const current = await serversToChange(context.orgPath);
  if (!current.ok) return current;
  const planned = plannedServers(current.value, input.text, PASTED, []);
  if (!planned.ok) return planned;
  const { plan } = planned.value;
  if (plan.problems.length > 0)
    return fail('invalid_change', 'Nothing was added.', pastedIssues(plan.problems));
  const handedSecrets = savedSecretsNamed(plan, PASTED);
  if (handedSecrets.length > 0)
    return fail(
      'invalid_change',
      'Nothing was added.',
      handedSecrets.map((message) => ({ path: 'text', message })),
    );
  const agreed = new Set(input.replaceServers ?? []);
  const unasked = plan.servers
    .map((server) => server.name)
    .filter((name) => planned.value.replacing.has(name) && !agreed.has(name));
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
  if (plan.servers.length === 0) return ok({ imported: [], secrets: [], skipped: plan.skipped, toAsk: [] });
  const written = await writeServers(
    context,
    planned.value,
    plan.servers.map((server) => ({
      path: [planned.value.replacing.get(server.name)?.list ?? current.value.list, server.name],
      value: server.entry,
    })),
    input.replaceSecrets ?? [],
    pastedIssues,
  );
  if (!written.ok) return written;
  return ok({
    imported: plan.servers.map((server) => server.name),
    secrets: plan.servers.flatMap((server) => server.secrets.map((secret) => secret.name)),
    skipped: plan.skipped,
    toAsk: plan.asks,
  });
}

/** A value of `record` that is its own, never one every object has (`constructor`, `toString`). */
function ownEntry<T>(record: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}

function savedSecretMessage(names: readonly string[]): string {
  return `this names the saved secret ${names.join(', ')}; type the value itself (it is kept as a secret of this server)`;
}

/** The secrets an entry the form describes names: the values it keeps from the entry it changes. */
function secretReferencesOf(entry: Record<string, unknown>): string[] {
  return [entry.env, entry.headers].flatMap((values) =>
    isObject(values)
      ? Object.values(values).flatMap((value) => (typeof value === 'string' ? secretReferences(value) : []))
      : [],
  );
}

/** A plan and what it replaces: the org's entries of the names it adds, and their secrets. */
interface PlannedServers {
  plan: ImportPlan;
  /** Entries of the org (valid or not) of the names the settings give, by name. */
  replacing: Map<string, McpEntry>;
  /** The valid ones among them, whose secrets the plan writes over (edited or replaced). */
  replaced: Map<string, McpServerConfig>;
  config: McpConfig;
}

/**
 * Plans adding the servers of `text` (any app's spelling, read by the import's one reader) as if the
 * org's servers of the same names were gone: their secret names are free to take again, the others' and
 * those the settings keep (`keptSecrets`) are not.
 */
function plannedServers(
  config: McpConfig,
  text: string,
  source: string,
  keptSecrets: readonly string[],
): IpcResult<PlannedServers> {
  const named = readServersFromAnySpelling(text, source, { servers: new Set(), secretNames: new Set() });
  if (!named.ok) return unreadable(named.error);
  const names = new Set([...named.value.servers, ...named.value.skipped].map((server) => server.name));
  if (names.size === 0)
    return fail('invalid_change', 'Nothing was added: the settings name no server.', [
      {
        path: 'text',
        message:
          'expected servers by name, as in {"mcpServers": {"name": {"command": …}}} or VS Code\'s {"servers": {…}}',
      },
    ]);
  const replacing = new Map(
    config.entries.filter((entry) => names.has(entry.name)).map((entry) => [entry.name, entry]),
  );
  const replaced = new Map(Object.entries(config.servers).filter(([name]) => replacing.has(name)));
  const others = Object.entries(config.servers).filter(([name]) => !replaced.has(name));
  const plan = readServersFromAnySpelling(text, source, {
    servers: new Set(config.entries.map((entry) => entry.name).filter((name) => !replacing.has(name))),
    secretNames: new Set([...others.flatMap(([, entry]) => serverSecretNames(entry)), ...keptSecrets]),
  });
  if (!plan.ok) return unreadable(plan.error);
  return ok({ plan: plan.value, replacing, replaced, config });
}

/** Settings the reader found no servers in (not JSON, or no list of servers), said at the pasted text. */
function unreadable(problems: readonly Problem[]): IpcResult<never> {
  const syntax = problems.find((problem) => problem.line !== undefined);
  if (syntax)
    return fail('invalid_change', 'Nothing was added: the pasted text is not JSON.', [
      { path: 'text', message: `line ${syntax.line}, column ${syntax.column ?? 1}: ${syntax.message}` },
    ]);
  return fail(
    'invalid_change',
    'Nothing was added: the settings name no server.',
    problems.map((problem) => ({ path: 'text', message: problem.message })),
  );
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
  const grantedAsked = await grantAskedSecrets(
    context,
    planned.plan.asks.map((ask) => ask.name),
  );
  if (!grantedAsked.ok) return grantedAsked;
  const updated = await updateMcpConfig(context.orgPath, edits);
  if (!updated.ok) return fail('invalid_change', 'Nothing was saved.', located(updated.error));
  const deleted = await deleteUnusedSecrets(context, planned.replaced, updated.value);
  return deleted.ok ? ok(null) : deleted;
}

/** A problem's field without the server list it is in: `mcpServers.x.args.0`, `mcp.servers.x` → `x.args.0`, `x`. */
function serverField(field: string): string {
  for (const list of ['mcp.servers', ...SERVER_LISTS])
    if (field.startsWith(`${list}.`)) return field.slice(list.length + 1);
  return field;
}

/** Problems of one entry at the form's field names (`mcpServers.x.args.0` → `args.0`); others as they are. */
function fieldIssues(name: string, problems: readonly Problem[]): IpcIssue[] {
  const prefix = `${name}.`;
  return problems.map((problem) => {
    const field = serverField(problem.field);
    return field.startsWith(prefix)
      ? { path: field.slice(prefix.length), message: problem.message }
      : (issuesFromProblems([problem])[0] as IpcIssue);
  });
}

/** Problems of pasted servers, said at the pasted text by server and field (`x, args.0: … (line 3)`). */
function pastedIssues(problems: readonly Problem[]): IpcIssue[] {
  return problems.map((problem) => {
    const [server, ...field] = serverField(problem.field).split('.');
    const line = problem.line === undefined ? '' : ` (line ${problem.line})`;
    return server
      ? {
          path: 'text',
          message: `${server}${field.length > 0 ? `, ${field.join('.')}` : ''}: ${problem.message}${line}`,
        }
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
  const lists = raw?.ok && isObject(raw.value) ? raw.value : {};
  const list = SERVER_LISTS.find((key) => isObject(lists[key]) && isObject(ownEntry(lists[key], input.name)));
  const entry = list ? ownEntry(lists[list] as Record<string, unknown>, input.name) : undefined;
  if (!list || !isObject(entry))
    return fail('not_found', `There is no MCP server named ${input.name} in this org.`);
  const updated = await updateMcpConfig(context.orgPath, [{ path: [list, input.name], remove: true }]);
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
  const stillNamed = new Set(Object.values(after.servers).flatMap(serverSecretNames));
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
