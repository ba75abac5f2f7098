import { plainFailure } from '../../../../engine/api/failure-words';
import { failureOfError } from '../../../../engine/api/older-failure';
import { toolWords, type ToolTitles } from '../../../../engine/api/tool-words';
import { MISSED_CAUSE_WORDS, skipReasonWords } from '../../../../engine/api/schedule-schemas';
import { duration } from '../../words/plain-words';
import {
  knownEvent,
  memoryChangeShown,
  type KnownEventKind,
  type KnownTimelineEvent,
} from '../../../../engine/api/timeline-events';

/** What the detail pane says about an event in words, before its raw JSON. */
export interface EventDescription {
  title: string;
  known: boolean;
  facts: { label: string; value: string }[];
}

type Fact = { label: string; value: string };

const TITLES: Record<KnownEventKind, string> = {
  message: 'Message',
  message_refused: 'Message refused',
  model_call: 'Model call',
  model_refused: 'The model declined',
  tool_call: 'Tool call',
  tool_intent: 'About to run a tool that may change things',
  tool_result: 'Tool result',
  approval_requested: 'Asked for approval',
  approval_answered: 'Approval answered',
  turn_parked: 'Turn waits for you',
  turn_resumed: 'Turn went on after your answer',
  memory_update: 'Memory update',
  memory_snapshot: 'Memory found on disk',
  credit: 'Credits',
  notes: 'Notes',
  outbox_pruned: 'Old outbox files removed',
  skip: 'Turn skipped',
  budget_warning: 'Budget almost spent',
  budget_paused: 'Paused: over budget',
  budget_resumed: 'Resumed over its budget',
  ticks_missed: 'Ticks missed',
  run_ended: 'Run ended',
  warning: 'Warning',
  error: 'Error',
  tick_started: 'Tick started',
  tick_completed: 'Tick completed',
  turn_started: 'Turn started',
  turn_completed: 'Turn completed',
  rehearsal: 'Rehearsal (nothing was done)',
  lemming_log: 'LeMMing log line',
  activity: 'LeMMing activity',
};

/**
 * A title and the key facts of a kind the engine writes. Any other event gets its kind as title and
 * no facts, and so does a known kind whose fields are not the engine's (its title kept): its raw
 * JSON says the rest.
 */
export function describeEvent(kind: string, json: string, titles?: ToolTitles): EventDescription {
  const event = knownEvent(parseJson(json));
  if (event)
    return {
      title: TITLES[event.kind],
      known: true,
      facts: factsOf(event, titles).filter((fact) => fact.value !== ''),
    };
  const title = Object.hasOwn(TITLES, kind) ? TITLES[kind as KnownEventKind] : `Event of kind “${kind}”`;
  return { title, known: false, facts: [] };
}

function factsOf(event: KnownTimelineEvent, titles: ToolTitles | undefined): Fact[] {
  switch (event.kind) {
    case 'message':
      return [
        { label: 'From', value: event.entry.agent ?? event.agent ?? '' },
        { label: 'To', value: (event.entry.recipients ?? []).join(', ') || 'everyone who reads this outbox' },
        { label: 'Message', value: payloadText(event.entry.payload) },
      ];
    case 'message_refused':
      return [
        { label: 'Why', value: event.reason },
        { label: 'Refused recipients', value: event.refused.join(', ') },
      ];
    case 'model_call':
      return [
        { label: 'Model', value: event.model },
        {
          label: 'Tokens in / out',
          value: event.usage ? `${event.usage.inputTokens} / ${event.usage.outputTokens}` : '',
        },
        {
          label: 'Of those in, from the cache / written to it',
          value:
            event.usage?.cachedInputTokens !== undefined || event.usage?.cacheWriteTokens !== undefined
              ? `${event.usage.cachedInputTokens ?? 0} / ${event.usage.cacheWriteTokens ?? 0}`
              : '',
        },
        { label: 'Cost', value: event.cost !== undefined ? `${event.cost} credits` : '' },
        { label: 'Took', value: duration(event.latency_ms) },
        { label: 'Reply', value: event.response?.text ?? '' },
        { label: 'Failed', value: event.error?.message ?? '' },
        { label: 'Read past in the answer', value: (event.warnings ?? []).join('\n') },
      ];
    case 'model_refused':
      return [
        { label: 'Model', value: event.model },
        { label: 'What it said', value: event.text },
      ];
    case 'tool_call':
      return [
        { label: 'Tool', value: toolWords(event.tool, titles) },
        { label: 'Arguments', value: compact(event.args) },
      ];
    case 'tool_intent':
      return [
        { label: 'Tool', value: toolWords(event.tool, titles) },
        { label: 'Arguments', value: compact(event.args) },
        {
          label: 'Why this is recorded',
          value:
            'It was written just before the call ran, so that if the app stops during the call, the turn run again knows the call was started.',
        },
      ];
    case 'approval_requested':
      return [
        { label: 'Tool', value: toolWords(event.tool, titles) },
        { label: 'Arguments', value: compact(event.args) },
        { label: 'Why it asks', value: event.reason },
        ...(event.changes?.length ? [{ label: 'What changed', value: event.changes.join(' ') }] : []),
        ...(event.form
          ? [
              { label: 'Form of', value: event.form.server },
              { label: 'It asks', value: event.form.message },
              {
                label: 'Fields',
                value: event.form.fields.map((field) => field.title ?? field.name).join(', '),
              },
            ]
          : []),
        { label: 'Denied if unanswered by', value: event.expires_at },
      ];
    case 'turn_parked':
      return [
        { label: 'Tool', value: toolWords(event.tool, titles) },
        { label: 'Message', value: event.message },
      ];
    case 'turn_resumed':
      return [
        { label: 'Answer', value: event.answer.replace('_', ' ') },
        { label: 'Answered by', value: event.source.replace('_', ' ') },
        { label: 'Parked at tick', value: String(event.parked_at_tick) },
      ];
    case 'approval_answered':
      return [
        { label: 'Tool', value: toolWords(event.tool, titles) },
        { label: 'Answer', value: event.answer.replace('_', ' ') },
        { label: 'Answered by', value: event.source.replace('_', ' ') },
        { label: 'Reason', value: event.reason ?? '' },
        ...(event.values ? [{ label: 'Form sent', value: compact(event.values) }] : []),
        ...(event.dismissed ? [{ label: 'Form', value: 'closed unanswered' }] : []),
      ];
    case 'tool_result':
      return [
        { label: 'Tool', value: toolWords(event.tool, titles) },
        {
          label: 'Outcome',
          value:
            event.started_before_stop !== undefined
              ? STARTED_BEFORE_STOP_WORDS
              : event.result.success
                ? 'succeeded'
                : 'failed',
        },
        { label: 'Output', value: event.result.output ?? '' },
        { label: 'Error', value: event.result.error ?? '' },
      ];
    case 'memory_update': {
      const change = memoryChangeShown(event);
      return [
        { label: 'Change', value: event.op },
        { label: 'Key', value: event.key },
        ...(change.shows === 'nothing'
          ? []
          : [{ label: MEMORY_CHANGE_LABELS[change.shows], value: change.values.map(compact).join('\n') }]),
      ];
    }
    case 'memory_snapshot':
      return [{ label: 'File', value: event.file ?? '' }];
    case 'credit':
      return [
        { label: 'Entry', value: event.entry },
        { label: 'Amount', value: String(event.amount) },
        { label: 'Reason', value: event.reason },
      ];
    case 'notes':
      return [{ label: 'Notes', value: event.text }];
    case 'outbox_pruned':
      return [
        { label: 'Files', value: event.files.join(', ') },
        { label: 'Why', value: event.reason },
      ];
    case 'error':
      return [
        { label: 'What happened', value: plainFailure(event.reason, failureOfError(event)) },
        { label: 'Code', value: event.reason },
        { label: 'Message', value: event.message },
      ];
    case 'skip':
      return [
        { label: 'Why', value: skipReasonWords(event.reason) },
        { label: 'Message', value: event.message },
      ];
    case 'budget_warning':
    case 'budget_paused':
    case 'budget_resumed':
      return [
        { label: 'What happened', value: event.message },
        { label: 'Whose budget', value: event.scope === 'org' ? 'the org’s' : (event.agent ?? '') },
        { label: 'Limit', value: String(event.limit) },
        ...('spent' in event ? [{ label: 'Spent', value: String(event.spent) }] : []),
        { label: 'Day or month', value: event.period },
      ];
    case 'ticks_missed':
      return [
        { label: 'Ticks', value: `${event.from}–${event.to}` },
        { label: 'Why', value: MISSED_CAUSE_WORDS[event.cause] },
        { label: 'Catching up', value: event.catching_up.join(', ') },
      ];
    case 'run_ended':
      return [{ label: 'Why', value: event.message }];
    case 'warning':
      return [
        { label: 'Code', value: event.code },
        { label: 'Message', value: event.message ?? event.text ?? '' },
      ];
    case 'tick_started':
      return [{ label: 'Agents firing', value: String(event.agents) }];
    case 'tick_completed':
      return [
        { label: 'Turns', value: String(event.turns.length) },
        ...(event.server_wait && event.server_wait.turns > 0
          ? [
              {
                label: 'Waited for the model',
                value: `${event.server_wait.turns} turns, the longest ${duration(event.server_wait.longest_ms)}`,
              },
            ]
          : []),
        ...(event.server_limits ?? []).map((server) => ({
          label: 'Calls at once',
          value: `${server.server}: up to ${server.limit}${server.learned ? ', learned from its answers' : ''}`,
        })),
      ];
    case 'turn_started':
      return [{ label: 'New messages', value: String(event.inbox.fresh.length) }];
    case 'turn_completed':
      return [
        { label: 'Status', value: event.status },
        { label: 'Credits spent', value: String(event.spent) },
      ];
    case 'rehearsal':
      return [
        { label: 'Outcome', value: event.status },
        { label: 'Rehearsed as tick', value: String(event.as_tick) },
        ...event.would_do.map((action) => ({
          label: 'Would do',
          value: `${action.title}${action.target ? ` ${action.target}` : ''}`,
        })),
        { label: 'Cost', value: event.cost_words },
      ];
    case 'lemming_log':
    case 'activity':
      return [
        { label: 'File', value: event.file ?? '' },
        { label: 'Line', value: String(event.line) },
      ];
    default:
      return unreachable(event);
  }
}

/** A call not run again because a turn cut off by the app stopping had started it. */
export const STARTED_BEFORE_STOP_WORDS =
  'Started before the app stopped; whether it finished is not known. It was not run again.';

function unreachable(event: never): Fact[] {
  void event;
  return [];
}

function payloadText(payload: unknown): string {
  if (typeof payload === 'string') return payload;
  if (
    typeof payload === 'object' &&
    payload !== null &&
    'text' in payload &&
    typeof payload.text === 'string'
  )
    return payload.text;
  return compact(payload);
}

const MEMORY_CHANGE_LABELS = { appended: 'Added', merged: 'Merged in', value: 'New value' } as const;

function compact(value: unknown): string {
  if (value === undefined) return '';
  try {
    return JSON.stringify(value) ?? '';
  } catch {
    return '';
  }
}

function parseJson(json: string): unknown {
  try {
    return JSON.parse(json) as unknown;
  } catch {
    return undefined;
  }
}
