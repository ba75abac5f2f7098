import type { ApprovalAnswer, ApprovalRequest } from '../api/approval-schemas';
import type { ApprovalAsker } from '../tools/approval-gate';
import { UsageError, type CliIo } from './cli-io';
import type { ParsedCommandArgs } from './command';

/** `--approve` and `--deny` for `run` and `tick`: repeatable, and each may list tools separated by commas. */
export const APPROVAL_OPTIONS = {
  approve: { type: 'string', multiple: true },
  deny: { type: 'string', multiple: true },
} as const;

export interface ApprovalPolicies {
  approve: ReadonlySet<string>;
  deny: ReadonlySet<string>;
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
  return { approve, deny };
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
 * question at a time; with no terminal (an unattended run), a denial that says how to allow it.
 */
export function cliApprovalAsker(io: CliIo, policies: ApprovalPolicies): ApprovalAsker {
  let queue: Promise<unknown> = Promise.resolve();
  return {
    ask(request, signal) {
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
