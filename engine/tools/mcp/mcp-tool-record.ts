import { createHash } from 'node:crypto';
import type { ApprovalMode, McpServerRecord, McpToolRecord } from '../../api/approval-schemas';
import type { McpToolOrigin, McpToolVersion, ToolAnnotations } from '../../api/tool-schemas';
import { isStdioServer, type McpServerConfig } from './mcp-config';

/**
 * What an MCP server is, for the person's choices about it: the program and its arguments, or the URL.
 * Not its mcp.json key, so an entry renamed keeps its choices and an entry pointed at another program
 * or address starts with none.
 */
export function mcpServerIdentity(config: McpServerConfig): string {
  return isStdioServer(config)
    ? `stdio ${JSON.stringify([config.command, ...config.args])}`
    : `http ${new URL(config.url).href}`;
}

/** JSON with every object's keys sorted, so the same schema always hashes the same. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object')
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`)
      .join(',')}}`;
  return JSON.stringify(value) ?? 'null';
}

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

/** The tool as the person's record keeps it: its claims, and hashes of its description and input schema. */
export function mcpToolVersion(tool: {
  annotations: ToolAnnotations;
  description: string;
  inputSchema: unknown;
}): McpToolVersion {
  return {
    annotations: tool.annotations,
    description: sha256(tool.description),
    inputSchema: sha256(canonicalJson(tool.inputSchema)),
  };
}

/** A record's own entry (never one inherited from Object.prototype, whatever a server names its tool). */
function own<T>(record: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}

/**
 * The hints with the MCP specification's defaults (a tool that says nothing may change things and reach
 * the open world), so `{}` and `{ destructiveHint: true }` are the same claim.
 */
function claims(annotations: ToolAnnotations) {
  return {
    readOnly: annotations.readOnlyHint ?? false,
    destructive: annotations.destructiveHint ?? true,
    idempotent: annotations.idempotentHint ?? false,
    openWorld: annotations.openWorldHint ?? true,
  };
}

/** What changed between two versions of a tool, one plain sentence each; empty when it is the same tool. */
export function versionChanges(before: McpToolVersion, now: McpToolVersion): string[] {
  const was = claims(before.annotations);
  const is = claims(now.annotations);
  const changes: string[] = [];
  const titleBefore = before.annotations.title;
  const titleNow = now.annotations.title;
  if (titleBefore !== titleNow)
    changes.push(
      titleNow === undefined
        ? `It no longer has the title “${titleBefore}”.`
        : titleBefore === undefined
          ? `It is now titled “${titleNow}”.`
          : `It is now titled “${titleNow}” (it was “${titleBefore}”).`,
    );
  if (was.readOnly !== is.readOnly)
    changes.push(is.readOnly ? 'It now claims it only reads.' : 'It no longer claims it only reads.');
  // The specification ignores destructiveHint for a tool that claims to only read.
  if (!was.readOnly && !is.readOnly && was.destructive !== is.destructive)
    changes.push(
      is.destructive
        ? 'It now says it may delete or overwrite things.'
        : 'It no longer says it may delete or overwrite things.',
    );
  if (was.openWorld !== is.openWorld)
    changes.push(
      is.openWorld
        ? 'It now says it reaches outside this computer.'
        : 'It now says it stays on this computer.',
    );
  if (was.idempotent !== is.idempotent)
    changes.push(
      is.idempotent ? 'It now says it is safe to repeat.' : 'It no longer says it is safe to repeat.',
    );
  if (before.description !== now.description) changes.push('Its description changed.');
  if (before.inputSchema !== now.inputSchema) changes.push('The input it takes changed.');
  return changes;
}

const quoted = (names: readonly string[]): string => names.map((name) => `“${name}”`).join(', ');

/**
 * Where an MCP tool stands with the person: whether they trust its server's hints, what changed since
 * they chose how it runs (or since it was first seen), and their choices per agent, which count only
 * while nothing changed.
 */
export interface McpStanding {
  hintsTrusted: boolean;
  /** One plain sentence per change; empty when the tool is as the person's record has it. */
  changes: string[];
  /** Why a changed tool asks, in one sentence; null when nothing changed. */
  changeReason: string | null;
  modes: Readonly<Record<string, ApprovalMode>>;
}

/** The person's record of the tool's server (undefined: none yet) judged against the tool as it is now. */
export function mcpStanding(server: McpServerRecord | undefined, origin: McpToolOrigin): McpStanding {
  const hintsTrusted = server?.hintsTrusted ?? false;
  const record = server && own(server.tools, origin.name);
  if (!record) return { hintsTrusted, changes: [], changeReason: null, modes: {} };
  if (record.replacing.length > 0)
    return {
      hintsTrusted,
      changes: [
        `It appeared when ${quoted(record.replacing)} disappeared from the same server: it may be ${record.replacing.length === 1 ? 'that tool' : 'one of them'} under a new name.`,
      ],
      changeReason: 'It is new and may be a renamed tool, so it asks first until you choose how it runs.',
      modes: {},
    };
  const changes = versionChanges(record.seen, origin.version);
  if (changes.length === 0) return { hintsTrusted, changes, changeReason: null, modes: record.modes };
  return {
    hintsTrusted,
    changes,
    changeReason:
      Object.keys(record.modes).length > 0
        ? 'It changed since you chose how it runs, so it asks first until you choose again.'
        : 'It changed since it was first seen here, so it asks first until you choose how it runs.',
    modes: {},
  };
}

const EMPTY_SERVER: McpServerRecord = { hintsTrusted: false, tools: {} };

/**
 * The server's record after it listed `tools`: a tool never seen is recorded as it is now (as is, for
 * good: only the person's choice records a newer version), with the tools that disappeared in the
 * same listing as the ones it may replace; the others are marked listed or not.
 */
export function withListing(
  server: McpServerRecord | undefined,
  tools: readonly { name: string; version: McpToolVersion }[],
  at: Date,
): McpServerRecord {
  const before = server ?? EMPTY_SERVER;
  const listedNow = new Set(tools.map((tool) => tool.name));
  const vanished = Object.entries(before.tools)
    .filter(([name, record]) => record.listed && !listedNow.has(name))
    .map(([name]) => name)
    .sort();
  const seen = Object.entries(before.tools).map(([name, record]): [string, McpToolRecord] => [
    name,
    { ...record, listed: listedNow.has(name) },
  ]);
  const appeared = tools
    .filter((tool) => !own(before.tools, tool.name))
    .map((tool): [string, McpToolRecord] => [
      tool.name,
      { seen: tool.version, at: at.toISOString(), listed: true, replacing: vanished, modes: {} },
    ]);
  return { ...before, tools: Object.fromEntries([...seen, ...appeared]) };
}

/**
 * The server's record after the person chose `mode` (null: back to the default) for `agent`: the tool
 * as it is now becomes the version their choices are for. Choices made for an older version are dropped:
 * they were about a tool that is no longer there.
 */
export function withChoice(
  server: McpServerRecord | undefined,
  origin: McpToolOrigin,
  agent: string,
  mode: ApprovalMode | null,
  at: Date,
): McpServerRecord {
  const before = server ?? EMPTY_SERVER;
  const record = own(before.tools, origin.name);
  const unchanged =
    record !== undefined &&
    record.replacing.length === 0 &&
    versionChanges(record.seen, origin.version).length === 0;
  const others = Object.entries(unchanged ? record.modes : {}).filter(([name]) => name !== agent);
  const chosen: McpToolRecord = {
    seen: unchanged ? record.seen : origin.version,
    at: unchanged ? record.at : at.toISOString(),
    listed: record?.listed ?? true,
    replacing: [],
    modes: Object.fromEntries(mode === null ? others : [...others, [agent, mode]]),
  };
  return { ...before, tools: { ...before.tools, [origin.name]: chosen } };
}

export function withHintsTrusted(server: McpServerRecord | undefined, trusted: boolean): McpServerRecord {
  return { ...(server ?? EMPTY_SERVER), hintsTrusted: trusted };
}

/** The record after the person let the server ask their agents' models, or took that back. */
export function withSamplingAllowed(server: McpServerRecord | undefined, allowed: boolean): McpServerRecord {
  return { ...(server ?? EMPTY_SERVER), samplingAllowed: allowed };
}
