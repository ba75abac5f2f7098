import { POLICY_FILE } from '../../org/policy-file';
import type { Confinement } from '../../sandbox/shell/confinement';
import { confinementNote, confinementSummary } from '../shell-tool';
import type { ToolKind } from '../tool-spec';
import type { ConnectorReadiness } from './connector';

/** A built-in connector before the org's facts are applied. */
export interface BuiltinConnector {
  id: string;
  name: string;
  description: string;
  toolKind: ToolKind;
  tools: readonly string[];
  configSchema: Record<string, unknown>;
  config: { file: string; pointer: string } | null;
  readiness(machine: { confinement?: Confinement }): ConnectorReadiness;
}

export const NO_SETTINGS = { type: 'object', properties: {}, additionalProperties: false };
const ready = (): ConnectorReadiness => ({ ready: true });

/** The LeMMing file tools and the codex and gemini profiles' (docs/ARCHITECTURE.md, “Tools”); an agent gets one set, by its tools_profile. */
const FILE_TOOLS = [
  'file_read',
  'file_write',
  'file_list',
  'read_file',
  'list_dir',
  'grep_files',
  'apply_patch',
  'write_file',
  'replace',
  'list_directory',
  'grep_search',
  'glob',
];

/** The built-in primitives, grouped as the Tool Store shows them: one connector per tool kind. */
export const BUILTIN_CONNECTORS: readonly BuiltinConnector[] = [
  {
    id: 'builtin:files',
    name: 'Files',
    description:
      "Read, write, list and search files in the agent's own workspace and the org's shared folder. An agent gets LeMMing's file tools, or the set Codex or Gemini use when its settings ask for it.",
    toolKind: 'file',
    tools: FILE_TOOLS,
    configSchema: NO_SETTINGS,
    config: null,
    readiness: ready,
  },
  {
    id: 'builtin:shell',
    name: 'Shell commands',
    description:
      "Run shell commands in the agent's workspace, with a time limit, capped output and an environment without secrets.",
    toolKind: 'shell',
    tools: ['shell'],
    configSchema: NO_SETTINGS,
    config: null,
    readiness: ({ confinement }) =>
      confinement
        ? { ready: true, note: confinementNote(confinement), plainNote: confinementSummary(confinement) }
        : { ready: true },
  },
  {
    id: 'builtin:web',
    name: 'Web requests',
    description:
      'Send HTTP requests to public hosts on the internet. Addresses on this computer and its local networks are refused, except hosts the org names as private hosts.',
    toolKind: 'network',
    tools: ['http_request'],
    configSchema: {
      type: 'object',
      properties: {
        enabled: {
          type: 'boolean',
          title: 'Allow network access',
          description: 'Off unless you turn it on: agents reach no network by default.',
          default: false,
        },
        private_hosts: {
          type: 'array',
          title: 'Private hosts agents may reach',
          description:
            'Exact host names on your own machine or network (a local Ollama, a NAS); never an IP range.',
          items: { type: 'string', minLength: 1, format: 'hostname' },
          default: [],
        },
      },
      additionalProperties: false,
    },
    config: { file: POLICY_FILE, pointer: '/network' },
    readiness: ready,
  },
  {
    id: 'builtin:memory',
    name: 'Memory',
    description: "Keep and recall notes between turns: one memory file per key in the agent's folder.",
    toolKind: 'memory',
    tools: ['memory_read', 'memory_write'],
    configSchema: NO_SETTINGS,
    config: null,
    readiness: ready,
  },
  {
    id: 'builtin:org',
    name: 'Organization',
    description:
      'See the other agents of the org, and create new agents that hold no more permissions than their creator.',
    toolKind: 'org',
    tools: ['list_agents', 'create_agent'],
    configSchema: NO_SETTINGS,
    config: null,
    readiness: ready,
  },
];
