import type {
  ApprovalAnswer,
  ApprovalRequest,
  FormField,
  FormRequest,
  FormValue,
  FormValues,
} from '../api/approval-schemas';
import { formProblems } from '../tools/mcp/mcp-elicitation';
import type { ApprovalAsker } from '../tools/approval-gate';
import { UsageError, type CliIo } from './cli-io';
import type { ParsedCommandArgs } from './command';

/** `--accept-forms` for `run`, `tick` and `call`: forms are accepted with their defaults when no one is asked. */
export const FORM_OPTIONS = { 'accept-forms': { type: 'boolean' } } as const;

/** `--approve` and `--deny` for `run` and `tick`: repeatable, and each may list tools separated by commas. */
export const APPROVAL_OPTIONS = {
  approve: { type: 'string', multiple: true },
  deny: { type: 'string', multiple: true },
  ...FORM_OPTIONS,
} as const;

export interface ApprovalPolicies {
  approve: ReadonlySet<string>;
  deny: ReadonlySet<string>;
  /** `--accept-forms`: every form an MCP server asks for is accepted with the server's own defaults. */
  acceptForms?: boolean;
}

function toolList(values: ParsedCommandArgs['values'], name: string): string[] {
  const value: unknown = values[name];
  const given = Array.isArray(value) ? (value as unknown[]) : value === undefined ? [] : [value];
  return given
    .flatMap((entry) => String(entry).split(','))
    .map((tool) => tool.trim())
    .filter((tool) => tool !== '');
}

export function approvalPolicies(values: ParsedCommandArgs['values']): ApprovalPolicies {
  const approve = new Set(toolList(values, 'approve'));
  const deny = new Set(toolList(values, 'deny'));
  const both = [...approve].filter((tool) => deny.has(tool));
  if (both.length > 0) throw new UsageError(`${both.join(', ')} cannot be both --approve and --deny.`);
  return { approve, deny, acceptForms: values['accept-forms'] === true };
}

function describe(request: ApprovalRequest): string {
  const changes = (request.changes ?? []).map((change) => `\n  what changed: ${change}`).join('');
  return `${request.agent} asks to run ${request.tool} ${JSON.stringify(request.args)}\n  why it asks: ${request.reason}${changes}`;
}

/** y / yes: once; a / always: always for this agent; n / no, optionally followed by a reason: deny. */
export function parseTerminalAnswer(text: string): ApprovalAnswer {
  const trimmed = text.trim();
  const [word = '', ...rest] = trimmed.split(/\s+/);
  const reason = rest.join(' ');
  switch (word.toLowerCase()) {
    case 'y':
    case 'yes':
      return { answer: 'approve_once', source: 'person' };
    case 'a':
    case 'always':
      return { answer: 'approve_always', source: 'person' };
    default:
      return { answer: 'deny', source: 'person', ...(reason ? { reason } : {}) };
  }
}

/**
 * The command line's answers: `--deny` and `--approve` first; then the person at the terminal, one
 * question at a time; with no terminal (an unattended run), the turn parks until `lemming approvals`
 * answers it (a form, which cannot park, is declined or accepted by `--accept-forms`).
 */
export function cliApprovalAsker(io: CliIo, policies: ApprovalPolicies): ApprovalAsker {
  let queue: Promise<unknown> = Promise.resolve();
  return {
    // With no one at a terminal, a call that asks parks its turn: `lemming approvals` answers it later.
    parks: (request) =>
      request.form === undefined &&
      !io.ask &&
      !policies.deny.has(request.tool) &&
      !policies.approve.has(request.tool),
    ask(request, signal) {
      if (request.form) {
        const form = request.form;
        const answered = queue.then(() => answerForm(io, request, form, policies, signal));
        queue = answered;
        return answered;
      }
      if (policies.deny.has(request.tool)) {
        io.stderr.write(`lemming: denied ${request.tool} for ${request.agent} (--deny ${request.tool}).\n`);
        return Promise.resolve({
          answer: 'deny',
          source: 'command_line',
          reason: `The run was started with --deny ${request.tool}.`,
        });
      }
      if (policies.approve.has(request.tool))
        return Promise.resolve({ answer: 'approve_once', source: 'command_line' });
      const ask = io.ask;
      if (!ask) {
        io.stderr.write(
          `lemming: ${describe(request)}\n  denied: no one is at a terminal to approve it. Run in a terminal to be asked, or pass --approve ${request.tool} (or --deny ${request.tool}) for unattended runs.\n`,
        );
        return Promise.resolve({
          answer: 'deny',
          source: 'unattended',
          reason: 'No one was there to approve it (an unattended run).',
        });
      }
      const answered = queue.then(async (): Promise<ApprovalAnswer> => {
        if (signal.aborted) return { answer: 'deny', source: 'timeout' };
        try {
          const text = await ask(
            `\n${describe(request)}\nAllow it? [y] once, [a] always for ${request.agent}, [n] no (add a reason after n): `,
            signal,
          );
          return parseTerminalAnswer(text);
        } catch {
          return { answer: 'deny', source: 'timeout' };
        }
      });
      queue = answered;
      return answered;
    },
  };
}

const YES = new Set(['y', 'yes', 'true']);
const NO = new Set(['n', 'no', 'false']);

/** A typed answer as the field's value; undefined when it cannot be one. Empty is left to the default. */
export function parseFieldAnswer(field: FormField, text: string): FormValue | undefined {
  const typed = text.trim();
  const choice = (word: string) =>
    field.choices?.find(
      (option, index) =>
        option.value === word ||
        option.label.toLowerCase() === word.toLowerCase() ||
        String(index + 1) === word,
    )?.value;
  switch (field.type) {
    case 'yes_no':
      return YES.has(typed.toLowerCase()) ? true : NO.has(typed.toLowerCase()) ? false : undefined;
    case 'integer':
    case 'number':
      return typed === '' || Number.isNaN(Number(typed)) ? undefined : Number(typed);
    case 'choice':
      return choice(typed);
    case 'choices': {
      const chosen = typed.split(',').map((word) => choice(word.trim()));
      return chosen.every((value) => value !== undefined) ? (chosen as string[]) : undefined;
    }
    case 'text':
      return typed;
  }
}

function fieldQuestion(field: FormField): string {
  const name = field.title ?? field.name;
  const about = field.description ? ` (${field.description})` : '';
  const choices = field.choices
    ? `\n    ${field.choices.map((option, index) => `${index + 1}. ${option.label}`).join('\n    ')}${field.type === 'choices' ? '\n    (several: separate them with commas)' : ''}`
    : '';
  const kind = field.type === 'yes_no' ? ' [y/n]' : '';
  const fallback = field.default === undefined ? '' : ` [${String(field.default)}]`;
  return `  ${name}${about}${field.required ? ' (required)' : ''}${choices}${kind}${fallback}: `;
}

/**
 * A form at the terminal: the person says whether to fill it in, then answers each field (empty keeps
 * its default; an answer that does not fit is asked again). With no one at a terminal it is accepted
 * with its defaults when `--accept-forms` says so, else declined.
 */
async function answerForm(
  io: CliIo,
  request: ApprovalRequest,
  form: FormRequest,
  policies: ApprovalPolicies,
  signal: AbortSignal,
): Promise<ApprovalAnswer> {
  const intro = `${request.agent} uses ${request.tool}, and the tool server ${form.server} asks you: ${form.message}`;
  const ask = io.ask;
  if (!ask) {
    if (policies.acceptForms && formProblems(form, {}).length === 0) {
      io.stderr.write(`lemming: ${intro}\n  accepted with its defaults (--accept-forms).\n`);
      return { answer: 'approve_once', source: 'command_line', values: {} };
    }
    io.stderr.write(
      `lemming: ${intro}\n  declined: no one is at a terminal to fill it in.${policies.acceptForms ? ' It has fields without a default, so --accept-forms cannot answer it.' : ' Run in a terminal to be asked, or pass --accept-forms to accept forms with their defaults.'}\n`,
    );
    return {
      answer: 'deny',
      source: 'unattended',
      reason: 'No one was there to fill in the form (an unattended run).',
    };
  }
  try {
    const start = await ask(`\n${intro}\nFill in the form? [y] yes, [n] no: `, signal);
    if (!YES.has(start.trim().toLowerCase())) return { answer: 'deny', source: 'person' };
    const values: FormValues = {};
    for (const field of form.fields) {
      for (;;) {
        const text = await ask(fieldQuestion(field), signal);
        if (text.trim() === '' && (field.default !== undefined || !field.required)) break;
        const value = parseFieldAnswer(field, text);
        const problem =
          value === undefined
            ? 'does not fit'
            : formProblems({ ...form, fields: [field] }, { [field.name]: value })[0]?.message;
        if (!problem && value !== undefined) {
          values[field.name] = value;
          break;
        }
        io.stdout.write(`  ${field.title ?? field.name} ${problem}.\n`);
      }
    }
    return { answer: 'approve_once', source: 'person', values };
  } catch {
    return { answer: 'deny', source: 'timeout', dismissed: true };
  }
}
