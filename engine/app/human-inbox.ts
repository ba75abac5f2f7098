import type { z } from 'zod';
import type { SentMessage } from '../api/credit-schemas';
import { HumanImportance } from '../api/credit-schemas';
import type {
  HumanInboxMessage,
  HumanInboxPage,
  HumanInboxQuery,
  MarkReadInput,
  ReplyInput,
} from '../api/inspector-schemas';
import { fail, ok, type IpcResult } from '../api/result';
import { HUMAN_OPERATOR as HUMAN } from '../api/human-operator';
import { HumanInbox, type HumanInboxRow, type HumanReplyRow } from '../messages/human-inbox';
import type { ReadableSenders } from '../messages/message-store';
import { discoverAgents } from '../org/discover';
import { readableSenders } from '../messages/readable-senders';
import { messageText, payloadText } from '../run/prompt';
import { sendMessage } from './org';
import type { OrgContext } from './org-context';

const DEFAULT_PAGE = 50;

/** The outboxes the human reads: the human's resume says, as for any agent; without one, every agent's. */
async function humanReads(orgPath: string): Promise<ReadableSenders> {
  const human = (await discoverAgents(orgPath)).find((agent) => agent.valid && agent.resume.name === HUMAN);
  return human?.valid ? readableSenders(human.resume) : { all: true, except: HUMAN };
}

function inboxOf(context: OrgContext): HumanInbox {
  const { timeline } = context.engine;
  const inbox = new HumanInbox(timeline.db, timeline.readonly);
  inbox.catchUp();
  return inbox;
}

/** The human's messages, newest first, with how many are unread. */
export async function humanInboxPage(
  context: OrgContext,
  query: z.output<typeof HumanInboxQuery>,
): Promise<IpcResult<HumanInboxPage>> {
  const readable = await humanReads(context.orgPath);
  const inbox = inboxOf(context);
  const limit = query.limit ?? DEFAULT_PAGE;
  const rows = inbox.page(readable, { ...(query.before ? { before: query.before } : {}), limit: limit + 1 });
  const more = rows.length > limit;
  if (more) rows.pop();
  const replies = new Map<number, HumanReplyRow[]>();
  for (const reply of inbox.replies(rows.map((row) => row.seq)))
    replies.set(reply.messageSeq, [...(replies.get(reply.messageSeq) ?? []), reply]);
  return ok({
    messages: rows.map((row) => inboxMessage(row, replies.get(row.seq) ?? [])),
    unread: inbox.unreadCount(readable),
    nextBefore: more ? rows.at(-1)!.seq : null,
  });
}

/** How many of the human's messages are unread, for the header. */
export async function humanUnread(context: OrgContext): Promise<IpcResult<{ unread: number }>> {
  const readable = await humanReads(context.orgPath);
  return ok({ unread: inboxOf(context).unreadCount(readable) });
}

export async function markHumanRead(
  context: OrgContext,
  input: z.output<typeof MarkReadInput>,
  now: Date = new Date(),
): Promise<IpcResult<{ marked: number; unread: number }>> {
  if (context.engine.timeline.readonly)
    return fail('refused', 'This org is open read-only, so messages cannot be marked as read.');
  const inbox = inboxOf(context);
  const marked = inbox.markRead(input.all ? 'all' : { seqs: input.seqs ?? [] }, now);
  return ok({ marked, unread: inbox.unreadCount(await humanReads(context.orgPath)) });
}

/** Answers one message: a message from the human to its sender (the send use-case), and marks it read. */
export async function replyToMessage(
  context: OrgContext,
  input: z.output<typeof ReplyInput>,
): Promise<IpcResult<z.output<typeof SentMessage>>> {
  const inbox = inboxOf(context);
  const [message] = inbox.page(await humanReads(context.orgPath), { before: input.seq + 1, limit: 1 });
  if (!message || message.seq !== input.seq)
    return fail('not_found', `Message ${input.seq} is not in the human's inbox.`);
  const sent = await sendMessage(context, {
    text: input.text,
    target: message.sender,
    ...(input.importance ? { importance: input.importance } : {}),
  });
  if (sent.ok) {
    inbox.recordReply(message.seq, sent.value.id);
    inbox.markRead({ seqs: [message.seq] }, new Date());
  }
  return sent;
}

function inboxMessage(row: HumanInboxRow, replies: HumanReplyRow[]): HumanInboxMessage {
  const entry = parseObject(row.json);
  const payload = isObject(entry.payload) ? entry.payload : {};
  const importance = HumanImportance.safeParse(payload.importance);
  return {
    seq: row.seq,
    from: row.sender,
    tick: row.tick,
    kind: row.kind ?? 'message',
    text: messageText(row),
    addressed: row.addressed,
    importance: importance.success ? importance.data : null,
    sentAt: typeof entry.created_at === 'string' ? entry.created_at : null,
    read: row.readAt !== null,
    replies: replies.map((reply) => {
      const sent = parseObject(reply.json);
      return {
        text: payloadText(sent.payload),
        tick: reply.tick,
        sentAt: typeof sent.created_at === 'string' ? sent.created_at : null,
      };
    }),
  };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function parseObject(json: string): Record<string, unknown> {
  try {
    const value = JSON.parse(json) as unknown;
    return isObject(value) ? value : {};
  } catch {
    return {};
  }
}
