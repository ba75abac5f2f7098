import { isDeepStrictEqual } from 'node:util';
import { callDeadline } from './call-deadline';
import type { LedgerPosting } from '../credits/ledger';
import { fromMicros } from '../credits/credit-amount';
import { pythonJsonDumps, pythonUtcIsoFormat } from '../memory/python-format';
import type { Inbox } from '../messages/message-store';
import { newOutboxEntry, outboxFileName, serializeEntry, type OutboxEntry } from '../messages/outbox-entry';
import { failureOfModelCall, isModelCallError } from '../models/model-call-error';
import type { Failure } from '../api/failure';
import type { ModelWarningCode, ProgressDelta, TurnProgress } from '../api/model-event-schemas';
import type {
  ChatMessage,
  ModelInput,
  ModelProvider,
  ModelResponse,
  ServerCallWatch,
  TokenUsage,
  ToolCall,
  ToolDefinition,
} from '../models/types';
import type { Resume } from '../org/resume-schema';
import type { KnownEventFields, KnownTimelineEvent } from '../api/timeline-events';
import type { TurnStatus } from '../api/run-schemas';
import type { SkipReason } from '../api/schedule-schemas';
import type { AgentTools, AgentToolsFactory } from '../tools/agent-tools';
import type { Skill } from '../tools/skills/skill';
import { skillsPrompt } from '../tools/skills/skills-prompt';
import { skillUsability } from '../tools/skills/skill-usability';
import { toolFailure, type ToolOutcome } from '../tools/tool-result';
import { keepMedia, mediaForModel, recordedMessage, toolMessageText } from './tool-media';
import type { BudgetGate, TurnSpending } from './budget-gate';
import { OVER_BUDGET } from '../api/budget-schemas';
import { worstCaseCallMicros, usageCostMicros, type ModelPrices } from './model-cost';
import type { FileWrite } from './pending-files';
import { buildPrompt, type PromptMemoryEntry } from './prompt';
import { parseModelResponse, type ParsedOutboxEntry } from './response-parser';
import { memoryChangeRecord, TurnMemory, type StagedMemoryChange } from '../memory/turn-memory';
import { agentPaths, inOrg } from '../org/org-layout';
import type { Redaction, StreamRedactor } from '../secrets/redactor';
import { modelAskerOf, type ToolCallRunning } from './server-questions';
import type { ParkedTurnState, ResumedTurn, RoundResult } from './parked-turn-state';
import type { AnsweredApproval } from '../tools/agent-tools';
import type { ApprovalRequest } from '../api/approval-schemas';

export interface TurnAgent {
  folder: string;
  resume: Resume;
}

export interface TurnModel {
  /** The models.json key, for logs. */
  key: string;
  /** What to call; null when the model cannot be used, with the reason. */
  provider: ModelProvider | null;
  problem: string | null;
  /** The kind of `problem`: a broken models.json, or this model not set up. */
  problemKind?: 'models_file_broken' | 'model_setup';
  modelName: string;
  prices: ModelPrices | undefined;
  /** What the model takes besides text (models.json `input`); text only when absent. */
  input?: readonly ModelInput[];
}

export interface TurnInput {
  orgPath: string;
  agent: TurnAgent;
  tick: number;
  runId: string;
  turnId: string;
  model: TurnModel;
  inbox: Inbox;
  memory: { entries: PromptMemoryEntry[]; truncated: boolean };
  /** The agent's skills, from the SKILL.md files in its skills folder. */
  skills: readonly Skill[];
  balanceMicro: number;
  costPerActionMicro: number;
  /** The agent's and the org's budgets, asked before each model call; none when the org has no budgets. */
  budget?: BudgetGate | undefined;
  tools: AgentToolsFactory;
  agents: readonly { name: string; title: string }[];
  limits: TurnLimits;
  clock: () => Date;
  signal?: AbortSignal;
  /** Live pieces of each model answer (see TurnProgress), redacted as they stream. */
  onProgress?: (progress: TurnProgress) => void;
  /** What every model request and every live piece passes through, so no secret value leaves the engine. */
  redaction: Redaction;
  /** Writes an event to the timeline at once, not with the turn: the intent of a call that may change things. */
  recordNow?: (event: KnownTimelineEvent) => void;
  /** Calls an earlier attempt at this turn started before the app stopped (its tool_intent events). */
  startedBeforeStop?: readonly StartedCall[];
  /** Told of each HTTP attempt at a model call (the server's adaptive limit learns from it). */
  serverCalls?: ServerCallWatch;
  /** A turn that parked on an approval request, with its answer: it goes on where it stopped. */
  resumed?: ResumedTurn;
}

/** A call an earlier attempt at the turn started, as its tool_intent recorded it (arguments redacted). */
export interface StartedCall {
  callId: string;
  tool: string;
  args: unknown;
}

/** What the model is told instead of the result of a call started before the app stopped. */
export const STARTED_BEFORE_STOP =
  'This call was started before the app stopped, and whether it finished is not known. It was not run again: check whether it took effect before you call it again.';

export interface TurnLimits {
  /** Model calls in one turn; the last one cannot call tools any more. */
  maxRounds: number;
  callTimeoutMs: number;
  maxTokens: number;
}

export const DEFAULT_TURN_LIMITS: TurnLimits = { maxRounds: 4, callTimeoutMs: 120_000, maxTokens: 2048 };

/** Everything one turn did, not yet committed: the engine commits it in one transaction. */
export interface StagedTurn {
  turnId: string;
  agent: string;
  tick: number;
  runId: string;
  status: TurnStatus;
  events: KnownTimelineEvent[];
  outbox: { entry: OutboxEntry; file: string; json: string }[];
  postings: LedgerPosting[];
  /** Where the agent's read cursor moves; null when the agent was not shown its inbox. */
  cursorAfter: number | null;
  files: FileWrite[];
  /** Set when the turn parked on an approval request: nothing of it is committed until it resumes. */
  parked: ParkedTurnState | null;
}

/**
 * One agent's turn (docs/ARCHITECTURE.md, “The engine”): gate, context, model calls, tools, staging of the outcome. It never
 * throws and writes nothing but what its tools do; the result is committed by the caller.
 */
export async function runAgentTurn(input: TurnInput): Promise<StagedTurn> {
  const turn = new TurnRecorder(input);
  try {
    await play(input, turn);
  } catch (error) {
    turn.fail(
      'engine_error',
      `The turn stopped on an unexpected error: ${error instanceof Error ? error.message : String(error)}`,
      { kind: 'unexpected' },
    );
  }
  return turn.finish();
}

async function play(input: TurnInput, turn: TurnRecorder): Promise<void> {
  const { agent, model, limits, resumed } = input;
  const name = agent.resume.name;

  if (input.balanceMicro <= 0 && !resumed) return turn.skip('out_of_credits', `${name} has no credits left.`);
  if (!model.provider)
    return turn.fail('model_unavailable', model.problem ?? `Model ${model.key} cannot be used.`, {
      kind: model.problemKind ?? 'model_setup',
    });

  const memory = new TurnMemory(inOrg(input.orgPath, agentPaths(agent.folder).root), resumed?.state.memory);
  const tools = input.tools({
    orgPath: input.orgPath,
    agentDir: inOrg(input.orgPath, agentPaths(agent.folder).root),
    resume: agent.resume,
    tick: input.tick,
    memory,
    agents: input.agents,
    budget: {
      availableMicro: () => turn.available(),
      charge: (micros, reason) => turn.charge('tool', micros, reason),
    },
    record: (fields) => turn.event(fields),
    askModel: modelAskerOf(input, turn),
    ...(input.signal ? { signal: input.signal } : {}),
  });
  const maxTokens = agent.resume.model.max_tokens ?? limits.maxTokens;
  const earlier = new EarlierAttempt(input.startedBeforeStop ?? [], input.redaction);
  if (resumed) return goOn(input, turn, { tools, memory, maxTokens, earlier }, resumed);
  const messages: ChatMessage[] = buildPrompt({
    agent: { name, title: agent.resume.title, instructions: agent.resume.instructions },
    tick: input.tick,
    memory: input.memory,
    inbox: input.inbox,
    tools: tools.definitions,
    nativeTools: model.provider.nativeTools,
    cliMode: model.key.startsWith('cli-'),
    skills: skillsPrompt(input.skills, input.redaction, {
      usability: new Map(
        input.skills.map((skill) => [skill.name, skillUsability(skill, (tool) => tools.verdict(tool))]),
      ),
    }),
  });
  const told = earlier.toldBeforehand();
  if (told) messages[messages.length - 1]!.content += `\n\n${told}`;
  turn.shownInbox();
  return goOn(input, turn, { tools, memory, maxTokens, earlier }, null, messages);
}

interface TurnMeans {
  tools: AgentTools;
  memory: TurnMemory;
  maxTokens: number;
  earlier: EarlierAttempt;
}

/**
 * The turn's rounds, from the first, or from the call a parked turn stopped at (given its answer): the
 * conversation, the round's calls and what was staged are the parked turn's, so no model call is repeated.
 */
async function goOn(
  input: TurnInput,
  turn: TurnRecorder,
  { tools, memory, maxTokens, earlier }: TurnMeans,
  resumed: ResumedTurn | null,
  prompt: ChatMessage[] = [],
): Promise<void> {
  const { model, limits } = input;
  const name = input.agent.resume.name;
  const provider = model.provider!;
  const state = resumed?.state;
  const messages: ChatMessage[] = state ? state.messages : prompt;
  const parsedEntries: ParsedOutboxEntry[] = state ? state.parsedEntries : [];
  const notes: string[] = state ? state.notes : [];
  const contractMemoryUpdates: ParkedTurnState['contractMemoryUpdates'] = state
    ? state.contractMemoryUpdates
    : [];
  if (resumed) turn.resumedFrom(resumed);

  for (let round = state?.round ?? 1; round <= limits.maxRounds; round += 1) {
    const resuming = resumed && round === resumed.state.round ? resumed : null;
    let calls: ToolCall[];
    let nativeCalls: boolean;
    const results: RoundResult[] = resuming ? [...resuming.state.done] : [];
    if (resuming) {
      calls = resuming.state.calls;
      nativeCalls = resuming.state.nativeCalls;
    } else {
      const worstCase = worstCaseCallMicros(messages, maxTokens, model.prices);
      const overBudget = input.budget?.beforeModelCall(worstCase, turn.spending(), (fields) =>
        turn.event(fields),
      );
      if (overBudget) {
        if (round === 1) return turn.skip(OVER_BUDGET, overBudget);
        break;
      }
      if (turn.available() < worstCase + input.costPerActionMicro) {
        if (round === 1)
          return turn.skip(
            'out_of_credits',
            `${name} cannot pay for a model call (up to ${fromMicros(worstCase + input.costPerActionMicro)} credits needed).`,
          );
        turn.warn(
          'credits_exhausted',
          'The turn stopped calling the model because the next call could not be paid for.',
        );
        break;
      }
      // Tools stay on every round (Anthropic refuses a history of tool calls without them); the last round forbids calling them.
      const toolChoice = round === limits.maxRounds && tools.definitions.length > 0 ? 'none' : undefined;
      const response = await callModel(
        input,
        provider,
        messages,
        { tools: tools.definitions, toolChoice },
        maxTokens,
        round,
        turn,
      );
      if (!response) return;
      if (response.stop === 'refusal') {
        turn.event({ kind: 'model_refused', round, model: model.key, text: response.text });
        break;
      }

      const parsed = parseModelResponse(response.text);
      for (const warning of parsed.warnings)
        turn.warn(`contract_${warning.code}`, warning.message, warning.snippet);
      parsedEntries.push(...parsed.outboxEntries);
      contractMemoryUpdates.push(...parsed.memoryUpdates);
      if (parsed.notes) notes.push(parsed.notes);

      calls =
        response.toolCalls.length > 0
          ? response.toolCalls
          : parsed.toolCalls.map((call, index) => ({
              id: `r${round}c${index + 1}`,
              name: call.tool,
              arguments: call.args,
              rawArguments: JSON.stringify(call.args),
            }));
      if (calls.length === 0) break;
      if (round === limits.maxRounds) {
        turn.warn(
          'tool_round_limit',
          `The model asked for ${calls.length} more tool call(s) after ${limits.maxRounds} rounds; they were not run.`,
        );
        break;
      }

      messages.push({
        role: 'assistant',
        content: response.text,
        ...(response.toolCalls.length > 0 ? { toolCalls: response.toolCalls } : {}),
      });
      nativeCalls = response.toolCalls.length > 0;
    }
    for (const call of calls.slice(results.length)) {
      const answered =
        resuming && results.length === resuming.state.done.length ? resuming.answered : undefined;
      const { media, parked, ...result } = await runTool(tools, call, round, turn, earlier, answered);
      if (parked) {
        const staged = {
          messages,
          calls,
          nativeCalls,
          done: results,
          parsedEntries,
          notes,
          contractMemoryUpdates,
        };
        return turn.park({ ...staged, round, memory: memory.changes(), request: parked });
      }
      const { given, notShown } = mediaForModel(media, model.input, provider);
      results.push({ call, result, given, text: toolMessageText(result, notShown) });
    }
    if (nativeCalls) {
      for (const { call, result, given, text } of results)
        messages.push({
          role: 'tool',
          toolCallId: call.id,
          content: text,
          ...(result.success ? {} : { isError: true }),
          ...(given.length > 0 ? { media: given } : {}),
        });
    } else {
      const given = results.flatMap((entry) => entry.given);
      messages.push({
        role: 'user',
        content: `TOOL RESULTS:\n${results.map(({ call, text }) => `${call.name}: ${text}`).join('\n')}`,
        ...(given.length > 0 ? { media: given } : {}),
      });
    }
  }

  for (const update of contractMemoryUpdates) {
    const outcome = await memory.apply(update);
    if (!outcome.ok) turn.warn(`memory_${outcome.error.code}`, outcome.error.message);
    else if (outcome.warning) turn.warn(`memory_${outcome.warning.code}`, outcome.warning.message);
  }
  for (const change of memory.changes()) turn.memoryChange(change);
  for (const entry of parsedEntries) turn.outboxEntry(entry);
  turn.complete(notes.join('\n'));
}

interface RoundTools {
  tools: ToolDefinition[];
  toolChoice: 'none' | undefined;
}

/** Anthropic's pause_turn: the answer is sent back this many times at most to let the model go on. */
const MAX_PAUSE_CONTINUATIONS = 3;

/**
 * One round's answer, following the stop reason: a paused turn is resumed, an answer cut at max_tokens
 * is continued once where the API continues an assistant message; what cannot be mended is a warning.
 * Every call is its own `model_call` event and charge. Null when a call failed (the turn is failed).
 */
async function callModel(
  input: TurnInput,
  provider: ModelProvider,
  messages: ChatMessage[],
  roundTools: RoundTools,
  maxTokens: number,
  round: number,
  turn: TurnRecorder,
): Promise<ModelResponse | null> {
  let answer: ModelResponse | null = null;
  let pauses = 0;
  let continuedAfterLength = false;
  for (;;) {
    const conversation = answer
      ? [...messages, { role: 'assistant' as const, content: answer.text.trimEnd() }]
      : messages;
    const response = await callOnce(input, provider, conversation, roundTools, maxTokens, round, turn);
    if (!response) return null;
    answer = answer ? joinAnswers(answer, response) : response;
    const canGoOn = provider.continuesAssistantMessage === true && response.toolCalls.length === 0;
    switch (response.stop) {
      case 'pause':
        if (canGoOn && pauses < MAX_PAUSE_CONTINUATIONS) {
          pauses += 1;
          continue;
        }
        turn.warn(
          'model_still_paused' satisfies ModelWarningCode,
          `The model paused its answer ${pauses + 1} time(s); what it wrote so far is used.`,
        );
        return answer;
      case 'length': {
        const continuing = canGoOn && !continuedAfterLength && answer.text.trim() !== '';
        turn.warn(
          'model_output_truncated' satisfies ModelWarningCode,
          `The model's answer reached its length limit (${maxTokens} tokens, max_tokens) and was cut off.${continuing ? ' The model was asked to go on once.' : ''}`,
        );
        if (!continuing) return answer;
        continuedAfterLength = true;
        continue;
      }
      case 'context_window':
        turn.warn(
          'model_context_full' satisfies ModelWarningCode,
          "The conversation filled the model's context window; its answer was cut off.",
        );
        return answer;
      case 'content_filter':
        turn.warn(
          'model_content_filtered' satisfies ModelWarningCode,
          "The provider's content filter stopped the model's answer; what it wrote before that is used.",
        );
        return answer;
      default:
        return answer;
    }
  }
}

/** A continued answer: the text goes on where the previous call stopped; usage adds up. */
function joinAnswers(before: ModelResponse, after: ModelResponse): ModelResponse {
  return {
    ...after,
    text: before.text.trimEnd() + after.text,
    toolCalls: [...before.toolCalls, ...after.toolCalls],
    usage: before.usage && after.usage ? addUsage(before.usage, after.usage) : (after.usage ?? before.usage),
    latencyMs: before.latencyMs + after.latencyMs,
  };
}

function addUsage(a: TokenUsage, b: TokenUsage): TokenUsage {
  const cached = (a.cachedInputTokens ?? 0) + (b.cachedInputTokens ?? 0);
  const writes = (a.cacheWriteTokens ?? 0) + (b.cacheWriteTokens ?? 0);
  return {
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    ...(cached ? { cachedInputTokens: cached } : {}),
    ...(writes ? { cacheWriteTokens: writes } : {}),
  };
}

async function callOnce(
  input: TurnInput,
  provider: ModelProvider,
  messages: ChatMessage[],
  { tools, toolChoice }: RoundTools,
  maxTokens: number,
  round: number,
  turn: TurnRecorder,
): Promise<ModelResponse | null> {
  // The limit is on silence, not on the whole answer: each piece of a streamed answer restarts it.
  const deadline = callDeadline(input.signal, input.limits.callTimeoutMs);
  const signal = deadline.signal;
  const progress = input.onProgress ? progressReporter(input, round, input.onProgress) : undefined;
  const started = Date.now();
  const temperature = input.agent.resume.model.temperature;
  // What this call is sent: the turn's later rounds add to `messages` before the turn is committed.
  const call = {
    kind: 'model_call' as const,
    round,
    model: input.model.key,
    provider: provider.name,
    prompt: messages.map(recordedMessage),
  };
  try {
    // Tool definitions come from the org's files and its MCP servers: what they say is redacted as all else is.
    const response = await provider.complete({
      model: input.model.modelName,
      // An image's or a sound's bytes are not text a secret could be read from: only the words are redacted.
      messages: messages.map(({ media, ...words }) => {
        const redacted = input.redaction.redactValue(words);
        return media ? { ...redacted, media } : redacted;
      }),
      ...(tools.length > 0
        ? { tools: input.redaction.redactValue(tools), ...(toolChoice ? { toolChoice } : {}) }
        : {}),
      ...(temperature !== null && temperature !== undefined ? { temperature } : {}),
      maxTokens,
      signal,
      context: { agent: input.agent.resume.name, tick: input.tick, round },
      onProgress: (delta) => {
        deadline.restart();
        progress?.piece(delta);
      },
      ...(input.serverCalls ? { serverCalls: input.serverCalls } : {}),
    });
    const costMicro = response.usage ? usageCostMicros(response.usage, input.model.prices) : 0;
    turn.event({
      ...call,
      tools: tools.map((tool) => tool.name),
      ...(toolChoice ? { tool_choice: toolChoice } : {}),
      response: {
        text: response.text,
        toolCalls: response.toolCalls,
        finishReason: response.finishReason,
        ...(response.stop ? { stop: response.stop } : {}),
      },
      ...(response.warnings ? { warnings: response.warnings } : {}),
      usage: response.usage,
      latency_ms: response.latencyMs,
      cost: fromMicros(costMicro),
    });
    if (costMicro > 0)
      turn.charge(
        'model_call',
        costMicro,
        `model call ${round} (${response.usage?.inputTokens ?? 0} in, ${response.usage?.outputTokens ?? 0} out)`,
      );
    return response;
  } catch (error) {
    const silent = signal.aborted && !input.signal?.aborted;
    const attempts = isModelCallError(error) ? error.attempts : 1;
    const failure = silent
      ? {
          error_kind: 'timeout',
          status: null,
          attempts,
          message: `The model sent nothing for ${input.limits.callTimeoutMs} ms, so the call was given up.`,
          failure: { kind: 'timeout' as const, status: null, retryable: true },
        }
      : {
          error_kind: isModelCallError(error) ? error.kind : 'unexpected',
          status: isModelCallError(error) ? (error.status ?? null) : null,
          attempts,
          message: error instanceof Error ? error.message : String(error),
          failure: failureOfModelCall(error),
        };
    turn.event({
      ...call,
      error: failure,
      latency_ms: Date.now() - started,
    });
    turn.fail('llm_call_failed', failure.message, failure.failure, {
      error_kind: failure.error_kind,
      status: failure.status,
      attempts: failure.attempts,
      duration_ms: Date.now() - started,
    });
    return null;
  } finally {
    deadline.dispose();
    progress?.end();
  }
}

/**
 * Reports one model call's live pieces, redacted: the text and each tool call's arguments are each one
 * stream, whose held-back tail goes out at the end of the call.
 */
function progressReporter(
  input: TurnInput,
  round: number,
  report: (progress: TurnProgress) => void,
): { piece: (delta: ProgressDelta) => void; end: () => void } {
  const where = {
    kind: 'turn_progress' as const,
    run: input.runId,
    tick: input.tick,
    agent: input.agent.resume.name,
    turn: input.turnId,
    round,
  };
  let text = input.redaction.stream();
  /** The text so far is complete (its end, or a tool call began): its held-back end goes out. */
  const textEnded = (): ProgressDelta[] => {
    const rest = text.end();
    text = input.redaction.stream();
    return rest === '' ? [] : [{ type: 'text', text: rest }];
  };
  const toolArguments = new Map<number, StreamRedactor>();
  const argumentsOf = (index: number): StreamRedactor => {
    const known = toolArguments.get(index);
    if (known) return known;
    const stream = input.redaction.stream();
    toolArguments.set(index, stream);
    return stream;
  };
  const send = (deltas: ProgressDelta[]) => {
    if (deltas.length > 0) report({ ...where, deltas });
  };
  return {
    piece(delta) {
      if (delta.type === 'restart') {
        // What the failed attempt held back is never shown: its streams start again empty.
        text = input.redaction.stream();
        toolArguments.clear();
        return send([delta]);
      }
      if (delta.type === 'text') {
        const shown = text.push(delta.text);
        return send(shown === '' ? [] : [{ type: 'text', text: shown }]);
      }
      const shownArguments =
        delta.arguments === undefined ? '' : argumentsOf(delta.index).push(delta.arguments);
      send([
        ...textEnded(),
        {
          type: 'tool_call',
          index: delta.index,
          ...(delta.name === undefined ? {} : { name: input.redaction.redactText(delta.name) }),
          ...(shownArguments === '' ? {} : { arguments: shownArguments }),
        },
      ]);
    },
    end() {
      send([
        ...textEnded(),
        ...[...toolArguments].flatMap(([index, stream]) => {
          const shown = stream.end();
          return shown === '' ? [] : [{ type: 'tool_call' as const, index, arguments: shown }];
        }),
      ]);
    },
  };
}

/**
 * The calls an earlier attempt at this turn started before the app stopped. Each is not run again when
 * the model asks for it (the same tool with the same arguments): it is told the outcome is unknown.
 */
class EarlierAttempt {
  private readonly unanswered: StartedCall[];

  constructor(
    started: readonly StartedCall[],
    private readonly redaction: Redaction,
  ) {
    this.unanswered = [...started];
  }

  /** What the model is told before its first call, so it knows even if it does not ask again; null when nothing. */
  toldBeforehand(): string | null {
    if (this.unanswered.length === 0) return null;
    const calls = this.unanswered.map((call) => `- ${call.tool} ${JSON.stringify(call.args)}`).join('\n');
    return `This turn was started once before and cut off when the app stopped. It had started these tool calls, and whether they finished is not known:\n${calls}\nCheck whether they took effect before you call them again.`;
  }

  /** The earlier call this one repeats, taken so that a second request for it runs; undefined when none. */
  take(call: ToolCall): StartedCall | undefined {
    // The intent's arguments were redacted when recorded: compare like with like.
    const args = this.redaction.redactValue(call.arguments);
    const index = this.unanswered.findIndex(
      (earlier) => earlier.tool === call.name && isDeepStrictEqual(earlier.args, args),
    );
    return index < 0 ? undefined : this.unanswered.splice(index, 1)[0];
  }
}

async function runTool(
  tools: AgentTools,
  toolCall: ToolCall,
  round: number,
  turn: TurnRecorder,
  earlier: EarlierAttempt,
  answered: AnsweredApproval | undefined,
): Promise<ToolOutcome & { parked?: ApprovalRequest }> {
  const which = { round, call_id: toolCall.id, tool: toolCall.name };
  // A parked call's tool_call event was recorded before it parked.
  if (!answered) turn.event({ kind: 'tool_call', ...which, args: toolCall.arguments });
  const started = Date.now();
  const startedBefore = earlier.take(toolCall);
  turn.toolCallRunning = which;
  const outcome: ToolOutcome & { parked?: ApprovalRequest } = startedBefore
    ? toolFailure(STARTED_BEFORE_STOP)
    : await tools
        .call(
          toolCall.name,
          toolCall.arguments,
          () => turn.recordNow({ kind: 'tool_intent', ...which, args: toolCall.arguments }),
          answered,
        )
        .finally(() => (turn.toolCallRunning = null));
  if (outcome.parked) return outcome;
  const { media, parked: _notParked, ...result } = outcome;
  for (const problem of await keepMedia(turn.orgPath, media)) turn.warn('attachment_not_kept', problem);
  turn.event({
    kind: 'tool_result',
    ...which,
    result,
    duration_ms: Date.now() - started,
    ...(startedBefore ? { started_before_stop: startedBefore.callId } : {}),
  });
  turn.toolCount += 1;
  return outcome;
}

/** Collects a turn's events, messages, charges and file writes as it goes. */
class TurnRecorder {
  private events: KnownTimelineEvent[] = [];
  private readonly outbox: StagedTurn['outbox'] = [];
  private postings: LedgerPosting[] = [];
  private files: FileWrite[] = [];
  private status: TurnStatus | null = null;
  private parked: ParkedTurnState | null = null;
  private spentMicro = 0;
  private modelSpentMicro = 0;
  private inboxShown = false;
  private memoryUpdateCount = 0;
  private readonly started = Date.now();
  toolCount = 0;
  /** The call whose server may ask the agent's model a question now (tool calls run one at a time). */
  toolCallRunning: ToolCallRunning | null = null;

  constructor(private readonly input: TurnInput) {
    if (input.resumed) return;
    this.event({
      kind: 'turn_started',
      inbox: {
        fresh: input.inbox.fresh.map((message) => ({
          seq: message.seq,
          id: message.id,
          from: message.sender,
        })),
        earlier: input.inbox.earlier.length,
        more_waiting: input.inbox.moreWaiting,
      },
    });
  }

  private get name(): string {
    return this.input.agent.resume.name;
  }

  get orgPath(): string {
    return this.input.orgPath;
  }

  private now(): string {
    return this.input.clock().toISOString();
  }

  event(fields: KnownEventFields): void {
    this.events.push(this.placed(fields));
  }

  /** Straight to the timeline, not kept for the commit: what must be there even if the turn never ends. */
  recordNow(fields: KnownEventFields): void {
    this.input.recordNow?.(this.placed(fields));
  }

  private placed(fields: KnownEventFields): KnownTimelineEvent {
    return {
      ...fields,
      time: this.now(),
      run: this.input.runId,
      tick: this.input.tick,
      agent: this.name,
      turn: this.input.turnId,
    };
  }

  available(): number {
    return this.input.balanceMicro - this.spentMicro;
  }

  /** What the turn has charged so far, and of that what its model calls cost: what budgets count. */
  spending(): TurnSpending {
    return { creditsMicro: this.spentMicro, moneyMicro: this.modelSpentMicro };
  }

  charge(kind: LedgerPosting['kind'], micros: number, reason: string): void {
    const amount = Math.min(micros, this.available());
    if (amount <= 0) return;
    this.spentMicro += amount;
    if (kind === 'model_call') this.modelSpentMicro += amount;
    this.postings.push({
      agent: this.name,
      kind,
      amountMicro: -amount,
      reason,
      tick: this.input.tick,
      turn: this.input.turnId,
      time: this.now(),
    });
    this.event({ kind: 'credit', entry: kind, amount: -fromMicros(amount), reason });
  }

  shownInbox(): void {
    this.inboxShown = true;
  }

  /** The turn stops here, on an approval request: what it holds is kept to go on from later. */
  park(state: Omit<ParkedTurnState, 'recorder' | 'inbox'>): void {
    this.parked = {
      ...state,
      inbox: this.input.inbox,
      recorder: {
        events: this.events,
        postings: this.postings,
        files: this.files,
        spentMicro: this.spentMicro,
        toolCount: this.toolCount,
        inboxShown: this.inboxShown,
      },
    };
  }

  /** A parked turn goes on with what it had staged, and records that it was given its answer. */
  resumedFrom({ state, answered }: ResumedTurn): void {
    const { recorder } = state;
    this.events = [...recorder.events];
    this.postings = [...recorder.postings];
    this.files = [...recorder.files];
    this.spentMicro = recorder.spentMicro;
    this.toolCount = recorder.toolCount;
    this.inboxShown = recorder.inboxShown;
    this.event({
      kind: 'turn_resumed',
      request_id: answered.request.id,
      answer: answered.answer.answer,
      source: answered.answer.source,
      parked_at_tick: state.request.tick,
    });
  }

  warn(code: string, message: string, snippet?: string): void {
    this.event({ kind: 'warning', code, message, ...(snippet !== undefined ? { snippet } : {}) });
  }

  skip(reason: SkipReason, message: string): void {
    this.status = 'skipped';
    this.event({ kind: 'skip', reason, message });
    this.structuredLog('agent_skipped', { credits_left: fromMicros(this.available()), reason });
  }

  fail(reason: string, message: string, failure: Failure, logFields: Record<string, unknown> = {}): void {
    this.status = 'failed';
    this.event({ kind: 'error', reason, message, failure });
    this.structuredLog(reason === 'llm_call_failed' ? 'llm_call_failed' : 'agent_failed', {
      duration_ms: Date.now() - this.started,
      error: message,
      ...logFields,
    });
  }

  memoryChange(change: StagedMemoryChange): void {
    const { event, write } = memoryChangeRecord(change, {
      folder: this.input.agent.folder,
      agent: this.name,
      tick: this.input.tick,
      now: this.input.clock(),
    });
    this.memoryUpdateCount += 1;
    this.event(event);
    this.files.push(write);
  }

  outboxEntry(parsed: ParsedOutboxEntry): void {
    const allowed = this.input.agent.resume.permissions.send_outboxes;
    if (allowed && allowed.length > 0 && !allowed.includes('*')) {
      const recipients = parsed.recipients ?? [];
      const refused =
        recipients.length === 0
          ? ['(everyone)']
          : recipients.filter((recipient) => !allowed.includes(recipient));
      if (refused.length > 0) {
        this.event({ kind: 'message_refused', reason: 'send_outboxes', refused, allowed, entry: parsed });
        return;
      }
    }
    const entry = newOutboxEntry(
      {
        agent: this.name,
        tick: this.input.tick,
        kind: parsed.kind,
        payload: parsed.payload,
        tags: parsed.tags,
        recipients: parsed.recipients,
        meta: parsed.meta,
      },
      this.input.clock(),
    );
    const file = agentPaths(this.input.agent.folder).outboxFile(outboxFileName(entry));
    const json = serializeEntry(entry);
    this.outbox.push({ entry, file, json });
    this.files.push({ path: file, mode: 'write', content: json });
    this.event({
      kind: 'message',
      file,
      entry,
      ...(Object.keys(parsed.extra).length > 0 ? { extra: parsed.extra } : {}),
    });
  }

  complete(notes: string): void {
    this.charge('turn', this.input.costPerActionMicro, 'turn');
    this.status = 'completed';
    if (notes)
      this.files.push({
        path: agentPaths(this.input.agent.folder).activityLog,
        mode: 'append',
        content: `[Tick ${this.input.tick}] ${notes}\n`,
      });
    this.structuredLog('agent_completed', {
      duration_ms: Date.now() - this.started,
      credits_left: fromMicros(this.available()),
      tool_count: this.toolCount,
      outbox_count: this.outbox.length,
      memory_updates: this.memoryUpdateCount,
    });
    if (notes) this.event({ kind: 'notes', text: notes });
  }

  private structuredLog(event: string, fields: Record<string, unknown>): void {
    const line = {
      timestamp: pythonUtcIsoFormat(this.input.clock().getTime() * 1000),
      level: 'INFO',
      logger: `lemming.agent.${this.name}`,
      event,
      agent: this.name,
      tick: this.input.tick,
      ...fields,
    };
    this.files.push({
      path: agentPaths(this.input.agent.folder).structuredLog,
      mode: 'append',
      content: `${pythonJsonDumps(line)}\n`,
    });
  }

  finish(): StagedTurn {
    if (this.parked)
      return {
        turnId: this.input.turnId,
        agent: this.name,
        tick: this.input.tick,
        runId: this.input.runId,
        status: 'skipped',
        events: [],
        outbox: [],
        postings: [],
        cursorAfter: null,
        files: [],
        parked: this.parked,
      };
    const status = this.status ?? 'failed';
    this.event({
      kind: 'turn_completed',
      status,
      spent: fromMicros(this.spentMicro),
      duration_ms: Date.now() - this.started,
    });
    return {
      turnId: this.input.turnId,
      agent: this.name,
      tick: this.input.tick,
      runId: this.input.runId,
      status,
      events: this.events,
      outbox: status === 'completed' ? this.outbox : [],
      postings: this.postings,
      cursorAfter: this.inboxShown && status === 'completed' ? this.input.inbox.cursorAfter : null,
      files:
        status === 'completed'
          ? this.files
          : this.files.filter((file) => file.path.endsWith('structured.jsonl')),
      parked: null,
    };
  }
}
