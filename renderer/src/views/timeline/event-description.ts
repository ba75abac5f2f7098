type Json = Record<string, unknown>;

/** What the detail pane says about an event in words, before its raw JSON. */
export interface EventDescription {
  title: string;
  known: boolean;
  facts: { label: string; value: string }[];
}

const TITLES: Record<string, string> = {
  message: 'Message',
  message_refused: 'Message refused',
  model_call: 'Model call',
  model_refused: 'The model declined',
  tool_call: 'Tool call',
  tool_result: 'Tool result',
  memory_update: 'Memory update',
  credit: 'Credits',
  skip: 'Turn skipped',
  warning: 'Warning',
  error: 'Error',
  tick_started: 'Tick started',
  tick_completed: 'Tick completed',
  turn_started: 'Turn started',
  turn_completed: 'Turn completed',
};

/** A title and the key facts of a known kind; an unknown kind gets its kind as title and no facts. */
export function describeEvent(kind: string, json: string): EventDescription {
  const title = TITLES[kind];
  if (!title) return { title: `Event of kind “${kind}”`, known: false, facts: [] };
  const event = parseObject(json);
  return { title, known: true, facts: factsOf(kind, event).filter((fact) => fact.value !== '') };
}

function factsOf(kind: string, event: Json): { label: string; value: string }[] {
  switch (kind) {
    case 'message': {
      const entry = record(event.entry);
      return [
        { label: 'From', value: text(entry.agent) ?? text(event.agent) ?? '' },
        { label: 'To', value: list(entry.recipients).join(', ') || 'everyone who reads this outbox' },
        { label: 'Message', value: payloadText(entry.payload) },
      ];
    }
    case 'message_refused':
      return [
        { label: 'Why', value: text(event.reason) ?? '' },
        { label: 'Refused recipients', value: list(event.refused).join(', ') },
      ];
    case 'model_call': {
      const usage = record(event.usage);
      const error = record(event.error);
      return [
        { label: 'Model', value: text(event.model) ?? '' },
        {
          label: 'Tokens in / out',
          value:
            typeof usage.inputTokens === 'number'
              ? `${usage.inputTokens} / ${String(usage.outputTokens ?? '?')}`
              : '',
        },
        {
          label: 'Of those in, from the cache / written to it',
          value:
            typeof usage.cachedInputTokens === 'number' || typeof usage.cacheWriteTokens === 'number'
              ? `${String(usage.cachedInputTokens ?? 0)} / ${String(usage.cacheWriteTokens ?? 0)}`
              : '',
        },
        { label: 'Cost', value: typeof event.cost === 'number' ? `${event.cost} credits` : '' },
        { label: 'Took', value: typeof event.latency_ms === 'number' ? `${Math.round(event.latency_ms)} ms` : '' },
        { label: 'Reply', value: text(record(event.response).text) ?? '' },
        { label: 'Failed', value: text(error.message) ?? '' },
      ];
    }
    case 'model_refused':
      return [
        { label: 'Model', value: text(event.model) ?? '' },
        { label: 'What it said', value: text(event.text) ?? '' },
      ];
    case 'tool_call':
      return [
        { label: 'Tool', value: text(event.tool) ?? '' },
        { label: 'Arguments', value: compact(event.args) },
      ];
    case 'tool_result': {
      const result = record(event.result);
      return [
        { label: 'Tool', value: text(event.tool) ?? '' },
        { label: 'Outcome', value: result.success === false ? 'failed' : 'succeeded' },
        { label: 'Output', value: text(result.output) ?? '' },
        { label: 'Error', value: text(result.error) ?? '' },
      ];
    }
    case 'memory_update':
      return [
        { label: 'Change', value: text(event.op) ?? 'update' },
        { label: 'Key', value: text(event.key) ?? '' },
      ];
    case 'credit':
      return [
        { label: 'Entry', value: text(event.entry) ?? '' },
        { label: 'Amount', value: event.amount === undefined ? '' : String(event.amount) },
        { label: 'Reason', value: text(event.reason) ?? '' },
      ];
    case 'skip':
    case 'warning':
    case 'error':
      return [
        { label: 'Code', value: text(event.code) ?? text(event.reason) ?? '' },
        { label: 'Message', value: text(event.message) ?? '' },
      ];
    case 'tick_started':
      return [{ label: 'Agents firing', value: event.agents === undefined ? '' : String(event.agents) }];
    case 'tick_completed':
      return [{ label: 'Turns', value: Array.isArray(event.turns) ? String(event.turns.length) : '' }];
    case 'turn_started':
      return [{ label: 'New messages', value: String(list(record(event.inbox).fresh).length) }];
    case 'turn_completed':
      return [
        { label: 'Status', value: text(event.status) ?? '' },
        { label: 'Credits spent', value: typeof event.spent === 'number' ? String(event.spent) : '' },
      ];
    default:
      return [];
  }
}

function payloadText(payload: unknown): string {
  if (typeof payload === 'string') return payload;
  return text(record(payload).text) ?? compact(payload);
}

function compact(value: unknown): string {
  if (value === undefined) return '';
  try {
    return JSON.stringify(value) ?? '';
  } catch {
    return '';
  }
}

function parseObject(json: string): Json {
  try {
    return record(JSON.parse(json));
  } catch {
    return {};
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
