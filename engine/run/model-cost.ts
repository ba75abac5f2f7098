import { toMicros } from '../credits/credit-amount';
import type { ChatMessage, TokenUsage } from '../models/types';

export interface ModelPrices {
  input_per_million: number;
  output_per_million: number;
  /** Prompt tokens read from the cache; the input price when absent. */
  cached_input_per_million?: number | undefined;
  /** Prompt tokens written to the cache (Anthropic); the input price when absent. */
  cache_write_per_million?: number | undefined;
}

/** A deliberately generous token estimate (3 characters a token), used only to refuse calls that could not be paid for. */
export function estimateInputTokens(messages: readonly ChatMessage[]): number {
  const characters = messages.reduce(
    (sum, message) => sum + message.content.length + JSON.stringify(message.toolCalls ?? []).length,
    0,
  );
  return Math.ceil(characters / 3) + 16 * messages.length;
}

/** What a call cost: fresh input, cached input, cache writes and output, each at its own price. */
export function usageCostMicros(usage: TokenUsage, prices: ModelPrices | undefined): number {
  if (!prices) return 0;
  const cached = usage.cachedInputTokens ?? 0;
  const writes = usage.cacheWriteTokens ?? 0;
  const fresh = Math.max(0, usage.inputTokens - cached - writes);
  const perMillion =
    fresh * prices.input_per_million +
    cached * (prices.cached_input_per_million ?? prices.input_per_million) +
    writes * (prices.cache_write_per_million ?? prices.input_per_million) +
    usage.outputTokens * prices.output_per_million;
  return toMicros(perMillion / 1_000_000);
}

/** The most a call can cost: its whole prompt at the input price and every allowed output token at the output price. */
export function worstCaseCallMicros(
  messages: readonly ChatMessage[],
  maxTokens: number,
  prices: ModelPrices | undefined,
): number {
  return usageCostMicros({ inputTokens: estimateInputTokens(messages), outputTokens: maxTokens }, prices);
}
