import { kindOfHttpStatus } from '../api/failure';
import { ModelCallError } from './model-call-error';
import { abortableSleep } from './retry-timing';
import { ScriptFile, selectRule } from './scripted-script';
import type { ChatMessage, ModelProvider, ModelRequest, ModelResponse } from './types';

export interface ScriptedSettings {
  modelKey: string;
  orgPath: string;
  /** The script file, relative to the org unless absolute. */
  script: string;
  /** A reply whose delay_ms reaches this fails as a timeout, as a slow server would. */
  timeoutMs: number;
  nativeTools: boolean;
}

/**
 * Deterministic answers from a script file, for the offline demo org and tests. It keeps no state
 * between calls: the same request always gets the same answer, so a resumed run replays exactly.
 */
export class ScriptedProvider implements ModelProvider {
  readonly name = 'scripted';
  readonly nativeTools: boolean;
  private readonly scriptFile: ScriptFile;

  constructor(private readonly settings: ScriptedSettings) {
    this.nativeTools = settings.nativeTools;
    this.scriptFile = new ScriptFile(settings.orgPath, settings.script);
  }

  async complete(request: ModelRequest): Promise<ModelResponse> {
    const started = performance.now();
    const model = `model "${this.settings.modelKey}" (scripted)`;
    const loaded = this.scriptFile.load();
    if (!loaded.ok) {
      const details = loaded.error.map(
        (problem) =>
          `${problem.field ? `${problem.field}: ` : ''}${problem.message}${problem.line ? ` (line ${problem.line})` : ''}`,
      );
      throw new ModelCallError({
        kind: 'model_setup',
        message: `${model}: script ${this.settings.script} is invalid: ${details.join('; ')}`,
      });
    }
    const selected = selectRule(loaded.value, request.context, lastUserMessage(request.messages));
    if (!selected) {
      const where = request.context
        ? `agent "${request.context.agent}" at tick ${request.context.tick}, round ${request.context.round}`
        : 'a call without run context';
      throw new ModelCallError({
        kind: 'model_setup',
        message: `${model}: no rule in ${this.settings.script} answers ${where}; add a matching rule or a default`,
      });
    }
    const reply = selected.rule.respond;
    await this.wait(reply.delayMs, request.signal, model);
    if (reply.kind === 'error') {
      throw new ModelCallError({
        kind: kindOfHttpStatus(reply.status),
        status: reply.status,
        retryable: reply.status === 429 || reply.status >= 500,
        attempts: 1,
        message: `${model} returned HTTP ${reply.status}: ${reply.message}`,
      });
    }
    const outputChars =
      reply.text.length +
      reply.toolCalls.reduce((sum, call) => sum + call.name.length + call.rawArguments.length, 0);
    return {
      text: reply.text,
      toolCalls: reply.toolCalls,
      usage: {
        inputTokens: estimateTokens(
          request.messages.reduce((sum, message) => sum + message.content.length, 0),
        ),
        outputTokens: estimateTokens(outputChars),
      },
      finishReason: reply.toolCalls.length ? 'tool_calls' : 'stop',
      raw: {
        rule: selected.path,
        ...(selected.rule.when ? { when: selected.rule.when } : {}),
        respond: reply,
      },
      latencyMs: performance.now() - started,
    };
  }

  private async wait(delayMs: number, signal: AbortSignal | undefined, model: string): Promise<void> {
    const cancelled = () =>
      new ModelCallError({ kind: 'cancelled', attempts: 1, message: `${model}: the call was cancelled` });
    if (signal?.aborted) throw cancelled();
    if (delayMs === 0) return;
    try {
      await abortableSleep(
        Math.min(delayMs, this.settings.timeoutMs),
        signal ?? new AbortController().signal,
      );
    } catch {
      throw cancelled();
    }
    if (delayMs >= this.settings.timeoutMs) {
      throw new ModelCallError({
        kind: 'timeout',
        retryable: true,
        attempts: 1,
        message: `${model} did not answer within ${this.settings.timeoutMs} ms (timeout_ms)`,
      });
    }
  }
}

/** About four characters per token, the usual rule of thumb; deterministic, which is what matters here. */
export function estimateTokens(characters: number): number {
  return Math.ceil(characters / 4);
}

function lastUserMessage(messages: ChatMessage[]): string {
  for (let index = messages.length - 1; index >= 0; index -= 1) {
    const message = messages[index];
    if (message?.role === 'user') return message.content;
  }
  return '';
}
