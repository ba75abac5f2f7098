import type { KnownEventKind, KnownTimelineEvent } from '../../api/timeline-events';

type Sample<K extends KnownEventKind> = Extract<KnownTimelineEvent, { kind: K }>;

const at = { time: '2026-01-01T00:00:00.000Z', run: 'run-1', tick: 4, agent: 'manager', turn: 'turn-1' };

/** One event of every kind the engine writes, shaped as the engine writes it (the type checks that). */
export const EVENT_SAMPLES: { [K in KnownEventKind]: Sample<K> } = {
  tick_started: { ...at, agent: null, turn: null, kind: 'tick_started', agents: 3, invalid_agents: [] },
  tick_completed: {
    ...at,
    agent: null,
    turn: null,
    kind: 'tick_completed',
    turns: [
      { agent: 'manager', status: 'completed' },
      { agent: 'writer', status: 'failed' },
    ],
  },
  turn_started: {
    ...at,
    kind: 'turn_started',
    inbox: { fresh: [{ seq: 7, id: 'm-1', from: 'human' }], earlier: 2, more_waiting: false },
  },
  turn_completed: { ...at, kind: 'turn_completed', status: 'completed', spent: 0.5, duration_ms: 12 },
  model_call: {
    ...at,
    kind: 'model_call',
    round: 1,
    model: 'demo',
    provider: 'scripted',
    prompt: [{ role: 'user', content: 'What next?' }],
    tools: ['memory_write'],
    response: { text: 'Done.', toolCalls: [], finishReason: 'stop', raw: null },
    usage: { inputTokens: 120, outputTokens: 30 },
    latency_ms: 80,
    cost: 0.01,
  },
  tool_call: {
    ...at,
    kind: 'tool_call',
    round: 1,
    call_id: 'c1',
    tool: 'memory_write',
    args: { key: 'plan' },
  },
  tool_result: {
    ...at,
    kind: 'tool_result',
    round: 1,
    call_id: 'c1',
    tool: 'file_read',
    result: { success: false, output: null, error: 'no such file' },
    duration_ms: 3,
  },
  message: {
    ...at,
    kind: 'message',
    file: 'agents/manager/outbox/00000004_m-2.json',
    entry: {
      id: 'm-2',
      tick: 4,
      agent: 'manager',
      kind: 'request',
      payload: { text: 'Find three facts.' },
      recipients: ['researcher'],
    },
  },
  model_refused: { ...at, kind: 'model_refused', round: 1, model: 'gpt', text: 'I cannot help with that.' },
  message_refused: {
    ...at,
    kind: 'message_refused',
    reason: 'send_outboxes',
    refused: ['ghost'],
    allowed: ['writer'],
    entry: { kind: 'message', payload: 'hi' },
  },
  memory_update: { ...at, kind: 'memory_update', key: 'plan', op: 'write', value: 'step one' },
  memory_snapshot: {
    ...at,
    kind: 'memory_snapshot',
    source: 'disk',
    file: 'agents/manager/memory/plan.json',
    record: { value: 'step one' },
  },
  credit: { ...at, kind: 'credit', entry: 'top_up', amount: 10, reason: 'top-up' },
  outbox_pruned: {
    ...at,
    agent: null,
    turn: null,
    kind: 'outbox_pruned',
    files: ['agents/manager/outbox/00000001_m-0.json'],
    reason:
      'older than max_outbox_age_ticks in lemming/config/org_config.json; the timeline keeps each message',
  },
  notes: { ...at, kind: 'notes', text: 'Asked the researcher.' },
  skip: { ...at, kind: 'skip', reason: 'no_credits', message: 'manager has no credits left.' },
  error: { ...at, kind: 'error', reason: 'llm_call_failed', message: 'HTTP 401: bad key' },
  warning: { ...at, kind: 'warning', code: 'charge_refused', message: 'not enough credits' },
  lemming_log: {
    ...at,
    kind: 'lemming_log',
    source: 'disk',
    file: 'agents/manager/logs/structured.jsonl',
    line: 1,
    record: { event: 'agent_completed', tick: 4 },
  },
  activity: {
    ...at,
    kind: 'activity',
    source: 'disk',
    file: 'agents/manager/logs/activity.log',
    line: 1,
    text: '[Tick 4] Asked the researcher.',
    notes: 'Asked the researcher.',
  },
};
