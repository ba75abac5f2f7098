import type { ToolCall } from './types';

/** Tool arguments as the model wrote them: parsed JSON when it parses, else the text itself. */
export function parseToolArguments(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A function call as OpenAI-style APIs (OpenAI, Ollama) return it; arguments as text or as JSON. */
interface FunctionCall {
  id?: string | null | undefined;
  function: { name: string; arguments?: unknown };
}

/** The tool calls of an OpenAI-style answer; a call without an id gets `call_<index>`. */
export function functionToolCalls(calls: readonly FunctionCall[]): ToolCall[] {
  return calls.map((call, index) => {
    const rawArguments =
      typeof call.function.arguments === 'string'
        ? call.function.arguments
        : JSON.stringify(call.function.arguments ?? {});
    return {
      id: call.id ?? `call_${index}`,
      name: call.function.name,
      arguments: parseToolArguments(rawArguments),
      rawArguments,
    };
  });
}
