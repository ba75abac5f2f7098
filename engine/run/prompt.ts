import type { StoredMessage } from '../messages/message-store';
import type { PromptPart } from '../api/inspector-schemas';
import type { ChatMessage, ToolDefinition } from '../models/types';

export interface PromptMemoryEntry {
  key: string;
  value: unknown;
}

export interface PromptInput {
  agent: { name: string; title: string; instructions: string };
  tick: number;
  memory: { entries: PromptMemoryEntry[]; truncated: boolean };
  inbox: { fresh: StoredMessage[]; earlier: StoredMessage[]; moreWaiting: boolean };
  tools: ToolDefinition[];
  /** Native tool calling: tool definitions go to the provider, not into the text. */
  nativeTools: boolean;
  /** LeMMing's `cli-` models get only the role, memory and the newest readable message's text, read before or not. */
  cliMode: boolean;
  /** The agent's skills as the model should read them (skillsPrompt); empty when it has none. */
  skills?: string;
}

/** LeMMing caps the inbox text at 8000 characters; so do we, per section. */
export const INBOX_TEXT_LIMIT = 8000;
const MEMORY_LINE_LIMIT = 1000;

const PREAMBLE = `You are an agent in a multi-agent organization run by LeMMing. You cannot talk to other agents directly:
you write entries to your own outbox, and you read the outboxes you have permission to read.

Answer with ONE JSON object and nothing else. Every field is optional; if you have nothing to do, answer with only "notes".
{
  "outbox_entries": [{"kind": "message", "payload": {"text": "..."}, "tags": [], "to": ["agent_name"]}],
  "tool_calls": [{"tool": "tool_name", "args": {}}],
  "memory_updates": [{"key": "name", "value": "...", "op": "set | append | merge | delete"}],
  "notes": "a short note for your activity log"
}`;

const NATIVE_TOOLS_NOTE = `Call tools with the tool-calling interface; you will see their results before you answer.
When you are done, answer with the JSON object (outbox_entries, memory_updates, notes); leave tool_calls out.`;

const ROLE_HEADING = 'YOUR ROLE: ';
const MEMORY_HEADING = 'YOUR MEMORY:';
const INBOX_HEADING = 'INCOMING MESSAGES:';
const NO_INBOX = 'No incoming messages.';

/**
 * What a message of a recorded prompt is (the turn inspector's labels), told from the headings
 * buildPrompt writes; a later round's assistant and tool messages are named by their role.
 */
export function promptPart(message: { role: string; content: string }): PromptPart {
  const { role, content } = message;
  if (role === 'assistant' || role === 'tool') return role;
  if (role === 'system') {
    if (content.startsWith(ROLE_HEADING)) return 'role';
    return content.startsWith(PREAMBLE.slice(0, 40)) ? 'system' : 'skills';
  }
  if (content.startsWith(MEMORY_HEADING)) return 'memory';
  if (content.startsWith(INBOX_HEADING) || content === NO_INBOX) return 'inbox';
  return 'user';
}

/** The chat messages of one model call at the start of a turn (docs/ARCHITECTURE.md, “The engine” step 2). */
export function buildPrompt(input: PromptInput): ChatMessage[] {
  const role: ChatMessage = {
    role: 'system',
    content: `${ROLE_HEADING}${input.agent.title}\n\n${input.agent.instructions}`,
  };
  const memory = memoryMessage(input.memory);

  if (input.cliMode) {
    // Fresh messages are oldest first, earlier ones newest first; LeMMing hands the program the newest of all.
    const newest = input.inbox.fresh.at(-1) ?? input.inbox.earlier[0];
    return [role, ...(memory ? [memory] : []), { role: 'user', content: newest ? messageText(newest) : '' }];
  }

  return [
    { role: 'system', content: input.nativeTools ? `${PREAMBLE}\n\n${NATIVE_TOOLS_NOTE}` : PREAMBLE },
    role,
    ...(input.skills ? [{ role: 'system' as const, content: input.skills }] : []),
    ...(memory ? [memory] : []),
    { role: 'user', content: inboxText(input.inbox) },
    { role: 'user', content: situationText(input) },
  ];
}

function memoryMessage(memory: PromptInput['memory']): ChatMessage | null {
  if (memory.entries.length === 0) return null;
  const lines = memory.entries.map(
    ({ key, value }) => `${key}: ${truncate(JSON.stringify(value) ?? 'null', MEMORY_LINE_LIMIT)}`,
  );
  if (memory.truncated) lines.push('... (truncated)');
  return { role: 'user', content: `${MEMORY_HEADING}\n${lines.join('\n')}` };
}

function inboxText(inbox: PromptInput['inbox']): string {
  if (inbox.fresh.length === 0 && inbox.earlier.length === 0) return NO_INBOX;
  const sections: string[] = [];
  if (inbox.fresh.length > 0) {
    const more = inbox.moreWaiting ? ' (more are waiting; you will see them next turn)' : '';
    sections.push(
      `NEW MESSAGES since your last turn, oldest first${more}:\n${capped(inbox.fresh.map(messageLine))}`,
    );
  } else {
    sections.push('No new messages since your last turn.');
  }
  if (inbox.earlier.length > 0) {
    sections.push(
      `EARLIER MESSAGES you have already seen, newest first (for context):\n${capped(inbox.earlier.map(messageLine))}`,
    );
  }
  return `${INBOX_HEADING}\n${sections.join('\n\n')}`;
}

function situationText(input: PromptInput): string {
  const lines = [`Current tick: ${input.tick}`, `You are: ${input.agent.name}`];
  if (input.tools.length === 0) {
    lines.push('Available tools: none');
  } else if (input.nativeTools) {
    lines.push(`Available tools: ${input.tools.map((tool) => tool.name).join(', ')}`);
  } else {
    lines.push('Available tools (call them in "tool_calls"; you will see their results):');
    for (const tool of input.tools)
      lines.push(`- ${tool.name}: ${tool.description}\n  args schema: ${JSON.stringify(tool.parameters)}`);
  }
  lines.push('Respond with the JSON object described above.');
  return lines.join('\n');
}

function messageLine(message: StoredMessage): string {
  const entry = parseEntry(message.json);
  const createdAt =
    typeof entry.created_at === 'string'
      ? entry.created_at
      : typeof entry.timestamp === 'string'
        ? entry.timestamp
        : '';
  const to =
    Array.isArray(entry.recipients) && entry.recipients.length > 0
      ? ` to ${entry.recipients.join(', ')}`
      : '';
  return `[tick ${message.tick ?? '?'}${createdAt ? ` ${createdAt}` : ''}] From ${message.sender}${to} (${String(entry.kind ?? 'message')}): ${payloadText(entry.payload)}`;
}

/** The entry's `payload.text`, or its payload as JSON, as LeMMing shows it. */
export function messageText(message: StoredMessage): string {
  return payloadText(parseEntry(message.json).payload);
}

/** An outbox entry's payload as text: its `text`, or the payload as JSON. */
export function payloadText(payload: unknown): string {
  if (payload && typeof payload === 'object' && typeof (payload as { text?: unknown }).text === 'string') {
    return (payload as { text: string }).text;
  }
  return JSON.stringify(payload ?? {});
}

function parseEntry(json: string): Record<string, unknown> {
  try {
    const value = JSON.parse(json) as unknown;
    return value && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}

function capped(lines: string[]): string {
  return truncate(lines.join('\n'), INBOX_TEXT_LIMIT);
}

function truncate(text: string, limit: number): string {
  return text.length <= limit ? text : `${text.slice(0, limit)}... (truncated)`;
}
