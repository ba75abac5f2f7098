import type { Problem } from '../../api/problem';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import Ajv, { type ValidateFunction } from 'ajv';
import { formatProblem } from '../../api/problem';
import type { McpToolOrigin, ToolAnnotations } from '../../api/tool-schemas';
import { TOOL_GROUPS, type CatalogEntry, type Readiness } from '../tool-catalog';
import { plainWords } from '../policy-plain-words';
import { toolFailure } from '../tool-result';
import type { ToolSpec } from '../tool-spec';
import { mcpToolResult } from './mcp-result';
import { resourceToolSpec } from './mcp-resources';
import { McpCallFailed, type McpServer } from './mcp-server';
import { mcpToolVersion } from './mcp-tool-record';

/** Model APIs take tool names of at most 64 characters of [A-Za-z0-9_-]. */
const TOOL_NAME_MAX = 64;

/** The name agents and grants use for a server's tool: `mcp__<server>__<tool>`. */
export function mcpToolName(server: string, tool: string): string {
  return `mcp__${server}__${tool.replace(/[^A-Za-z0-9_-]/g, '_')}`;
}

/** The grant for every tool of one server. */
export const mcpServerGroup = (server: string): string => `group:mcp:${server}`;

/** The server a grant or tool name belongs to (`mcp__<server>__…` or `group:mcp:<server>`), or null. */
export function serverOfName(name: string): string | null {
  const tool = /^mcp__(.+?)__./.exec(name);
  if (tool) return tool[1] ?? null;
  const group = /^group:mcp:(.+)$/.exec(name);
  return group?.[1] ?? null;
}

/**
 * Lenient about the schema (servers write every JSON Schema dialect; unknown keywords are theirs),
 * strict about the arguments: no coercion, defaults not invented.
 */
const ajv = new Ajv({ allErrors: true, strict: false, coerceTypes: false, validateFormats: false });
const validators = new WeakMap<Tool, ValidateFunction | string>();

function validatorOf(tool: Tool): ValidateFunction | string {
  const known = validators.get(tool);
  if (known) return known;
  const { $schema: _dialect, ...schema } = tool.inputSchema as Record<string, unknown>;
  let compiled: ValidateFunction | string;
  try {
    compiled = ajv.compile(schema);
  } catch (error) {
    compiled = `its input schema cannot be checked: ${(error as Error).message}`;
  }
  validators.set(tool, compiled);
  return compiled;
}

/** Why the arguments do not fit the tool's input schema, or null when they do. */
export function argumentProblem(tool: Tool, args: unknown): string | null {
  const validate = validatorOf(tool);
  if (typeof validate === 'string') return validate;
  const given = args === undefined || args === null ? {} : args;
  if (typeof given !== 'object' || Array.isArray(given)) return 'the arguments must be a JSON object';
  if (validate(given)) return null;
  return (validate.errors ?? [])
    .map(
      (error) =>
        `${error.instancePath === '' ? 'the arguments' : error.instancePath.slice(1).replace(/\//g, '.')} ${error.message ?? 'is not valid'}`,
    )
    .join('; ');
}

export function annotationsOf(tool: Tool): ToolAnnotations {
  const hints = tool.annotations ?? {};
  const picked: ToolAnnotations = {};
  for (const key of ['title', 'readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'] as const)
    if (hints[key] !== undefined) (picked as Record<string, unknown>)[key] = hints[key];
  return picked;
}

/** The tool as the person's record keeps it, under its server's identity. */
export function mcpToolOrigin(server: string, tool: Tool): McpToolOrigin {
  return {
    server,
    name: tool.name,
    version: mcpToolVersion({
      annotations: annotationsOf(tool),
      description: tool.description ?? '',
      inputSchema: tool.inputSchema,
    }),
  };
}

/**
 * Tools of one server that cannot be offered under a name of their own: names that become the same
 * agents' name (`file.read`, `file_read`), with every original, and names too long for model APIs.
 */
export interface ToolNameProblems {
  /** Agents' name → the server's names that all become it (two or more). */
  alike: Map<string, string[]>;
  tooLong: string[];
}

export function toolNameProblems(server: string, tools: readonly Tool[]): ToolNameProblems {
  const byName = new Map<string, string[]>();
  const tooLong: string[] = [];
  for (const tool of tools) {
    const name = mcpToolName(server, tool.name);
    if (name.length > TOOL_NAME_MAX) tooLong.push(tool.name);
    else byName.set(name, [...(byName.get(name) ?? []), tool.name]);
  }
  return { alike: new Map([...byName].filter(([, originals]) => originals.length > 1)), tooLong };
}

/** The problems in words for the server's card, each naming the server's own tool names. */
export function describeToolNameProblems({ alike, tooLong }: ToolNameProblems): string[] {
  return [
    ...[...alike].map(
      ([name, originals]) =>
        `${originals.length === 2 ? 'two' : originals.length} of its tools, ${originals.map((original) => `“${original}”`).join(' and ')}, have the same name for agents (${name}), so neither is offered`,
    ),
    ...tooLong.map(
      (original) => `its tool “${original}” has a name too long for agents, so it is not offered`,
    ),
  ];
}

/** One server tool as a tool the policy resolver judges and the toolbox runs. */
export function mcpToolSpec(server: McpServer, tool: Tool): ToolSpec | null {
  const name = mcpToolName(server.name, tool.name);
  if (name.length > TOOL_NAME_MAX) return null;
  const annotations = annotationsOf(tool);
  return {
    name,
    kind: 'mcp',
    title: annotations.title ?? tool.title ?? tool.name,
    definition: {
      name,
      description: tool.description ?? `${tool.name} (from the MCP server ${server.name})`,
      parameters: { type: 'object', ...(tool.inputSchema as Record<string, unknown>) },
    },
    annotations,
    mcpTool: mcpToolOrigin(server.identity, tool),
    async run(args, context) {
      const problem = argumentProblem(tool, args);
      if (problem) return toolFailure(`The arguments do not fit ${name}'s input schema: ${problem}`);
      try {
        const result = await server.callTool(tool.name, (args ?? {}) as Record<string, unknown>, {
          signal: context.signal,
          askPerson: context.askPerson,
          askModel: context.askModel,
        });
        return mcpToolResult(result, context.redaction);
      } catch (error) {
        return toolFailure(
          `${name} failed: ${(error as Error).message}`,
          error instanceof McpCallFailed ? error.failure : { kind: 'unexpected' },
        );
      }
    },
  };
}

function readinessOf(
  server: McpServer,
  { disabled, untrusted, networkOff }: { disabled: boolean; untrusted: boolean; networkOff: boolean },
): Readiness {
  if (untrusted)
    return {
      ready: false,
      reason: `the MCP server ${server.name} is not started: this org is not trusted yet`,
      fix: `trust the org as it is now (lemming trust <org> --yes, or Trust in the app)`,
      plain: {
        reason: `the tool server ${server.name} is not started: this org is not trusted yet`,
        fix: 'trust this org if you trust what it would run',
      },
    };
  if (disabled)
    return {
      ready: false,
      reason: `the MCP server ${server.name} is turned off ("disabled": true in lemming/config/mcp.json)`,
      fix: `turn the MCP server ${server.name} on in the Tool Store (remove "disabled" from lemming/config/mcp.json)`,
    };
  if (networkOff)
    return {
      ready: false,
      reason: `the MCP server ${server.name} is not started: network access is off for this org (network.enabled in lemming/config/policy.json)`,
      fix: 'set network.enabled to true in lemming/config/policy.json',
      plain: {
        reason: `the tool server ${server.name} is not started: ${plainWords.networkOff}`,
        fix: 'turn internet access on for the org',
      },
    };
  if (server.status === 'running') return { ready: true };
  const why = server.error ? `: ${server.error}` : '';
  // Unattended ticks never open a browser: its tools wait, saying why, until the person signs in.
  if (server.status === 'needs_sign_in')
    return {
      ready: false,
      reason: `the MCP server ${server.name} is waiting for you to sign in${why}`,
      fix: `sign in to it: lemming connectors <org> --sign-in ${server.name}, or Sign in on its card in the app`,
      plain: {
        reason: `the tool server ${server.name} is waiting for you to sign in`,
        fix: `sign in to ${server.name} on its card`,
      },
    };
  return {
    ready: false,
    reason: `the MCP server ${server.name} is ${server.status === 'stopped' ? 'not running' : server.status}${why}`,
    fix: `fix the MCP server ${server.name} (its card in the Tool Store, or lemming/config/mcp.json) so that it starts; lemming connectors shows why it does not`,
  };
}

/**
 * The tools of the org's MCP servers for one agent: each known tool (listed by a running server, or
 * last listed before it stopped), judged ready only while its server runs; and for a grant that names
 * a tool of a server that never listed it (it did not start), an entry that says why it cannot be had.
 */
export function mcpCatalogEntries(
  servers: readonly { server: McpServer; disabled: boolean; untrusted: boolean; networkOff: boolean }[],
  grants: readonly string[],
): CatalogEntry[] {
  const entries: CatalogEntry[] = [];
  const names = new Set<string>();
  for (const { server, ...standing } of servers) {
    const readiness = readinessOf(server, standing);
    const { alike } = toolNameProblems(server.name, server.tools);
    for (const [name, originals] of alike) {
      names.add(name);
      entries.push({
        spec: unknownToolSpec(name),
        grantedBy: [name, mcpServerGroup(server.name), TOOL_GROUPS.mcp],
        readiness: alikeReadiness(server.name, originals),
      });
    }
    for (const tool of server.tools) {
      const spec = mcpToolSpec(server, tool);
      if (!spec || names.has(spec.name)) continue;
      names.add(spec.name);
      entries.push({ spec, grantedBy: [spec.name, mcpServerGroup(server.name), TOOL_GROUPS.mcp], readiness });
    }
    // A tool of the server's own by that name keeps it: the reader is then not offered.
    const reader = server.offersResources ? resourceToolSpec(server) : null;
    if (reader && !names.has(reader.name)) {
      names.add(reader.name);
      entries.push({
        spec: reader,
        grantedBy: [reader.name, mcpServerGroup(server.name), TOOL_GROUPS.mcp],
        readiness,
      });
    }
    if (readiness.ready) continue;
    for (const grant of grants) {
      if (names.has(grant) || serverOfName(grant) !== server.name || !grant.startsWith('mcp__')) continue;
      names.add(grant);
      entries.push({
        spec: unknownToolSpec(grant),
        grantedBy: [grant, mcpServerGroup(server.name), TOOL_GROUPS.mcp],
        readiness,
      });
    }
  }
  return entries;
}

/**
 * The granted tools of a server whose entry in mcp.json is not valid: never offered, each saying why
 * (its entry's problems) so `lemming tools` and the agent's page tell the person what to fix.
 */
export function invalidServerEntries(
  server: string,
  problems: readonly Problem[],
  grants: readonly string[],
): CatalogEntry[] {
  const readiness: Readiness = {
    ready: false,
    reason: `the MCP server ${server} is not started: its entry in lemming/config/mcp.json is not valid (${problems.map(formatProblem).join('; ')})`,
    fix: `fix the entry of the MCP server ${server} in lemming/config/mcp.json as its problems say`,
    plain: {
      reason: `the tool server ${server} is not started: its settings have a problem`,
      fix: 'correct its settings on its card in the Tool Store',
    },
  };
  return grants
    .filter((grant) => grant.startsWith('mcp__') && serverOfName(grant) === server)
    .map((grant) => ({
      spec: unknownToolSpec(grant),
      grantedBy: [grant, mcpServerGroup(server), TOOL_GROUPS.mcp],
      readiness,
    }));
}

/** Tools of a server that agents would know by one name: which one a call ran could not be told. */
function alikeReadiness(server: string, originals: readonly string[]): Readiness {
  const both = originals.map((original) => `“${original}”`).join(' and ');
  return {
    ready: false,
    reason: `the MCP server ${server} lists ${both}, which agents would call by this one name, so neither is offered`,
    fix: `have the MCP server ${server} give its tools ${both} names that differ in letters or digits`,
    plain: {
      reason: `the tool server ${server} has tools ${both} that agents could not tell apart`,
      fix: 'ask whoever makes the tool server to name its tools apart',
    },
  };
}

/** A granted tool of a server that has not said what tools it has: known by name only, never offered. */
function unknownToolSpec(name: string): ToolSpec {
  return {
    name,
    kind: 'mcp',
    title: name,
    definition: {
      name,
      description: 'A tool of an MCP server that is not running.',
      parameters: { type: 'object' },
    },
    run: () =>
      Promise.resolve(
        toolFailure(`${name} is not available: its MCP server is not running`, {
          kind: 'network',
          retryable: true,
        }),
      ),
  };
}
