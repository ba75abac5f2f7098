import { z } from 'zod';

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

export const ChatMessage = z.object({
  role: ChatRole,
  content: z.string(),
  /** Only on assistant messages: the tool calls that message made. */
  toolCalls: z.array(ToolCall).optional(),
  /** Only on tool messages: the call this message is the result of. */
  toolCallId: z.string().optional(),
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
  inputTokens: z.number().int().nonnegative(),
  outputTokens: z.number().int().nonnegative(),
});
export type TokenUsage = z.infer<typeof TokenUsage>;

export const ModelResponse = z.object({
  text: z.string(),
  toolCalls: z.array(ToolCall),
  usage: TokenUsage.nullable(),
  finishReason: z.string().nullable(),
  /** The provider's response body as parsed JSON (stdout for the cli provider), kept for the timeline. */
  raw: z.unknown(),
  latencyMs: z.number().nonnegative(),
});
export type ModelResponse = z.infer<typeof ModelResponse>;

/** Where in a run a call happens. Informational for HTTP providers; the scripted provider matches on it. */
export interface CallContext {
  agent: string;
  tick: number;
  round: number;
}

export interface ModelRequest {
  /** The model id sent to the provider (models.json `model_name`). */
  model: string;
  messages: ChatMessage[];
  tools?: ToolDefinition[];
  temperature?: number;
  maxTokens?: number;
  signal?: AbortSignal;
  context?: CallContext;
}

export interface ModelProvider {
  readonly name: string;
  /** True when the provider takes tool definitions and returns structured tool calls. */
  readonly nativeTools: boolean;
  /** Resolves with the model's answer or rejects with a ModelCallError, nothing else. */
  complete(request: ModelRequest): Promise<ModelResponse>;
}
