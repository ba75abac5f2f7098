import type { z } from 'zod';
import { fsErrorCode } from '../../../sandbox/agent-filesystem';
import type { AgentSandbox } from '../../../sandbox/agent-sandbox';
import type { Redaction } from '../../../secrets/redactor';
import { toolFailure, type ToolResult } from '../../tool-result';
import type { ToolSpec } from '../../tool-spec';
import { jsonSchemaOf, parseArguments, type ParsedArguments } from './tool-arguments';

/** How a path is written, for every tool's description. */
export const PATH_HELP =
  'Relative paths are in your workspace; paths starting with "shared/" are in the organization\'s shared folder; absolute paths must be inside a folder you may use.';

/** What a profile tool uses from the turn: the agent's sandbox, through which every path goes. */
export interface FsToolContext {
  sandbox: AgentSandbox;
  /** Long lines are cut with it, so no secret's first characters stay at the cut. */
  redaction: Redaction;
  signal?: AbortSignal;
}

/** A tool of the codex or gemini profile. It runs with any ToolContext, which has a sandbox. */
export interface FsProfileTool extends ToolSpec {
  kind: 'file';
  run(args: unknown, context: FsToolContext): Promise<ToolResult>;
}

export interface FsToolDefinition<S extends z.ZodType> {
  name: string;
  title: string;
  description: string;
  /** The arguments: checked on every call, and turned into the JSON schema the model is given. */
  schema: S;
  /** Rewrites arguments the anchor accepted under older names, before they are checked. */
  upgradeArguments?: (args: unknown) => ParsedArguments<unknown>;
  run(args: z.output<S>, context: FsToolContext): Promise<ToolResult>;
}

/** A profile tool from its schema and body; bad arguments and anything thrown become failed results. */
export function defineFsTool<S extends z.ZodType>(definition: FsToolDefinition<S>): FsProfileTool {
  const { name, title, description, schema, upgradeArguments } = definition;
  return {
    name,
    kind: 'file',
    title,
    definition: { name, description, parameters: jsonSchemaOf(schema) },
    async run(args, context) {
      const upgraded = upgradeArguments ? upgradeArguments(args) : { ok: true as const, value: args };
      if (!upgraded.ok) return toolFailure(upgraded.error);
      const parsed = parseArguments(schema, upgraded.value);
      if (!parsed.ok) return toolFailure(parsed.error);
      try {
        return await definition.run(parsed.value, context);
      } catch (error) {
        return toolFailure(`${name} failed: ${describeError(error)}`);
      }
    },
  };
}

/** A file system error by its code alone: its message ends with a host path, which stays out. */
function describeError(error: unknown): string {
  return fsErrorCode(error) ?? (error instanceof Error ? error.message : String(error));
}
