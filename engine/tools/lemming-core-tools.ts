import { z } from 'zod';
import type { ToolDefinition } from '../models/types';
import type { AgentTools, ToolTurnContext } from './agent-tools';
import { toolFailure, toolSuccess, type ToolResult } from './tool-result';

interface CoreTool {
  definition: ToolDefinition;
  args: z.ZodType;
  run(args: never, context: ToolTurnContext): Promise<ToolResult>;
}

const MemoryReadArgs = z.object({ key: z.string() });
const MemoryWriteArgs = z.object({ key: z.string(), value: z.unknown() });

/** LeMMing's memory and directory tools, with its argument names and result texts. */
const CORE_TOOLS: Record<string, CoreTool> = {
  memory_read: {
    definition: {
      name: 'memory_read',
      description: 'Read one of your memory entries by key.',
      parameters: { type: 'object', properties: { key: { type: 'string' } }, required: ['key'], additionalProperties: false },
    },
    args: MemoryReadArgs,
    async run(args: z.infer<typeof MemoryReadArgs>, context) {
      const read = await context.memory.read(args.key);
      if (read.problem) return toolFailure(read.problem);
      return read.found ? toolSuccess(JSON.stringify(read.value)) : toolFailure(`Memory key '${args.key}' not found`);
    },
  },
  memory_write: {
    definition: {
      name: 'memory_write',
      description: 'Store a value in your memory under a key (letters, digits, "_" and "-").',
      parameters: { type: 'object', properties: { key: { type: 'string' }, value: {} }, required: ['key', 'value'], additionalProperties: false },
    },
    args: MemoryWriteArgs,
    async run(args: z.infer<typeof MemoryWriteArgs>, context) {
      const outcome = await context.memory.apply({ key: args.key, op: 'set', value: args.value });
      return outcome.ok ? toolSuccess(`Saved memory key '${args.key}'`) : toolFailure(outcome.error.message);
    },
  },
  list_agents: {
    definition: {
      name: 'list_agents',
      description: 'List the agents in the organization with their titles.',
      parameters: { type: 'object', properties: {}, additionalProperties: false },
    },
    args: z.object({}).loose(),
    async run(_args: never, context) {
      return toolSuccess(JSON.stringify(context.agents.map(({ name, title }) => ({ name, title }))));
    },
  },
};

/**
 * The tools an agent has: those of LeMMing's core tools its resume grants. (The full registry, policy
 * resolver and file, shell and network tools replace this in the tools layer.)
 */
export function lemmingCoreTools(context: ToolTurnContext): AgentTools {
  const granted = new Set(context.resume.permissions.tools);
  const agent = context.resume.name;
  return {
    definitions: Object.values(CORE_TOOLS)
      .filter((tool) => granted.has(tool.definition.name))
      .map((tool) => tool.definition),
    async call(name, rawArgs) {
      if (!granted.has(name)) return toolFailure(`Tool '${name}' not permitted for ${agent}`);
      const tool = CORE_TOOLS[name];
      if (!tool) return toolFailure(`Unknown tool: ${name}`);
      const args = tool.args.safeParse(rawArgs ?? {});
      if (!args.success) return toolFailure(`Invalid arguments for ${name}: ${args.error.issues.map((issue) => `${issue.path.join('.') || 'args'}: ${issue.message}`).join('; ')}`);
      try {
        return await tool.run(args.data as never, context);
      } catch (error) {
        return toolFailure(`Tool ${name} failed: ${error instanceof Error ? error.message : String(error)}`);
      }
    },
  };
}
