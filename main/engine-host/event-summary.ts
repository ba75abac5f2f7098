/** The longest summary a timeline row carries; the detail pane shows the whole event. */
export const SUMMARY_LIMIT = 240;

/** Events bigger than this are not parsed for their summary (their JSON's start stands in). */
const PARSE_LIMIT = 256 * 1024;

type Json = Record<string, unknown>;

/**
 * One line describing an event for the timeline list, from its stored JSON. Known kinds get a phrase
 * made of their key fields; unknown kinds show their own text fields, else the start of their JSON.
 * Never throws, whatever the JSON holds.
 */
export function summarizeEvent(kind: string, json: string): string {
  const event = json.length <= PARSE_LIMIT ? parseObject(json) : null;
  return oneLine((event && describe(kind, event)) || json);
}

function describe(kind: string, event: Json): string | null {
  switch (kind) {
    case 'message': {
      const entry = record(event.entry);
      const recipients = list(entry.recipients);
      const body = payloadText(entry.payload);
      return body
        ? `${text(entry.kind) ?? 'message'}${recipients.length ? ` to ${recipients.join(', ')}` : ''}: ${body}`
        : null;
    }
    case 'message_refused':
      return `message refused (${text(event.reason) ?? 'not allowed'}): ${list(event.refused).join(', ')}`;
    case 'model_call': {
      const error = record(event.error);
      if (text(error.message)) return `${text(event.model) ?? 'model'} failed: ${text(error.message)}`;
      const usage = record(event.usage);
      const tokens =
        typeof usage.inputTokens === 'number' ? ` (${usage.inputTokens} in, ${usage.outputTokens} out)` : '';
      const reply = text(record(event.response).text);
      return `${text(event.model) ?? 'model'}${tokens}${reply ? `: ${reply}` : ''}`;
    }
    case 'model_refused':
      return `${text(event.model) ?? 'model'} declined: ${text(event.text) ?? ''}`;
    case 'tool_call':
      return `${text(event.tool) ?? 'tool'}(${compact(event.args)})`;
    case 'tool_result': {
      const result = record(event.result);
      const outcome =
        result.success === false ? `failed: ${text(result.error) ?? ''}` : (text(result.output) ?? 'ok');
      return `${text(event.tool) ?? 'tool'} → ${outcome}`;
    }
    case 'memory_update':
      return `memory ${text(event.op) ?? 'update'} ${text(event.key) ?? ''}`;
    case 'credit':
      return `${text(event.entry) ?? 'credit'} ${String(event.amount ?? '')} credits${text(event.reason) ? `: ${text(event.reason)}` : ''}`;
    case 'skip':
    case 'warning':
    case 'error':
      return [text(event.code) ?? text(event.reason), text(event.message)].filter(Boolean).join(': ') || null;
    case 'tick_started':
      return `tick ${String(event.tick ?? '')} started with ${String(event.agents ?? 0)} agents`;
    case 'tick_completed':
      return `tick ${String(event.tick ?? '')} completed: ${Array.isArray(event.turns) ? event.turns.length : 0} turns`;
    case 'turn_started':
      return `turn started with ${list(record(event.inbox).fresh).length} new messages`;
    case 'turn_completed':
      return `turn ${text(event.status) ?? 'ended'}${typeof event.spent === 'number' ? `, spent ${event.spent} credits` : ''}`;
    default:
      return text(event.text) ?? text(event.message) ?? text(event.summary) ?? text(event.notes);
  }
}

function payloadText(payload: unknown): string {
  if (typeof payload === 'string') return payload;
  return text(record(payload).text) ?? compact(payload);
}

function compact(value: unknown): string {
  try {
    return JSON.stringify(value) ?? '';
  } catch {
    return '';
  }
}

function oneLine(value: string): string {
  const flat = value.replace(/\s+/g, ' ').trim();
  return flat.length > SUMMARY_LIMIT ? `${flat.slice(0, SUMMARY_LIMIT - 1)}…` : flat;
}

function parseObject(json: string): Json | null {
  try {
    const value: unknown = JSON.parse(json);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : null;
  } catch {
    return null;
  }
}

function record(value: unknown): Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : {};
}

function text(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value : null;
}

function list(value: unknown): string[] {
  return Array.isArray(value) ? value.map(String) : [];
}
