import type { Problem } from '../api/problem';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import type { Result } from '../api/result';
import type { OrgReach, ReachItem } from '../api/trust-schemas';
import { folderSignature, pathSignature, SignatureCache } from '../files/folder-signature';
import { readTextFile } from '../files/read-text-file';
import { whenExists } from '../files/when-exists';
import { httpProviderDefaults } from '../models/create-provider';
import { MODELS_FILE, parseModelsFile, type ModelEntry } from '../models/models-file';
import { discoverAgents } from '../org/discover';
import { isWithin, relativeWithin } from '../sandbox/sandbox-layout';
import { AGENTS_FOLDER, agentPaths, inOrg } from '../org/org-layout';
import { POLICY_FILE, readPolicy, type OrgPolicy } from '../org/policy-file';
import type { Resume } from '../org/resume-schema';
import { isHttpCall, type ComposedTool, type JsonTemplate } from '../tools/composed/composed-tool';
import { loadComposedTools } from '../tools/composed/loader';
import type { Template } from '../tools/composed/placeholders';
import { formatFieldPath } from '../tools/composed/problem';
import { requiredSecrets } from '../tools/composed/secrets';
import { delegationChain } from '../tools/composed/tool-set';
import { urlTemplateShape } from '../tools/composed/url-template';
import { baseUrlSetting } from '../tools/composed/validate';
import { readToolSettings, TOOL_SETTINGS_FILE } from '../tools/connectors/tool-settings-file';
import {
  entryField,
  isStdioServer,
  MCP_CONFIG_FILE,
  readMcpConfig,
  secretReferences,
} from '../tools/mcp/mcp-config';
import { judgeTools } from '../tools/policy-resolver';
import { keySecretOf, readRestApis, REST_API_FILE } from '../tools/rest-api/rest-api-config';
import { loadSkills } from '../tools/skills/load-skills';
import { SKILL_FILE } from '../tools/skills/skill';
import { toolCatalog } from '../tools/tool-catalog';

/** A command line as a person would type it: arguments with spaces or quotes are quoted. */
export function commandLineOf(command: readonly string[]): string {
  return command.map(shellWord).join(' ');
}

const shellWord = (word: string): string =>
  /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;

/**
 * A program as it would be started: its settings (environment variables, sorted by name, so their order
 * in the file does not matter) before the command line, and the folder it starts in when not the org's.
 */
function programLine(command: readonly string[], env: Record<string, string>, cwd?: string): string {
  const settings = Object.entries(env)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([name, value]) => `${name}=${shellWord(value)}`);
  const line = [...settings, commandLineOf(command)].join(' ');
  return cwd && cwd !== '.' ? `cd ${shellWord(cwd)} && ${line}` : line;
}

/** The shell the `shell` tool runs commands with (engine/sandbox/shell). */
const SHELL_TOOL = 'shell';
const WEB_TOOL = 'http_request';
const SHELL_COMMAND = ['/bin/sh', '-c'];

type Where = Pick<ReachItem, 'file' | 'field'>;

/**
 * Everything the org folder could make this computer do once it runs (docs/ARCHITECTURE.md, “Trust”):
 * the programs it would start, the addresses it would contact, the secrets and environment variables it
 * names, and the agents that may run commands or reach addresses of their model's choosing. Reads files
 * only; starts and sends nothing. Kept while the files it reads are unchanged on disk (their stats), so
 * judging trust before every tick, call and tool sync costs a few stat calls.
 */
export async function readOrgReach(orgPath: string): Promise<OrgReach> {
  return reachCache.get(orgPath, reachSignature(orgPath), () => readReach(orgPath));
}

const reachCache = new SignatureCache<OrgReach>(100);
/** The org's own files that its programs run, as last read: editing one asks again (its contents are in the reach). */
const programFilesOf = new Map<string, readonly string[]>();

/** The stats of every file and folder `readReach` reads: any edit, rename or link changes it. */
function reachSignature(orgPath: string): string {
  const parts = [MCP_CONFIG_FILE, MODELS_FILE, REST_API_FILE, TOOL_SETTINGS_FILE, POLICY_FILE].map((file) =>
    pathSignature(inOrg(orgPath, file), true),
  );
  parts.push(folderSignature(join(orgPath, 'tools'), (name) => [{ path: name, follow: true }]));
  for (const file of programFilesOf.get(orgPath) ?? []) parts.push(pathSignature(file, true));
  const agentsDir = join(orgPath, AGENTS_FOLDER);
  parts.push(pathSignature(agentsDir, false));
  for (const folder of (whenExists(() => readdirSync(agentsDir)) ?? []).sort()) {
    const paths = agentPaths(folder);
    parts.push(
      `${folder}:${pathSignature(inOrg(orgPath, paths.root), false)}`,
      pathSignature(inOrg(orgPath, paths.resume), true),
      folderSignature(inOrg(orgPath, paths.apiTools), (name) => [{ path: name, follow: true }]),
      folderSignature(inOrg(orgPath, paths.skills), (name) => [
        { path: name, follow: false },
        { path: join(name, SKILL_FILE), follow: false },
      ]),
    );
  }
  return parts.join('#');
}

async function readReach(orgPath: string): Promise<OrgReach> {
  const reach: OrgReach = { items: [], unreadable: [] };
  const agents = (await discoverAgents(orgPath)).flatMap((agent) =>
    agent.valid ? [{ folder: agent.folder, file: agent.resumeFile, resume: agent.resume }] : [],
  );
  const policy = await readPolicy(orgPath);
  if (!policy.ok) unreadable(reach, POLICY_FILE, policy.error);
  const launches: Launch[] = [];
  await Promise.all([
    mcpReach(orgPath, reach, launches),
    modelReach(orgPath, reach, launches),
    restApiReach(orgPath, reach),
    composedReach(orgPath, agents, reach),
  ]);
  if (policy.ok) {
    policyReach(policy.value, reach);
    agentPowers(agents, policy.value, reach);
  }
  programFilesOf.set(orgPath, programFiles(orgPath, launches, reach));
  reach.items.sort(compareItems);
  reach.unreadable.sort((a, b) => compareText(a.file, b.file));
  return reach;
}

const compareText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

function compareItems(a: ReachItem, b: ReachItem): number {
  return (
    compareText(a.kind, b.kind) ||
    compareText(a.subject, b.subject) ||
    compareText(a.file, b.file) ||
    compareText(a.field ?? '', b.field ?? '') ||
    compareText(a.because, b.because)
  );
}

function unreadable(reach: OrgReach, file: string, problems: readonly Pick<Problem, 'message'>[]): void {
  reach.unreadable.push({ file, message: problems.map((problem) => problem.message).join('; ') });
}

async function mcpReach(orgPath: string, reach: OrgReach, launches: Launch[]): Promise<void> {
  const read = await readMcpConfig(orgPath);
  if (!read.ok) return unreadable(reach, MCP_CONFIG_FILE, read.error);
  // An entry that is not valid is never started; making it valid changes the file, and so the reach.
  for (const entry of read.value.entries) {
    if (!entry.valid) continue;
    const { name, config: server } = entry;
    // A server turned off is never started; turning it on changes the reach.
    if (server.disabled === true) continue;
    const because = `the tool server “${name}”`;
    const at = (field: string): Where => ({ file: MCP_CONFIG_FILE, field: entryField(entry, field) });
    if (isStdioServer(server)) {
      reach.items.push({
        kind: 'program',
        subject: programLine([server.command, ...server.args], server.env),
        because,
        ...at('command'),
      });
      launches.push({ words: [server.command, ...server.args], cwd: '.', because });
      for (const [variable, value] of Object.entries(server.env))
        for (const secret of secretReferences(value))
          reach.items.push({ kind: 'secret', subject: secret, because, ...at(`env.${variable}`) });
    } else {
      reach.items.push({ kind: 'address', subject: server.url, because, ...at('url') });
      for (const [header, value] of Object.entries(server.headers))
        for (const secret of secretReferences(value))
          reach.items.push({ kind: 'secret', subject: secret, because, ...at(`headers.${header}`) });
    }
  }
}

async function modelReach(orgPath: string, reach: OrgReach, launches: Launch[]): Promise<void> {
  const read = await readTextFile(join(orgPath, MODELS_FILE));
  if (!read.found) {
    if (!read.missing) reach.unreadable.push({ file: MODELS_FILE, message: read.message });
    return;
  }
  const models = parseModelsFile(read.text);
  // An entry with a problem is never called; a file that is not a models object at all is unreadable.
  const broken = models.problems.filter((problem) => problem.field === '');
  if (broken.length > 0) unreadable(reach, MODELS_FILE, broken);
  for (const entry of models.entries) {
    reach.items.push(...modelItems(entry));
    const command = entry.provider === 'cli' ? entry.provider_config.command : undefined;
    if (command)
      launches.push({
        words: command,
        cwd: entry.provider_config.cwd ?? '.',
        because: `the model “${entry.key}”`,
      });
  }
}

/**
 * What calling one model reaches: a `cli` model's program; an HTTP model's server (its base_url, else
 * the provider's own address, which a variable may change) and where its key comes from (a stored secret,
 * else a variable it names, else the provider's usual variable). A scripted model reaches nothing.
 */
function modelItems(entry: ModelEntry): ReachItem[] {
  const because = `the model “${entry.key}”`;
  const config = entry.provider_config;
  const at = (field: string): Where => ({
    file: MODELS_FILE,
    field: `${entry.key}.provider_config.${field}`,
  });
  if (entry.provider === 'cli')
    return config.command
      ? [
          {
            kind: 'program',
            subject: programLine(config.command, config.env ?? {}, config.cwd),
            because,
            ...at('command'),
          },
        ]
      : [];
  const defaults = httpProviderDefaults(entry.provider);
  if (!defaults) return [];
  const items: ReachItem[] = [];
  if (config.base_url) items.push({ kind: 'address', subject: config.base_url, because, ...at('base_url') });
  else {
    if (defaults.baseUrlEnv)
      items.push({
        kind: 'environment',
        subject: defaults.baseUrlEnv,
        because: `${because} (its server's address, when set)`,
        ...at('base_url'),
      });
    if (defaults.baseUrl)
      items.push({ kind: 'address', subject: defaults.baseUrl, because, ...at('base_url') });
  }
  if (config.api_key_secret)
    items.push({ kind: 'secret', subject: config.api_key_secret, because, ...at('api_key_secret') });
  else if (config.api_key_env)
    items.push({ kind: 'environment', subject: config.api_key_env, because, ...at('api_key_env') });
  else if (defaults.keyEnv)
    items.push({
      kind: 'environment',
      subject: defaults.keyEnv,
      because: `${because} (its API key, when set)`,
      ...at('api_key_env'),
    });
  for (const [header, value] of Object.entries(config.headers ?? {}))
    for (const secret of secretReferences(value))
      items.push({ kind: 'secret', subject: secret, because, ...at(`headers.${header}`) });
  return items;
}

async function restApiReach(orgPath: string, reach: OrgReach): Promise<void> {
  const read = await readRestApis(orgPath);
  if (!read.ok) return unreadable(reach, REST_API_FILE, read.error);
  for (const [name, entry] of Object.entries(read.value.apis)) {
    const because = `the web service “${name}”`;
    const at = (field: string): Where => ({ file: REST_API_FILE, field: `apis.${name}.${field}` });
    reach.items.push({ kind: 'address', subject: entry.base_url, because, ...at('base_url') });
    const secret = keySecretOf(entry);
    if (secret) reach.items.push({ kind: 'secret', subject: secret, because, ...at('key_secret') });
  }
}

interface ReachAgent {
  folder: string;
  /** The resume, relative to the org. */
  file: string;
  resume: Resume;
}

/**
 * The org's composed tools (tools/) and each agent's own (api-tools/): the hosts they send requests to,
 * the secrets and settings they fill in, the shell commands they run; and the skills that run the shell,
 * directly or through such a tool.
 */
async function composedReach(orgPath: string, agents: readonly ReachAgent[], reach: OrgReach): Promise<void> {
  const settingsRead = await readToolSettings(orgPath);
  if (!settingsRead.ok) unreadable(reach, TOOL_SETTINGS_FILE, settingsRead.error);
  const settings: Readonly<Record<string, string>> = settingsRead.ok ? settingsRead.value.settings : {};
  const orgTools = await loadComposedTools(orgPath);
  const reported = new Set<string>();
  const report = (load: Awaited<ReturnType<typeof loadComposedTools>>, scope: 'org' | 'agent') => {
    for (const problem of load.problems)
      if (problem.field === '' && !reported.has(problem.file)) {
        reported.add(problem.file);
        unreadable(reach, problem.file, [problem]);
      }
    for (const tool of load.tools)
      if (tool.source.scope === scope) reach.items.push(...toolItems(tool, settings));
  };
  report(orgTools, 'org');
  for (const agent of agents) {
    const own = await loadComposedTools(orgPath, agent.folder);
    report(own, 'agent');
    const visible = new Map(own.tools.map((tool) => [tool.name, tool]));
    try {
      const { skills } = await loadSkills(orgPath, agent.folder);
      for (const skill of skills) {
        if (!skill.dispatch) continue;
        const tool = skill.dispatch.tool;
        const composed = visible.get(tool);
        const endsInShell =
          tool === SHELL_TOOL || (composed !== undefined && endOfChain(composed, visible) === SHELL_TOOL);
        if (endsInShell)
          reach.items.push({
            kind: 'program',
            subject: commandLineOf([...SHELL_COMMAND, '<what the skill is asked to do>']),
            because: `the skill “${skill.name}” of ${agent.resume.name}, through ${tool}`,
            file: skill.file,
            field: 'command-tool',
          });
      }
    } catch (error) {
      reach.unreadable.push({
        file: agentPaths(agent.folder).skills,
        message: `cannot be listed: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
      });
    }
  }
}

/** The registered tool a composed tool's call ends in; null when it sends its own web request. */
function endOfChain(tool: ComposedTool, byName: ReadonlyMap<string, ComposedTool>): string | null {
  const last = byName.get(delegationChain(tool, byName).chain.at(-1) ?? '') ?? tool;
  return isHttpCall(last.implementation) ? null : last.implementation.primitive;
}

function toolItems(tool: ComposedTool, settings: Readonly<Record<string, string>>): ReachItem[] {
  const because = `the tool “${tool.name}”`;
  const field = (...rest: string[]) => formatFieldPath([...tool.source.path, 'implementation', ...rest]);
  const at = (...rest: string[]): Where => ({ file: tool.source.file, field: field(...rest) });
  const implementation = tool.implementation;
  const items: ReachItem[] = [];
  let baseSetting: string | null = null;
  if (isHttpCall(implementation)) {
    const address = urlAddress(implementation.url, settings, implementation.allowedHosts);
    baseSetting = address.setting;
    items.push({
      kind: 'address',
      subject: address.subject,
      because,
      ...(address.setting !== null
        ? { file: TOOL_SETTINGS_FILE, field: `settings.${address.setting}` }
        : at('url')),
    });
  } else if (implementation.primitive === SHELL_TOOL) {
    items.push({
      kind: 'program',
      subject: commandLineOf([...SHELL_COMMAND, argumentText(implementation.args, 'command')]),
      because,
      ...at('args'),
    });
  } else if (implementation.primitive === WEB_TOOL) {
    const url = argumentTemplate(implementation.args, 'url');
    const address = url ? urlAddress(url, settings, 'any') : null;
    items.push({
      kind: 'address',
      subject: address?.subject ?? argumentText(implementation.args, 'url'),
      because,
      ...at('args'),
    });
  }
  for (const name of requiredSecrets(tool))
    if (name !== baseSetting) items.push({ kind: 'secret', subject: name, because, ...at() });
  return items;
}

/**
 * Where a URL template sends its request: its literal `scheme://host[:port]`, or the base URL a setting
 * holds (`{{env.BASE}}/path`: the value the org's tool-settings.json gives it, else the setting's name
 * and the hosts the tool allows it to be).
 */
function urlAddress(
  url: Template,
  settings: Readonly<Record<string, string>>,
  allowedHosts: 'any' | readonly string[],
): { subject: string; setting: string | null } {
  const base = baseUrlSetting(url);
  if (base?.kind === 'config')
    return {
      subject:
        settings[base.name] ||
        `the address in the setting ${base.name} (${allowedHosts === 'any' ? 'any public address' : allowedHosts.join(', ')})`,
      setting: base.name,
    };
  const origin = urlTemplateShape(url).literalOrigin;
  return { subject: origin ? origin.origin : url.source, setting: null };
}

function argumentTemplate(args: JsonTemplate, name: string): Template | null {
  if (args.kind !== 'object') return null;
  const value = args.entries.find(([key]) => key === name)?.[1];
  return value?.kind === 'string' ? value.template : null;
}

/** A delegate's argument as written (`${cmd}`), or every template of its arguments when it has no such one. */
function argumentText(args: JsonTemplate, name: string): string {
  const template = argumentTemplate(args, name);
  if (template) return template.source;
  return JSON.stringify(jsonSources(args));
}

function jsonSources(node: JsonTemplate): unknown {
  switch (node.kind) {
    case 'string':
      return node.template.source;
    case 'literal':
      return node.value;
    case 'array':
      return node.items.map(jsonSources);
    case 'object':
      return Object.fromEntries(node.entries.map(([key, value]) => [key, jsonSources(value)]));
  }
}

/** Hosts on this computer or its network that the org lets agents and its tool servers reach by name. */
function policyReach(policy: OrgPolicy, reach: OrgReach): void {
  for (const host of policy.network.private_hosts)
    reach.items.push({
      kind: 'address',
      subject: host,
      because:
        "the org's network settings, which let its agents and tool servers reach it on your computer or network",
      file: POLICY_FILE,
      field: 'network.private_hosts',
    });
}

/**
 * Agents that may run commands of their model's choosing (granted a shell tool) or send web requests to
 * addresses of its choosing (granted `http_request` with network access on), as the one policy resolver
 * judges their grants, the org's deny list and its tool kinds (credits and readiness aside).
 */
function agentPowers(agents: readonly ReachAgent[], policy: OrgPolicy, reach: OrgReach): void {
  const GRANT_LAYERS = new Set(['allowlist', 'org_deny', 'kind']);
  for (const { resume, file } of agents) {
    const catalog = toolCatalog(resume, { confinement: { kind: 'none', reason: 'not asked' } }).filter(
      (entry) => entry.spec.kind === 'shell' || entry.spec.name === WEB_TOOL,
    );
    const granted = judgeTools({ resume, policy, catalog, credits: null }).filter((verdict) =>
      verdict.layers.every((layer) => !GRANT_LAYERS.has(layer.layer) || layer.passed),
    );
    const at: Where = { file, field: 'permissions.tools' };
    if (granted.some((verdict) => verdict.kind === 'shell'))
      reach.items.push({
        kind: 'shell',
        subject: resume.name,
        because: `the agent “${resume.name}”, which may run any command its model writes`,
        ...at,
      });
    if (granted.some((verdict) => verdict.name === WEB_TOOL))
      reach.items.push({
        kind: 'web',
        subject: resume.name,
        because: `the agent “${resume.name}”, which may send web requests to any address its model chooses`,
        ...at,
      });
  }
}

/** A program the org starts: its words as written and the folder it starts in (relative to the org). */
interface Launch {
  words: readonly string[];
  cwd: string;
  because: string;
}

/** Files larger than this are fingerprinted by their size and change time instead of their bytes. */
const MAX_HASHED_BYTES = 16 * 1024 * 1024;

/**
 * The org's own files its programs run (`node server.mjs`, `./agent.sh`): a word of a command line that
 * names a file inside the org. Their contents are part of the reach, so a script changed after the
 * person trusted the org (a `git pull`, an agent's edit) asks again. Files outside the org (the
 * person's own programs) are not the org's to change. Returns the files, for the cache's signature.
 */
function programFiles(orgPath: string, launches: readonly Launch[], reach: OrgReach): string[] {
  const root = realPathOrNull(orgPath);
  if (root === null) return [];
  const files = new Set<string>();
  for (const launch of launches)
    for (const word of launch.words) {
      if (word === '' || word.startsWith('-')) continue;
      const candidate = isAbsolute(word) ? word : resolve(orgPath, launch.cwd, word);
      const real = realPathOrNull(candidate);
      if (real === null || !isWithin(root, real)) continue;
      const stats = statSync(real, { throwIfNoEntry: false });
      if (!stats?.isFile()) continue;
      files.add(candidate);
      const name = relativeWithin(root, real);
      const digest = fileDigest(real, stats.size, stats.mtimeMs);
      if (!digest.ok) {
        reach.unreadable.push({ file: name, message: `cannot be read: ${digest.error}` });
        continue;
      }
      reach.items.push({
        kind: 'program',
        subject: `${name} (contents ${digest.value})`,
        because: `${launch.because}, which runs this file of the org`,
        // The item is the file itself, not the config that names it: a change the person makes to that
        // config (keepingTrust) must never carry along a script someone else changed meanwhile.
        file: name,
      });
    }
  return [...files];
}

function fileDigest(path: string, size: number, mtimeMs: number): Result<string, string> {
  try {
    const hash = createHash('sha256');
    hash.update(size > MAX_HASHED_BYTES ? `${size}:${mtimeMs}` : readFileSync(path));
    return { ok: true, value: hash.digest('hex').slice(0, 12) };
  } catch (error) {
    return { ok: false, error: (error as NodeJS.ErrnoException).code ?? (error as Error).message };
  }
}

function realPathOrNull(path: string): string | null {
  try {
    return realpathSync.native(path);
  } catch {
    return null;
  }
}
