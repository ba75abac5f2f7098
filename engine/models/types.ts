import { z } from 'zod';
import type { ProgressDelta } from '../api/model-event-schemas';

/** One call the model asked for. `arguments` is the parsed JSON, or the raw text when it does not parse. */
export const ToolCall = z.object({
  id: z.string(),
  name: z.string(),
  arguments: z.unknown(),
  rawArguments: z.string(),
});
export type ToolCall = z.infer<typeof ToolCall>;

export const ChatRole = z.enum(['system', 'user', 'assistant', 'tool']);
export type ChatRole = z.infer<typeof ChatRole>;

/** What a model may be given besides text (models.json `input`). */
export const ModelInput = z.enum(['text', 'image', 'audio']);
export type ModelInput = z.infer<typeof ModelInput>;

/** An image or a sound given to the model with a message, its bytes in base64. */
export const MessageMedia = z.object({
  kind: z.enum(['image', 'audio']),
  mimeType: z.string(),
  data: z.string(),
  /** Where the bytes are kept beside the timeline, for the record of what the model was sent. */
  sha256: z.string().optional(),
});
export type MessageMedia = z.infer<typeof MessageMedia>;

export const ChatMessage = z.object({
  role: ChatRole,
  content: z.string(),
  /** Only on assistant messages: the tool calls that message made. */
  toolCalls: z.array(ToolCall).optional(),
  /** Only on tool messages: the call this message is the result of. */
  toolCallId: z.string().optional(),
  /** Only on tool messages: the tool failed (Anthropic's `is_error`). */
  isError: z.boolean().optional(),
  /** Images and sounds of a tool result (or a user message), for a model that takes them. */
  media: z.array(MessageMedia).optional(),
});
export type ChatMessage = z.infer<typeof ChatMessage>;

export const ToolDefinition = z.object({
  name: z.string(),
  description: z.string(),
  /** A JSON schema object describing the arguments. */
  parameters: z.record(z.string(), z.unknown()),
});
export type ToolDefinition = z.infer<typeof ToolDefinition>;

export const TokenUsage = z.object({
  /** Every prompt token the call used, cached ones and cache writes included. */
  inputTokens: z.number().int().nonnegative(),
  outputTokens: z.number().int().nonnegative(),
  /** Of inputTokens, those read from the provider's prompt cache (billed at the cached price). */
  cachedInputTokens: z.number().int().nonnegative().optional(),
  /** Of inputTokens, those written to the prompt cache (Anthropic bills them at the cache-write price). */
  cacheWriteTokens: z.number().int().nonnegative().optional(),
});
export type TokenUsage = z.infer<typeof TokenUsage>;

/**
 * Why the model stopped, the same words for every API: `end` (it finished), `tool_calls`, `length`
 * (max tokens reached), `context_window` (the prompt filled the model's window), `content_filter`,
 * `refusal` (the text is the model's refusal), `pause` (Anthropic's pause_turn: send it back to go on).
 */
export const StopReason = z.enum([
  'end',
  'tool_calls',
  'length',
  'context_window',
  'content_filter',
  'refusal',
  'pause',
  'other',
]);
export type StopReason = z.infer<typeof StopReason>;

export const ModelResponse = z.object({
  text: z.string(),
  toolCalls: z.array(ToolCall),
  usage: TokenUsage.nullable(),
  finishReason: z.string().nullable(),
  /** The finish reason in the shared words; absent when the provider does not say (cli, scripted). */
  stop: StopReason.optional(),
  /** The provider's response body as parsed JSON (stdout for the cli provider), kept for the timeline. */
  raw: z.unknown(),
  /** What the provider read past in the answer (an Ollama line that is not JSON), in plain words. */
  warnings: z.array(z.string()).optional(),
  latencyMs: z.number().nonnegative(),
});
export type ModelResponse = z.infer<typeof ModelResponse>;

/** Where in a run a call happens. Informational for HTTP providers; the scripted provider matches on it. */
export interface CallContext {
  agent: string;
  tick: number;
  round: number;
}

/** How one HTTP attempt at a model call went: what the adaptive concurrency per server learns from. */
export interface ServerAnswer {
  /** Milliseconds on the provider's retry clock. */
  startedAt: number;
  endedAt: number;
  /** The HTTP status; null when no answer came (the connection failed, the call was cancelled). */
  status: number | null;
  /** The server's retry-after or retry-after-ms, in milliseconds. */
  retryAfterMs: number | null;
  /** The lowest x-ratelimit-remaining-* the answer carried, and when that budget resets (ms). */
  remaining: number | null;
  resetMs: number | null;
  /** When another attempt follows: how long the call waits for it. */
  retryInMs: number | null;
}

/** Told of each HTTP attempt at a model call: when it is sent, and how it was answered. */
export interface ServerCallWatch {
  sent(): void;
  answered(answer: ServerAnswer): void;
}

export interface ModelRequest {
  /** The model id sent to the provider (models.json `model_name`). */
  model: string;
  messages: ChatMessage[];
  tools?: ToolDefinition[];
  /** `none` forbids further tool calls while keeping the tools the history refers to. */
  toolChoice?: 'auto' | 'none';
  /** Sent only when set (reasoning models reject sampling settings). */
  temperature?: number;
  topP?: number;
  maxTokens?: number;
  signal?: AbortSignal;
  context?: CallContext;
  /**
   * Called with each piece of the answer as it is written. Providers that can stream do so when this is
   * given (unless models.json says `"stream": false`); the resolved response is the same either way.
   */
  onProgress?: (delta: ProgressDelta) => void;
  /** Told of each HTTP attempt (providers that call no server never tell it). */
  serverCalls?: ServerCallWatch;
}

/** The media types a wire format can carry to a model, by kind. */
export interface MediaSupport {
  image: readonly string[];
  audio: readonly string[];
}

export interface ModelProvider {
  readonly name: string;
  /** What its API can carry besides text; absent when nothing (cli, scripted). */
  readonly media?: MediaSupport;
  /** True when the provider takes tool definitions and returns structured tool calls. */
  readonly nativeTools: boolean;
  /**
   * True when a conversation ending in an assistant message makes the model go on from it (Anthropic),
   * so a cut-off answer can be continued and a paused turn resumed.
   */
  readonly continuesAssistantMessage?: boolean;
  /** Resolves with the model's answer or rejects with a ModelCallError, nothing else. */
  complete(request: ModelRequest): Promise<ModelResponse>;
}
