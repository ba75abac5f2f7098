import { randomUUID } from 'node:crypto';
import type {
  ApprovalAnswer,
  ApprovalRequest,
  ApprovalSettings,
  FormRequest,
  McpServerRecord,
} from '../api/approval-schemas';
import type { KnownEventFields } from '../api/timeline-events';
import type { McpToolOrigin } from '../api/tool-schemas';
import type { PersonsAlways } from './approval-rule';

/**
 * Whoever answers approval requests: the app's approval cards, the terminal, or the command line's
 * `--approve`/`--deny`. `signal` aborts when the request times out or the run stops: the asker then
 * withdraws it (its answer no longer counts).
 */
export interface ApprovalAsker {
  ask(request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalAnswer>;
  /**
   * True when the turn asking this should park (the tick goes on without it, and the turn resumes
   * when the answer is given later) rather than wait here for the answer. Only a call not yet started
   * can park; a form asked during a call, or a write checked during one, is waited for.
   */
  parks?(request: ApprovalRequest): boolean;
}

/** What asking before a call gives: the answer, or the request its turn parks on. */
export type ApprovalAsked = { answer: ApprovalAnswer } | { parked: ApprovalRequest };

/** What a turn's toolbox needs to ask first. */
export interface ApprovalGateOptions {
  settings: ApprovalSettings;
  /** Set when approvals.json cannot be read: then every call asks, and this says why. */
  settingsProblem?: string;
  asker: ApprovalAsker;
  /**
   * Keeps "always for this agent" in the person's own record (outside the org): for the agent's
   * identity, or for an MCP tool for the tool as it is now.
   */
  remember(agent: string, tool: string, mcpTool?: McpToolOrigin): Promise<void>;
  /** The tools the person let this turn's agent run without asking, as their record says now. */
  personsAlways(): PersonsAlways;
  /** The person's record of one of the org's MCP servers, by its identity, as it is now; undefined when none. */
  mcpRecord(server: string): McpServerRecord | undefined;
  /** Replaces secret values in the arguments the person and the timeline are shown. */
  redact<T>(value: T): T;
  clock?: () => Date;
}

/** What asking for a form needs of the gate: an asker, how long to wait, and the redaction. */
export interface FormGate {
  asker: ApprovalAsker;
  settings: Pick<ApprovalSettings, 'timeout_seconds'>;
  redact<T>(value: T): T;
  clock?: () => Date;
}

export interface ApprovalCall {
  agent: string;
  tool: string;
  /** The tool's title, for the person; the id is `tool`. */
  title?: string | undefined;
  args: unknown;
  reason: string;
  /** For an MCP tool that changed since the person chose how it runs: what changed. */
  changes?: string[] | undefined;
  /** For an MCP tool: where "always for this agent" is kept. */
  mcpTool?: McpToolOrigin | undefined;
  tick: number;
  record?: ((fields: KnownEventFields) => void) | undefined;
  signal?: AbortSignal | undefined;
}

function requestOf(gate: ApprovalGateOptions, call: ApprovalCall): ApprovalRequest {
  const asked = (gate.clock ?? (() => new Date()))();
  return {
    id: randomUUID(),
    agent: call.agent,
    tool: call.tool,
    ...(call.title ? { title: call.title } : {}),
    args: gate.redact(call.args),
    reason: call.reason,
    ...(call.changes?.length ? { changes: call.changes } : {}),
    tick: call.tick,
    asked_at: asked.toISOString(),
    expires_at: new Date(asked.getTime() + gate.settings.timeout_seconds * 1000).toISOString(),
  };
}

function recordRequested(call: ApprovalCall, request: ApprovalRequest): void {
  call.record?.({
    kind: 'approval_requested',
    request_id: request.id,
    tool: request.tool,
    args: request.args,
    reason: request.reason,
    ...(request.changes ? { changes: request.changes } : {}),
    expires_at: request.expires_at,
  });
}

/**
 * Asks for one call and waits for the answer, the timeout (a denial), or the end of the run (a
 * denial); records the request and the answer in the turn. Never throws.
 */
export async function askApproval(gate: ApprovalGateOptions, call: ApprovalCall): Promise<ApprovalAnswer> {
  const request = requestOf(gate, call);
  recordRequested(call, request);
  const started = Date.now();
  const answer = await waitForAnswer(gate, request, call.signal);
  return settleApproval(gate, call, request, answer, Date.now() - started);
}

/**
 * Asks before a call that has not started: when the asker parks it, the request is recorded and
 * given back (the turn parks on it); otherwise as `askApproval`.
 */
export async function askOrPark(gate: ApprovalGateOptions, call: ApprovalCall): Promise<ApprovalAsked> {
  const request = requestOf(gate, call);
  if (!gate.asker.parks?.(request)) return { answer: await askApproval(gate, call) };
  recordRequested(call, request);
  return { parked: request };
}

/**
 * The answer to a request, kept and recorded in the turn: "always for this agent" goes to the
 * person's record (when it cannot, the call still runs once, and the record says why).
 */
export async function settleApproval(
  gate: ApprovalGateOptions,
  call: ApprovalCall,
  request: ApprovalRequest,
  answer: ApprovalAnswer,
  waitedMs: number,
): Promise<ApprovalAnswer> {
  let recorded = answer;
  if (answer.answer === 'approve_always') {
    try {
      await gate.remember(call.agent, call.tool, call.mcpTool);
    } catch (error) {
      recorded = {
        ...answer,
        reason: `Approved, but the setting could not be saved: ${error instanceof Error ? error.message : String(error)}`,
      };
    }
  }
  call.record?.({
    kind: 'approval_answered',
    request_id: request.id,
    tool: request.tool,
    answer: recorded.answer,
    source: recorded.source,
    ...(recorded.reason ? { reason: recorded.reason } : {}),
    waited_ms: Math.max(0, waitedMs),
  });
  return recorded;
}

/**
 * The first of the asker's answer, the timeout and the end of the run (both denials); the asker's
 * request is withdrawn once one of them comes.
 */
async function waitForAnswer(
  gate: Pick<FormGate, 'asker' | 'settings'>,
  request: ApprovalRequest,
  signal: AbortSignal | undefined,
): Promise<ApprovalAnswer> {
  const timeoutMs = gate.settings.timeout_seconds * 1000;
  const withdraw = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onStop: (() => void) | undefined;
  const seconds = gate.settings.timeout_seconds;
  const answer = await Promise.race<ApprovalAnswer>([
    gate.asker.ask(request, withdraw.signal).catch((error: unknown): ApprovalAnswer => ({
      answer: 'deny',
      source: 'unattended',
      reason: `The request could not be shown (${error instanceof Error ? error.message : String(error)}).`,
    })),
    new Promise<ApprovalAnswer>((resolve) => {
      timer = setTimeout(
        () =>
          resolve({
            answer: 'deny',
            source: 'timeout',
            reason: `No one answered within ${seconds} seconds, so it was denied.`,
          }),
        timeoutMs,
      );
    }),
    new Promise<ApprovalAnswer>((resolve) => {
      const stopped = () =>
        resolve({ answer: 'deny', source: 'stopped', reason: 'The run was stopped before anyone answered.' });
      if (signal?.aborted) return stopped();
      onStop = stopped;
      signal?.addEventListener('abort', stopped, { once: true });
    }),
  ]);
  clearTimeout(timer);
  if (onStop) signal?.removeEventListener('abort', onStop);
  withdraw.abort();
  return answer;
}

/**
 * Asks the person to fill in the form an MCP server wants during a call, the way a call is approved:
 * the same asker, timeout and stop, recorded as the request and its answer (values redacted). A timeout
 * or a stopped run dismisses it (the server is told "cancel"); no one to ask declines it.
 */
export async function askForm(
  gate: FormGate,
  call: Omit<ApprovalCall, 'args' | 'reason' | 'changes' | 'mcpTool'> & { form: FormRequest },
): Promise<ApprovalAnswer> {
  const now = gate.clock ?? (() => new Date());
  const asked = now();
  const form = gate.redact(call.form);
  const request: ApprovalRequest = {
    id: randomUUID(),
    agent: call.agent,
    tool: call.tool,
    ...(call.title ? { title: call.title } : {}),
    args: {},
    reason: `The tool server ${form.server} asks you to fill in a form while ${call.agent} uses ${call.title ?? call.tool}.`,
    form,
    tick: call.tick,
    asked_at: asked.toISOString(),
    expires_at: new Date(asked.getTime() + gate.settings.timeout_seconds * 1000).toISOString(),
  };
  call.record?.({
    kind: 'approval_requested',
    request_id: request.id,
    tool: request.tool,
    args: request.args,
    reason: request.reason,
    form,
    expires_at: request.expires_at,
  });
  const started = Date.now();
  const waited = await waitForAnswer(gate, request, call.signal);
  const answer: ApprovalAnswer =
    waited.answer === 'deny' && (waited.source === 'timeout' || waited.source === 'stopped')
      ? { ...waited, dismissed: true }
      : waited.answer === 'approve_always'
        ? { ...waited, answer: 'approve_once' }
        : waited;
  call.record?.({
    kind: 'approval_answered',
    request_id: request.id,
    tool: request.tool,
    answer: answer.answer,
    source: answer.source,
    ...(answer.reason ? { reason: answer.reason } : {}),
    ...(answer.values ? { values: gate.redact(answer.values) } : {}),
    ...(answer.dismissed ? { dismissed: true } : {}),
    waited_ms: Date.now() - started,
  });
  return answer;
}

/** The tool error a denied call returns to the model. */
export function denialText(tool: string, answer: ApprovalAnswer): string {
  const why = answer.reason ? ` ${answer.reason}` : '';
  switch (answer.source) {
    case 'timeout':
    case 'stopped':
      return `Tool '${tool}' was not run: it needed the user's approval.${why}`;
    case 'unattended':
    case 'command_line':
      return `Tool '${tool}' was not run: it needed the user's approval and was denied.${why}`;
    default:
      return `Tool '${tool}' was not run: the user denied it.${why ? ` Their reason:${why}` : ''}`;
  }
}
