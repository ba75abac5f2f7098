import type { KnownEventFields } from '../api/timeline-events';
import type { LedgerPosting } from '../credits/ledger';
import { fromMicros } from '../credits/credit-amount';
import { isModelCallError } from '../models/model-call-error';
import type { ChatMessage } from '../models/types';
import type { ModelAsker, ServerQuestion } from '../tools/mcp/mcp-sampling';
import type { TurnInput } from './agent-turn';
import { callDeadline } from './call-deadline';
import { usageCostMicros, worstCaseCallMicros } from './model-cost';
import { keepMedia, mediaForModel, recordedMessage } from './tool-media';

/** The tool call a turn is running: the one whose server may ask the agent's model a question. */
export interface ToolCallRunning {
  round: number;
  call_id: string;
  tool: string;
}

/** What of a turn a server's question uses: its record, its credits, and the call running now. */
export interface QuestionTurn {
  event(fields: KnownEventFields): void;
  warn(code: string, message: string): void;
  charge(kind: LedgerPosting['kind'], micros: number, reason: string): void;
  available(): number;
  readonly toolCallRunning: ToolCallRunning | null;
}

/**
 * The agent's model as its turn lends it to the MCP server whose tool it calls (sampling): each question
 * is a model call of the turn through the same provider, redaction and deadline as the agent's own,
 * capped at the agent's token limit, charged to the agent, and recorded as a `model_call` event that
 * names the server and the call (`asked_by`). A question the agent cannot pay for is declined unasked.
 */
export function modelAskerOf(input: TurnInput, turn: QuestionTurn): ModelAsker {
  const name = input.agent.resume.name;
  const during = () => turn.toolCallRunning?.tool ?? 'a tool call';
  const refused = (server: string, reason: string) =>
    turn.warn(
      'mcp_sampling_declined',
      `The MCP server ${server} asked ${name}'s model a question during ${during()}; it was declined: ${reason}.`,
    );
  return {
    refused,
    async ask(question) {
      const provider = input.model.provider;
      if (!provider) return { ok: false, error: `${name}'s model cannot be used now` };
      const maxTokens = Math.min(
        question.maxTokens,
        input.agent.resume.model.max_tokens ?? input.limits.maxTokens,
      );
      const messages = questionMessages(question, input);
      const worstCase = worstCaseCallMicros(messages, maxTokens, input.model.prices);
      if (turn.available() < worstCase) {
        const reason = `${name} does not have the credits for it (up to ${fromMicros(worstCase)} needed, ${fromMicros(turn.available())} left)`;
        refused(question.server, reason);
        return { ok: false, error: reason };
      }
      for (const problem of await keepMedia(
        input.orgPath,
        question.messages.flatMap((message) => message.media),
      ))
        turn.warn('attachment_not_kept', problem);
      const running = turn.toolCallRunning;
      const call = {
        kind: 'model_call' as const,
        round: running?.round ?? 0,
        model: input.model.key,
        provider: provider.name,
        prompt: messages.map(recordedMessage),
        asked_by: {
          server: question.server,
          call_id: running?.call_id ?? null,
          tool: during(),
          // Asked for and not done: context from the agent's other conversations, and a choice of model.
          ...(question.includeContext !== null && question.includeContext !== 'none'
            ? { include_context: question.includeContext }
            : {}),
          ...(question.modelPreferences !== null ? { model_preferences: question.modelPreferences } : {}),
        },
      };
      const deadline = callDeadline(input.signal, input.limits.callTimeoutMs);
      const started = Date.now();
      const temperature = question.temperature ?? input.agent.resume.model.temperature;
      try {
        const response = await provider.complete({
          model: input.model.modelName,
          messages: messages.map(({ media, ...words }) => {
            const redacted = input.redaction.redactValue(words);
            return media ? { ...redacted, media } : redacted;
          }),
          ...(temperature !== null && temperature !== undefined ? { temperature } : {}),
          maxTokens,
          signal: deadline.signal,
          context: { agent: name, tick: input.tick, round: call.round },
          onProgress: () => deadline.restart(),
        });
        const costMicro = response.usage ? usageCostMicros(response.usage, input.model.prices) : 0;
        turn.event({
          ...call,
          response: {
            text: response.text,
            toolCalls: [],
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
            `a question the MCP server ${question.server} asked during ${during()} (${response.usage?.inputTokens ?? 0} in, ${response.usage?.outputTokens ?? 0} out)`,
          );
        return {
          ok: true,
          value: {
            text: input.redaction.redactText(response.text),
            model: input.model.modelName,
            cut: response.stop === 'length',
          },
        };
      } catch (error) {
        const message =
          deadline.signal.aborted && !input.signal?.aborted
            ? `the model sent nothing for ${input.limits.callTimeoutMs} ms, so the call was given up`
            : error instanceof Error
              ? error.message
              : String(error);
        turn.event({
          ...call,
          error: {
            error_kind: isModelCallError(error) ? error.kind : 'unexpected',
            status: isModelCallError(error) ? (error.status ?? null) : null,
            attempts: isModelCallError(error) ? error.attempts : 1,
            message,
          },
          latency_ms: Date.now() - started,
        });
        // The provider's words go to the server: through the redactor, as everything leaving the engine.
        return {
          ok: false,
          error: `${name}'s model could not answer: ${input.redaction.redactText(message)}`,
        };
      } finally {
        deadline.dispose();
      }
    },
  };
}

/** The question as chat messages: its system prompt, then its messages, media only to a model that takes them. */
function questionMessages(question: ServerQuestion, input: TurnInput): ChatMessage[] {
  const provider = input.model.provider ?? {};
  return [
    ...(question.systemPrompt ? [{ role: 'system' as const, content: question.systemPrompt }] : []),
    ...question.messages.map((message): ChatMessage => {
      const { given, notShown } = mediaForModel(message.media, input.model.input, provider);
      const note = notShown.length > 0 ? `\n[not shown to you: ${notShown.join('; ')}]` : '';
      return {
        role: message.role,
        content: `${message.text}${note}`,
        ...(given.length > 0 ? { media: given } : {}),
      };
    }),
  ];
}
