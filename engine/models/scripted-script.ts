import type { Result } from '../api/result';
import { extname, isAbsolute, resolve } from 'node:path';
import { parseDocument } from 'yaml';
import { z } from 'zod';
import type { AgentProblem } from '../api/schemas';
import { parseJsonText } from '../files/json-text';
import { isPlainObject } from './json-values';
import { floorMod } from '../org/schedule';
import type { CallContext, ToolCall } from './types';
import { deepFreeze } from '../files/deep-freeze';
import { readTextFileSync } from '../files/read-text-file';

/**
 * A script for the `scripted` provider (JSON or YAML):
 *
 *   agents:
 *     manager:
 *       - when: { tick: 1 }
 *         respond: { outbox_entries: [{ kind: request, payload: { text: "Draft the spec" }, to: [writer] }] }
 *       - when: { inbox_contains: "done" }
 *         respond: { notes: "Reviewed." }
 *   default:
 *     - respond: { notes: "Nothing to do." }
 *
 * The first rule of the agent's list whose `when` holds wins, then the first of `default`. A
 * response is a LeMMing contract object, `{ text }` (verbatim, garbage allowed), `{ tool_calls }`
 * (native calls: name, arguments, id), or `{ error: { status, message } }`; any of them may add
 * `delay_ms`. Rules depend only on the request, so a replayed run answers the same way.
 */

export type ScriptProblem = AgentProblem;

const wholeNumber = (field: string, min: number) =>
  z
    .number({ error: `${field} must be a number` })
    .int(`${field} must be a whole number`)
    .min(min, `${field} must be at least ${min}`);

const When = z.strictObject(
  {
    tick: wholeNumber('tick', 0).optional(),
    tick_every: z
      .tuple(
        [
          wholeNumber('tick_every[0] (every N ticks)', 1),
          z
            .number({ error: 'tick_every[1] (the offset) must be a number' })
            .int('tick_every[1] (the offset) must be a whole number'),
        ],
        {
          error: 'tick_every must be [N, offset]: every N ticks, starting at the offset',
        },
      )
      .optional(),
    round: wholeNumber('round', 0).optional(),
    inbox_contains: z
      .string({ error: 'inbox_contains must be text' })
      .min(1, 'inbox_contains must not be empty')
      .optional(),
  },
  {
    error: (issue) =>
      issue.code === 'unrecognized_keys'
        ? `unknown condition ${issue.keys.map((key) => `"${key}"`).join(', ')}; conditions are tick, tick_every, round, inbox_contains`
        : 'when must be an object of conditions',
  },
);

const Delay = wholeNumber('delay_ms', 0).optional();

const ErrorReply = z.strictObject({
  error: z.strictObject({
    status: wholeNumber('error.status', 100).max(599, 'error.status must be an HTTP status (100-599)'),
    message: z.string({ error: 'error.message must be text' }),
  }),
  delay_ms: Delay,
});

const NativeToolCall = z.strictObject({
  id: z.string({ error: 'id must be text' }).optional(),
  name: z.string({ error: 'name must be the tool name' }).min(1, 'name must not be empty'),
  arguments: z.unknown().optional(),
});

const NativeReply = z.strictObject({
  text: z.string({ error: 'text must be text' }).optional(),
  tool_calls: z.array(NativeToolCall, { error: 'tool_calls must be a list' }).optional(),
  delay_ms: Delay,
});

/** LeMMing's response contract; unknown keys pass through, as LeMMing ignores them. */
const ContractReply = z.looseObject({
  outbox_entries: z.array(z.unknown(), { error: 'outbox_entries must be a list' }).optional(),
  tool_calls: z.array(z.unknown(), { error: 'tool_calls must be a list' }).optional(),
  memory_updates: z.array(z.unknown(), { error: 'memory_updates must be a list' }).optional(),
  notes: z.string({ error: 'notes must be text' }).optional(),
  delay_ms: Delay,
});

export type ScriptedReply =
  | { kind: 'error'; status: number; message: string; delayMs: number }
  | { kind: 'answer'; text: string; toolCalls: ToolCall[]; delayMs: number };

const CONTRACT_KEYS = ['outbox_entries', 'memory_updates', 'notes'];

/** Native tool calls name a tool with `name`; LeMMing contract calls use `tool`. */
function isNativeReply(value: Record<string, unknown>): boolean {
  if ('text' in value) return true;
  if (!Array.isArray(value.tool_calls) || CONTRACT_KEYS.some((key) => key in value)) return false;
  return (
    value.tool_calls.length > 0 && value.tool_calls.every((call) => isPlainObject(call) && 'name' in call)
  );
}

const Respond = z.unknown().transform((value, context): ScriptedReply => {
  if (!isPlainObject(value)) {
    context.addIssue({
      code: 'custom',
      message: 'respond must be an object: a LeMMing contract, { text }, { tool_calls } or { error }',
    });
    return z.NEVER;
  }
  if ('error' in value) return checkedReply(ErrorReply, value, context, errorReply);
  if (isNativeReply(value)) return checkedReply(NativeReply, value, context, nativeReply);
  return checkedReply(ContractReply, value, context, contractReply);
});

/** Validates with the schema of the form the reply was recognised as, keeping that schema's field paths. */
function checkedReply<S extends z.ZodType>(
  schema: S,
  value: unknown,
  context: z.RefinementCtx,
  toReply: (data: z.infer<S>) => ScriptedReply,
): ScriptedReply {
  const checked = schema.safeParse(value);
  if (checked.success) return toReply(checked.data);
  for (const issue of checked.error.issues)
    context.addIssue({ code: 'custom', message: issue.message, path: issue.path });
  return z.NEVER;
}

function errorReply(data: z.infer<typeof ErrorReply>): ScriptedReply {
  return {
    kind: 'error',
    status: data.error.status,
    message: data.error.message,
    delayMs: data.delay_ms ?? 0,
  };
}

function nativeReply(data: z.infer<typeof NativeReply>): ScriptedReply {
  const toolCalls = (data.tool_calls ?? []).map((call, index): ToolCall => {
    const rawArguments =
      typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments ?? {});
    return { id: call.id ?? `call_${index}`, name: call.name, arguments: call.arguments ?? {}, rawArguments };
  });
  return { kind: 'answer', text: data.text ?? '', toolCalls, delayMs: data.delay_ms ?? 0 };
}

function contractReply(data: z.infer<typeof ContractReply>): ScriptedReply {
  const { delay_ms, ...contract } = data;
  return { kind: 'answer', text: JSON.stringify(contract), toolCalls: [], delayMs: delay_ms ?? 0 };
}

const Rule = z.strictObject(
  {
    when: When.optional(),
    respond: Respond,
    comment: z.string().optional(),
  },
  {
    error: (issue) =>
      issue.code === 'unrecognized_keys'
        ? `unknown rule field ${issue.keys.map((key) => `"${key}"`).join(', ')}; a rule has when, respond and comment`
        : 'each rule must be an object with respond',
  },
);

const Rules = z.array(Rule, { error: 'must be a list of rules' });

const Script = z.strictObject(
  {
    agents: z
      .record(z.string(), Rules, { error: 'agents must map agent names to lists of rules' })
      .optional(),
    default: Rules.optional(),
    description: z.string().optional(),
  },
  {
    error: (issue) =>
      issue.code === 'unrecognized_keys'
        ? `unknown top-level field ${issue.keys.map((key) => `"${key}"`).join(', ')}; a script has agents, default and description`
        : 'a script must be an object with agents and/or default',
  },
);

export type Script = z.infer<typeof Script>;
export type ScriptRule = z.infer<typeof Rule>;

export type ScriptResult = Result<Script, ScriptProblem[]>;

/** Validates a script's text; `file` names it in problems and picks JSON (.json) or YAML (anything else). */
export function parseScript(source: string, file: string): ScriptResult {
  const document =
    extname(file).toLowerCase() === '.json' ? parseJson(source, file) : parseYaml(source, file);
  if (!document.ok) return document;
  const checked = Script.safeParse(document.value);
  if (checked.success) return { ok: true, value: checked.data };
  return {
    ok: false,
    error: checked.error.issues.map((issue) => ({
      file,
      field: formatPath(issue.path),
      message: issue.message,
    })),
  };
}

/** Reads and validates the script at `scriptPath`, relative to the org unless absolute. */
export async function loadScript(orgPath: string, scriptPath: string): Promise<ScriptResult> {
  return new ScriptFile(orgPath, scriptPath).load();
}

/**
 * A script file that is read on every load, so an edit takes effect at once, but validated again only
 * when its text changed: the scripted provider loads it for every model call.
 */
export class ScriptFile {
  private last: { source: string; result: ScriptResult } | null = null;

  constructor(
    private readonly orgPath: string,
    private readonly scriptPath: string,
  ) {}

  load(): ScriptResult {
    const fullPath = isAbsolute(this.scriptPath) ? this.scriptPath : resolve(this.orgPath, this.scriptPath);
    const read = readTextFileSync(fullPath);
    if (!read.found)
      return { ok: false, error: [{ file: this.scriptPath, field: '', message: read.message }] };
    const source = read.text;
    // Frozen, because every call hands out parts of the same parsed script.
    if (this.last?.source !== source)
      this.last = { source, result: deepFreeze(parseScript(source, this.scriptPath)) };
    return this.last.result;
  }
}

export interface SelectedRule {
  rule: ScriptRule;
  /** Where the rule is in the script, e.g. `agents.manager[2]` or `default[0]`. */
  path: string;
}

/** The rule that answers this call: the agent's own rules first, then `default`. */
export function selectRule(
  script: Script,
  context: CallContext | undefined,
  lastUserMessage: string,
): SelectedRule | undefined {
  const agents = script.agents ?? {};
  const own =
    context && Object.hasOwn(agents, context.agent)
      ? (agents[context.agent] ?? []).map((rule, index) => ({
          rule,
          path: `agents.${context.agent}[${index}]`,
        }))
      : [];
  const fallback = (script.default ?? []).map((rule, index) => ({ rule, path: `default[${index}]` }));
  return [...own, ...fallback].find(({ rule }) => ruleApplies(rule.when, context, lastUserMessage));
}

function ruleApplies(
  when: z.infer<typeof When> | undefined,
  context: CallContext | undefined,
  lastUserMessage: string,
): boolean {
  if (!when) return true;
  if (when.inbox_contains !== undefined && !lastUserMessage.includes(when.inbox_contains)) return false;
  const needsContext = when.tick !== undefined || when.tick_every !== undefined || when.round !== undefined;
  if (!needsContext) return true;
  if (!context) return false;
  if (when.tick !== undefined && context.tick !== when.tick) return false;
  if (when.round !== undefined && context.round !== when.round) return false;
  if (when.tick_every !== undefined) {
    const [every, offset] = when.tick_every;
    // The same floored modulo as the scheduler's firing rule.
    if (floorMod(context.tick, every) !== floorMod(offset, every)) return false;
  }
  return true;
}

function parseJson(source: string, file: string): Result<unknown, ScriptProblem[]> {
  const parsed = parseJsonText(source);
  if (parsed.ok) return parsed;
  const { message, line, column } = parsed.error;
  return { ok: false, error: [{ file, field: '', message, line, column }] };
}

function parseYaml(source: string, file: string): Result<unknown, ScriptProblem[]> {
  const document = parseDocument(source, { uniqueKeys: true });
  if (document.errors.length === 0) return { ok: true, value: document.toJS() };
  return {
    ok: false,
    error: document.errors.map((error) => {
      const position = error.linePos?.[0];
      return {
        file,
        field: '',
        // The message ends with its position and a code frame; the position is reported separately.
        message: `invalid YAML: ${error.message.split('\n')[0]?.replace(/ at line \d+, column \d+:?$/, '')}`,
        ...(position ? { line: position.line, column: position.col } : {}),
      };
    }),
  };
}

/** `agents.manager[2].respond.error.status` */
function formatPath(path: readonly PropertyKey[]): string {
  return path.reduce<string>(
    (text, step) =>
      typeof step === 'number' ? `${text}[${step}]` : text ? `${text}.${String(step)}` : String(step),
    '',
  );
}
