import { z } from 'zod';

/**
 * The two YAML dialects exactly as written in tool files. Objects are strict: a field this app
 * does not know is reported, never silently ignored (a typo in `allowed_hosts` must not open the network).
 */

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;
const IDENTIFIER_RULE = 'must start with a letter or _ and hold only letters, digits and _';

/** Names a model provider accepts for a function (OpenAI, Anthropic: `^[a-zA-Z0-9_-]{1,64}$`). */
const TOOL_NAME = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;
/** api-tools' own rule for tool names. */
const OPENCLAW_TOOL_NAME = /^[a-z][a-z0-9_]*$/;

const text = (what: string) => z.string({ error: `must be ${what}` });
const Scalar = z.union([z.string(), z.number(), z.boolean()], {
  error: 'must be text, a number or true/false',
});
export type Scalar = z.infer<typeof Scalar>;

const SettingName = z
  .string()
  .regex(IDENTIFIER, { error: `is not a valid setting name: it ${IDENTIFIER_RULE}` });
const HostList = z.array(text('a host such as api.example.com'), { error: 'must be a list of hosts' });

/** One parameter of an OpenClaw api-tool. */
export const OpenClawParameter = z.strictObject({
  type: z.enum(['string', 'number', 'integer', 'boolean'], {
    error: 'must be one of string, number, integer, boolean',
  }),
  description: text('text').optional(),
  required: z.boolean({ error: 'must be true or false' }).optional(),
  enum: z
    .array(Scalar, { error: 'must be a list of allowed values' })
    .min(1, { error: 'must list at least one value' })
    .optional(),
  default: Scalar.optional(),
});
export type OpenClawParameter = z.infer<typeof OpenClawParameter>;

export const OpenClawBody = z.strictObject({
  type: z.enum(['json', 'form', 'text'], { error: 'must be json, form or text' }).default('json'),
  content: z.unknown().refine((value) => value !== undefined, { error: 'is required: the body to send' }),
});

export const OpenClawRequest = z.strictObject({
  method: z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE'], {
    error: 'must be GET, POST, PUT, PATCH or DELETE',
  }),
  url: text('the URL to call, as text').min(1, { error: 'must not be empty' }),
  headers: z.record(z.string(), Scalar, { error: 'must map header names to values' }).optional(),
  body: OpenClawBody.optional(),
  timeout_ms: z
    .number({ error: 'must be a number of milliseconds' })
    .int({ error: 'must be a whole number of milliseconds' })
    .min(1, { error: 'must be at least 1 ms' })
    .max(60_000, { error: 'must be at most 60000 ms (one minute)' })
    .optional(),
});

export const OpenClawTool = z.strictObject({
  name: text('the tool name').regex(OPENCLAW_TOOL_NAME, {
    error: 'must start with a lowercase letter and hold only lowercase letters, digits and _',
  }),
  description: text('a sentence telling the model what the tool does').min(1, { error: 'must not be empty' }),
  parameters: z
    .record(
      z.string().regex(IDENTIFIER, { error: `is not a valid parameter name: it ${IDENTIFIER_RULE}` }),
      OpenClawParameter,
      {
        error: 'must map parameter names to their definitions',
      },
    )
    .optional(),
  request: OpenClawRequest,
  response: z
    .strictObject({
      summary: text('a template').optional(),
      error_template: text('a template').optional(),
    })
    .optional(),
  requires_env: z.array(SettingName, { error: 'must be a list of setting names' }).optional(),
  allowed_hosts: HostList.min(1, { error: 'must list at least one host the tool may call' }),
});
export type OpenClawTool = z.infer<typeof OpenClawTool>;

/** One AgentClash composed tool (an entry of a pack's `tools.custom`, or a file of its own). */
export const AgentClashTool = z.strictObject({
  name: text('the tool name').regex(TOOL_NAME, {
    error: 'must start with a letter and hold at most 64 letters, digits, _ and -',
  }),
  description: text('a sentence telling the model what the tool does').min(1, { error: 'must not be empty' }),
  parameters: z.record(z.string(), z.unknown(), { error: 'must be a JSON Schema object' }).optional(),
  implementation: z.strictObject(
    {
      primitive: text('the name of the tool this one calls, such as http_request').min(1, {
        error: 'must name the tool this one calls, such as http_request',
      }),
      args: z.record(z.string(), z.unknown(), {
        error: 'must be a mapping of the arguments passed to the primitive',
      }),
    },
    { error: 'must be a mapping with primitive and args' },
  ),
  /** This app's addition: limits the hosts an `http_request` tool may reach. */
  allowed_hosts: HostList.min(1, { error: 'must list at least one host, or be left out' }).optional(),
});
export type AgentClashTool = z.infer<typeof AgentClashTool>;

/** The arguments an AgentClash tool passes to `http_request`. */
export const HttpRequestArgs = z.strictObject({
  method: text('an HTTP method such as GET'),
  url: text('the URL to call, as text').min(1, { error: 'must not be empty' }),
  headers: z.record(z.string(), Scalar, { error: 'must map header names to values' }).optional(),
  body: z.unknown().optional(),
  timeout_seconds: z
    .number({ error: 'must be a number of seconds' })
    .int({ error: 'must be a whole number of seconds' })
    .min(1, { error: 'must be at least 1 second' })
    .max(60, { error: 'must be at most 60 seconds' })
    .optional(),
});

/** An AgentClash pack's tool block, for files pasted from a pack. */
export const AgentClashPack = z.strictObject({
  tools: z.strictObject(
    { custom: z.array(z.unknown(), { error: 'must be a list of tools' }) },
    { error: 'must be a mapping with a custom list' },
  ),
});

export type DialectGuess =
  { dialect: 'openclaw' | 'agentclash' | 'agentclash-pack' } | { dialect: null; message: string };

/** Tells the dialects apart by the one field each cannot do without. */
export function detectDialect(document: unknown): DialectGuess {
  if (typeof document !== 'object' || document === null || Array.isArray(document))
    return {
      dialect: null,
      message: 'a tool file must be a mapping (name: …, description: …), not a list or a single value',
    };
  const hasRequest = 'request' in document;
  const hasImplementation = 'implementation' in document;
  if (hasRequest && hasImplementation)
    return {
      dialect: null,
      message:
        'has both request (OpenClaw api-tool) and implementation (AgentClash tool); a tool uses one of them',
    };
  if (hasRequest) return { dialect: 'openclaw' };
  if (hasImplementation) return { dialect: 'agentclash' };
  if ('tools' in document) return { dialect: 'agentclash-pack' };
  return {
    dialect: null,
    message:
      'is neither dialect: an OpenClaw api-tool has a request section, an AgentClash tool an implementation section',
  };
}
