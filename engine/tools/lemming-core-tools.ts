import { z } from 'zod';
import type { ToolContext, ToolSpec } from './tool-spec';
import { toolFailure, toolSuccess, type ToolResult } from './tool-result';

/** Parses a tool's arguments; a mismatch is a failed result that says which argument is wrong. */
export function withArgs<S extends z.ZodType>(
  tool: string,
  schema: S,
  run: (args: z.output<S>, context: ToolContext) => Promise<ToolResult>,
): ToolSpec['run'] {
  return async (raw, context) => {
    const parsed = schema.safeParse(raw ?? {});
    if (!parsed.success) {
      return toolFailure(
        `Invalid arguments for ${tool}: ${parsed.error.issues.map((issue) => `${issue.path.join('.') || 'args'}: ${issue.message}`).join('; ')}`,
      );
    }
    try {
      return await run(parsed.data, context);
    } catch (error) {
      return toolFailure(`Tool ${tool} failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  };
}

export const memoryReadTool: ToolSpec = {
  name: 'memory_read',
  kind: 'memory',
  title: 'Read a memory',
  definition: {
    name: 'memory_read',
    description: 'Read one of your memory entries by key.',
    parameters: {
      type: 'object',
      properties: { key: { type: 'string' } },
      required: ['key'],
      additionalProperties: false,
    },
  },
  run: withArgs('memory_read', z.object({ key: z.string() }), async ({ key }, context) => {
    const read = await context.memory.read(key);
    if (read.problem) return toolFailure(read.problem);
    return read.found
      ? toolSuccess(JSON.stringify(read.value))
      : toolFailure(`Memory key '${key}' not found`);
  }),
};

export const memoryWriteTool: ToolSpec = {
  name: 'memory_write',
  kind: 'memory',
  title: 'Save a memory',
  definition: {
    name: 'memory_write',
    description: 'Store a value in your memory under a key (letters, digits, "_" and "-").',
    parameters: {
      type: 'object',
      properties: { key: { type: 'string' }, value: {} },
      required: ['key', 'value'],
      additionalProperties: false,
    },
  },
  run: withArgs(
    'memory_write',
    z.object({ key: z.string(), value: z.unknown() }),
    async ({ key, value }, context) => {
      const outcome = await context.memory.apply({ key, op: 'set', value });
      return outcome.ok ? toolSuccess(`Saved memory key '${key}'`) : toolFailure(outcome.error.message);
    },
  ),
};

export const listAgentsTool: ToolSpec = {
  name: 'list_agents',
  kind: 'org',
  title: 'List the agents',
  definition: {
    name: 'list_agents',
    description: 'List the agents in the organization with their titles.',
    parameters: { type: 'object', properties: {}, additionalProperties: false },
  },
  run: withArgs('list_agents', z.object({}).loose(), async (_args, context) =>
    toolSuccess(JSON.stringify(context.agents.map(({ name, title }) => ({ name, title })))),
  ),
};
