import { mkdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { writeFileAtomic } from '../files/atomic-write';
import { discoverAgents } from '../org/discover';
import { newAgentIdentity } from '../org/agent-identity';
import { forgetAgentApprovals } from '../org/approvals-file';
import { createResumeText } from '../org/resume-file';
import { AGENT_NAME_PATTERN, type Resume } from '../org/resume-schema';
import { withArgs } from './lemming-core-tools';
import { toolFailure, toolSuccess } from './tool-result';
import type { ToolSpec } from './tool-spec';
import { agentPaths, inOrg } from '../org/org-layout';

const CreateAgentArgs = z.object({
  name: z.string().regex(AGENT_NAME_PATTERN, 'name may use only letters, digits, "_" and "-"'),
  title: z.string().min(1).optional(),
  instructions: z.string().optional(),
  model: z.string().min(1).optional(),
  tools: z.array(z.string()).optional(),
  read_outboxes: z.array(z.string()).optional(),
  schedule: z
    .object({ run_every_n_ticks: z.number().int().min(1), phase_offset: z.number().int() })
    .optional(),
  credits: z.number().positive().optional(),
});

/** A new agent starts with at most this many credits, and never more than its creator's own allowance. */
const DEFAULT_CHILD_CREDITS = 100;

/** Everything the new agent would hold that its creator does not: each is a reason to refuse. */
export function permissionsBeyondCreator(
  creator: Resume,
  requested: { tools: string[]; read_outboxes: string[] },
): string[] {
  const problems: string[] = [];
  const creatorTools = new Set(creator.permissions.tools);
  for (const tool of requested.tools)
    if (!creatorTools.has(tool)) problems.push(`tool "${tool}" (you do not have it)`);
  const readsAll = creator.permissions.read_outboxes.includes('*');
  const creatorReads = new Set([...creator.permissions.read_outboxes, creator.name]);
  for (const source of requested.read_outboxes) {
    if (source === '*' ? !readsAll : !readsAll && !creatorReads.has(source))
      problems.push(`reading "${source}" (you cannot read it)`);
  }
  return problems;
}

/**
 * LeMMing's create_agent, granted by permission (not by being named "hr"), with a real resume: the
 * new agent gets what it is given, never more than its creator holds. File access, tool kinds, send
 * limits and the file-tool profile are inherited as they are, so they can only be as narrow or narrower.
 */
export const createAgentTool: ToolSpec = {
  name: 'create_agent',
  kind: 'org',
  title: 'Create an agent',
  definition: {
    name: 'create_agent',
    description:
      'Create a new agent in the organization. It can be given only tools you have and outboxes you can read; it starts with no credits beyond a small allowance.',
    parameters: {
      type: 'object',
      properties: {
        name: { type: 'string', description: 'Letters, digits, "_" and "-" only.' },
        title: { type: 'string' },
        instructions: { type: 'string' },
        model: { type: 'string', description: 'A model key from models.json; yours when omitted.' },
        tools: { type: 'array', items: { type: 'string' }, description: 'Tool names; a subset of yours.' },
        read_outboxes: {
          type: 'array',
          items: { type: 'string' },
          description: 'Whose outboxes it reads; a subset of yours.',
        },
        schedule: {
          type: 'object',
          properties: {
            run_every_n_ticks: { type: 'integer', minimum: 1 },
            phase_offset: { type: 'integer' },
          },
          required: ['run_every_n_ticks', 'phase_offset'],
        },
        credits: { type: 'number', exclusiveMinimum: 0 },
      },
      required: ['name'],
      additionalProperties: false,
    },
  },
  run: withArgs('create_agent', CreateAgentArgs, async (args, context) => {
    const creator = context.resume;
    const tools = args.tools ?? [];
    const readOutboxes = args.read_outboxes ?? [creator.name];
    const beyond = permissionsBeyondCreator(creator, { tools, read_outboxes: readOutboxes });
    if (beyond.length > 0)
      return toolFailure(`Cannot create agent '${args.name}': it would hold ${beyond.join(', ')}`);

    const folder = inOrg(context.orgPath, agentPaths(args.name).root);
    // Another folder's agent may hold the name: a second agent of it would take over its settings.
    const named = (await discoverAgents(context.orgPath)).some(
      (agent) => (agent.valid ? agent.resume.name : agent.name) === args.name,
    );
    if (named || (await stat(folder).catch(() => null)))
      return toolFailure(`Agent '${args.name}' already exists`);

    const allowance = Math.min(
      args.credits ?? DEFAULT_CHILD_CREDITS,
      creator.credits?.max_credits ?? DEFAULT_CHILD_CREDITS,
    );
    const { permissions } = creator;
    const created = createResumeText({
      name: args.name,
      title: args.title ?? args.name,
      short_description: `Created by ${creator.name}`,
      instructions: args.instructions ?? '',
      model: { key: args.model ?? creator.model.key },
      permissions: {
        read_outboxes: readOutboxes,
        tools,
        ...(permissions.send_outboxes ? { send_outboxes: permissions.send_outboxes } : {}),
        ...(permissions.file_access ? { file_access: permissions.file_access } : {}),
        ...(permissions.tool_kinds ? { tool_kinds: permissions.tool_kinds } : {}),
      },
      schedule: args.schedule ?? { run_every_n_ticks: 1, phase_offset: 0 },
      credits: { max_credits: allowance, soft_cap: allowance / 2 },
      ...(creator.tools_profile ? { tools_profile: creator.tools_profile } : {}),
      created_by: creator.name,
    });
    if (!created.ok)
      return toolFailure(
        `Cannot create agent '${args.name}': ${created.error.map((problem) => `${problem.field}: ${problem.message}`).join('; ')}`,
      );
    // Settings an agent of this name had before are not the new agent's.
    const stale = await forgetAgentApprovals(context.orgPath, args.name);
    if (stale) return toolFailure(`Cannot create agent '${args.name}': ${stale}`);
    await mkdir(join(folder, 'workspace'), { recursive: true });
    await newAgentIdentity(context.orgPath, args.name);
    await writeFileAtomic(join(folder, 'resume.json'), created.text);
    return toolSuccess(
      `Created agent '${args.name}' with tools [${tools.join(', ')}], reading [${readOutboxes.join(', ')}], ${allowance} credits`,
    );
  }),
};
