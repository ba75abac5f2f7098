import { DEFAULT_ORG_POLICY } from '../org/policy-file';
import type { Resume } from '../org/resume-schema';
import type { Confinement } from '../sandbox/shell/confinement';
import type { ToolTitles } from '../api/tool-words';
import {
  createHttpRequestTool,
  HTTP_REQUEST_TOOL_TITLE,
  networkAccessFromPolicy,
  type HttpTransport,
} from './http-request-tool';
import { confinementNote, confinementSummary, createShellTool, SHELL_TOOL_TITLE } from './shell-tool';
import { createAgentTool } from './create-agent-tool';
import { profileTools, resolveToolsProfile } from './fs-profiles/profiles';
import { fileListTool, fileReadTool, fileWriteTool } from './lemming-file-tools';
import { listAgentsTool, memoryReadTool, memoryWriteTool } from './lemming-core-tools';
import type { ToolKind, ToolSpec } from './tool-spec';

/** Whether a tool can work at all here, before any permission is considered (connectors, confinement). */
export type Readiness =
  | { ready: true; note?: string; plainNote?: string }
  | { ready: false; reason: string; fix: string; plain?: { reason: string; fix: string } };

/** One tool an agent could have, and the entries of `permissions.tools` that grant it. */
export interface CatalogEntry {
  spec: ToolSpec;
  /** Its own name first, then the groups and LeMMing names that also grant it. */
  grantedBy: readonly string[];
  readiness: Readiness;
  /** For a composed tool that calls other tools: what it runs, each judged too. */
  delegation?: ToolDelegation;
}

/** The tools a composed tool's call passes through after itself: composed tools, then the registered tool it ends in. */
export interface ToolDelegation {
  through: readonly string[];
  /** The registered tool (a primitive such as shell) at the end; null when the chain ends in a web request of its own. */
  primitive: string | null;
}

/** `group:*` names: each grants every tool of one kind. */
export const TOOL_GROUPS: Readonly<Record<ToolKind, string>> = {
  file: 'group:fs',
  shell: 'group:shell',
  network: 'group:network',
  memory: 'group:memory',
  org: 'group:org',
  mcp: 'group:mcp',
};

const READY: Readiness = { ready: true };

function entry(spec: ToolSpec, aliases: readonly string[] = [], readiness: Readiness = READY): CatalogEntry {
  return { spec, grantedBy: [spec.name, TOOL_GROUPS[spec.kind], ...aliases], readiness };
}

/** What the catalog depends on beyond the resume: facts about this machine and this org. */
export interface CatalogEnvironment {
  /** How shell commands are confined here (detectConfinement), said next to the shell tool. */
  confinement: Confinement;
  /** How agent web requests resolve and classify addresses; only tests change it (to reach loopback servers). */
  httpTransport?: HttpTransport;
  /** The provider's model id for a models.json key (for `tools_profile: auto`); the key itself when unknown. */
  modelIdOf?: (modelKey: string) => string;
}

/** LeMMing's file tool names grant a profile's equivalent tools, so LeMMing resumes keep working under any profile. */
const LEMMING_READ_GRANTS = ['file_read', 'file_list'];
const LEMMING_WRITE_GRANTS = ['file_write'];

/** LeMMing's three file tools, titled as the person reads them. */
const LEMMING_FILE_TOOLS: ToolSpec[] = [
  { ...fileReadTool, title: 'Read a file' },
  { ...fileWriteTool, title: 'Write a file' },
  { ...fileListTool, title: 'List a folder' },
];

/**
 * Every built-in tool's title by name, under any file-tool profile: to name a tool where no agent's
 * catalog is at hand (a timeline row). MCP, REST and composed tools are not in it.
 */
export const BUILTIN_TOOL_TITLES: ToolTitles = new Map([
  ...[
    ...LEMMING_FILE_TOOLS,
    ...(['codex', 'gemini'] as const).flatMap((profile) => {
      const { read, write } = profileTools(profile);
      return [...read, ...write];
    }),
    memoryReadTool,
    memoryWriteTool,
    listAgentsTool,
    createAgentTool,
  ].map((spec) => [spec.name, spec.title] as const),
  ['shell', SHELL_TOOL_TITLE],
  ['http_request', HTTP_REQUEST_TOOL_TITLE],
]);

/** The agent's file tools: LeMMing's three, or the codex or gemini set its `tools_profile` selects. */
function fileTools(resume: Resume, environment: CatalogEnvironment): CatalogEntry[] {
  const profile = resolveToolsProfile(
    resume.tools_profile,
    environment.modelIdOf?.(resume.model.key) ?? resume.model.key,
  );
  if (profile === 'lemming') return LEMMING_FILE_TOOLS.map((spec) => entry(spec));
  const { read, write } = profileTools(profile);
  return [
    ...read.map((spec) => entry(spec, LEMMING_READ_GRANTS)),
    ...write.map((spec) => entry(spec, LEMMING_WRITE_GRANTS)),
  ];
}

/**
 * Every tool an agent could be given in this org, for its resume's file-tool profile. The policy
 * resolver decides which of them it has.
 */
export function toolCatalog(resume: Resume, environment: CatalogEnvironment): CatalogEntry[] {
  return [
    ...fileTools(resume, environment),
    entry(memoryReadTool),
    entry(memoryWriteTool),
    entry(listAgentsTool),
    entry(createAgentTool),
    entry(createShellTool({ confinement: environment.confinement }), [], {
      ready: true,
      note: confinementNote(environment.confinement),
      plainNote: confinementSummary(environment.confinement),
    }),
    entry(
      createHttpRequestTool({
        network: (context) => networkAccessFromPolicy(context.policy ?? DEFAULT_ORG_POLICY),
        ...(environment.httpTransport ? { transport: environment.httpTransport } : {}),
      }),
    ),
  ];
}
