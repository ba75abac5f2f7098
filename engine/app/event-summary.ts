import { plainFailure } from '../api/failure-words';
import { failureOfError } from '../api/older-failure';
import { knownEvent, memoryChangeShown, type KnownTimelineEvent } from '../api/timeline-events';
import { toolWords } from '../api/tool-words';
import { BUILTIN_TOOL_TITLES } from '../tools/tool-catalog';

/** A tool as the person reads it (its id is in the event's detail, under Advanced). */
const named = (tool: string) => toolWords(tool, BUILTIN_TOOL_TITLES);

const APPROVAL_WORDS = {
  approve_once: 'approved once',
  approve_always: 'approved from now on',
  deny: 'denied',
} as const;

/** The longest summary a timeline row carries; the detail pane shows the whole event. */
export const SUMMARY_LIMIT = 240;

/** Events bigger than this are not parsed for their summary (their JSON's start stands in). */
const PARSE_LIMIT = 256 * 1024;

/**
 * One line describing an event for the timeline list, from its stored JSON. Known kinds get a phrase
 * made of their key fields; other events show their own text fields, else the start of their JSON.
 * Never throws, whatever the JSON holds.
 */
export function summarizeEvent(kind: string, json: string): string {
  const value = json.length <= PARSE_LIMIT ? parseJson(json) : undefined;
  const known = knownEvent(value);
  return oneLine((known ? describeKnown(known) : describeOther(value)) || json);
}

function describeKnown(event: KnownTimelineEvent): string | null {
  switch (event.kind) {
    case 'message': {
      const recipients = event.entry.recipients ?? [];
      const body = payloadText(event.entry.payload);
      return body
        ? `${event.entry.kind ?? 'message'}${recipients.length ? ` to ${recipients.join(', ')}` : ''}: ${body}`
        : null;
    }
    case 'message_refused':
      return `message refused (${event.reason}): ${event.refused.join(', ')}`;
    case 'model_refused':
      return `${event.model} declined: ${event.text}`;
    case 'model_call': {
      if (event.error)
        return `${event.model}: ${plainFailure('llm_call_failed', failureOfError({ reason: 'llm_call_failed', ...event.error }))}`;
      const tokens = event.usage ? ` (${event.usage.inputTokens} in, ${event.usage.outputTokens} out)` : '';
      const reply = event.response?.text;
      return `${event.model}${tokens}${reply ? `: ${reply}` : ''}`;
    }
    case 'tool_call':
      return `${named(event.tool)}${withArgs(event.args)}`;
    case 'tool_intent':
      return `about to use ${named(event.tool)}${withArgs(event.args)}`;
    case 'tool_result':
      if (event.started_before_stop !== undefined)
        return `${named(event.tool)} not run again: it was started before the app stopped, and whether it finished is not known`;
      return `${named(event.tool)} → ${event.result.success ? (event.result.output ?? 'ok') : `failed: ${event.result.error ?? ''}`}`;
    case 'approval_requested':
      if (event.form)
        return `${event.form.server} asks the person to fill in a form while ${named(event.tool)} runs: “${event.form.message}”`;
      return `asks to use ${named(event.tool)}${withArgs(event.args)}: ${event.reason}${event.changes?.length ? ` What changed: ${event.changes.join(' ')}` : ''}`;
    case 'turn_parked':
      return event.message;
    case 'turn_resumed':
      return `the turn parked at tick ${event.parked_at_tick} goes on: ${APPROVAL_WORDS[event.answer]} (${event.source})`;
    case 'approval_answered':
      if (event.values !== undefined || event.dismissed)
        return `the form of ${named(event.tool)} was ${event.dismissed ? 'closed unanswered' : event.answer === 'deny' ? 'declined' : 'sent'} (${event.source})`;
      return `${named(event.tool)} ${APPROVAL_WORDS[event.answer]} (${event.source})${event.reason ? `: ${event.reason}` : ''}`;
    case 'memory_update': {
      const change = memoryChangeShown(event);
      const values = change.values.map(compact).join(', ');
      return `${event.by === 'human' ? 'you: ' : ''}memory ${event.op} ${event.key}${change.shows === 'nothing' ? '' : `: ${MEMORY_CHANGE_WORDS[change.shows]} ${values}`}`;
    }
    case 'memory_snapshot':
      return `memory read from ${event.file ?? 'disk'}`;
    case 'credit':
      return `${event.entry} ${event.amount} credits${event.reason ? `: ${event.reason}` : ''}`;
    case 'skip':
      return event.message;
    case 'budget_warning':
    case 'budget_paused':
    case 'budget_resumed':
      return event.message;
    case 'ticks_missed':
      return event.message;
    case 'run_ended':
      return `the run ended: ${event.message}`;
    case 'error':
      return plainFailure(event.reason, failureOfError(event));
    case 'warning':
      return event.message ?? event.text ?? event.code;
    case 'outbox_pruned':
      return `${event.files.length} outbox files removed: ${event.reason}`;
    case 'notes':
      return event.text;
    case 'tick_started':
      return `tick ${event.tick ?? ''} started with ${event.agents} agents`;
    case 'tick_completed':
      return `tick ${event.tick ?? ''} completed: ${event.turns.length} turns`;
    case 'turn_started':
      return `turn started with ${event.inbox.fresh.length} new messages`;
    case 'turn_completed':
      return `turn ${event.status}, spent ${event.spent} credits`;
    case 'rehearsal':
      return `rehearsed a turn (${event.status}): ${
        event.would_do.length === 0
          ? 'it would have done nothing'
          : `would ${event.would_do.map((action) => `${lowerFirst(action.title)}${action.target ? ` ${action.target}` : ''}`).join('; ')}`
      }; nothing was done`;
    case 'lemming_log':
      return text(event.record.event) ?? compact(event.record);
    case 'activity':
      return event.notes ?? event.text;
    default:
      return unreachable(event);
  }
}

/** An event of another kind: its own words, if it has some. */
function describeOther(value: unknown): string | null {
  const event = record(value);
  return text(event.text) ?? text(event.message) ?? text(event.summary) ?? text(event.notes);
}

function lowerFirst(words: string): string {
  return words.charAt(0).toLowerCase() + words.slice(1);
}

function unreachable(event: never): null {
  void event;
  return null;
}

function payloadText(payload: unknown): string {
  if (typeof payload === 'string') return payload;
  return text(record(payload).text) ?? compact(payload);
}

const MEMORY_CHANGE_WORDS = { appended: 'added', merged: 'merged in', value: 'now' } as const;

/** " with {…}" after a tool's name; nothing when it was given nothing. */
function withArgs(args: unknown): string {
  const empty =
    args === undefined || (typeof args === 'object' && args !== null && Object.keys(args).length === 0);
  return empty ? '' : ` with ${compact(args)}`;
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

function parseJson(json: string): unknown {
  try {
    return JSON.parse(json) as unknown;
  } catch {
    return undefined;
  }
}

function record(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}

function text(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value : null;
}
