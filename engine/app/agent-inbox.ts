import { fail, ok, type IpcResult } from '../api/result';
import { HumanImportance } from '../api/credit-schemas';
import type { AgentInbox, InboxMessage } from '../api/status-schemas';
import { MessageStore, type StoredMessage } from '../messages/message-store';
import { discoverAgents } from '../org/discover';
import { readableSenders } from '../messages/readable-senders';
import { messageText } from '../run/prompt';
import type { OrgReader } from './org-reader';

function inboxMessage(message: StoredMessage): InboxMessage {
  const entry = JSON.parse(message.json) as { payload?: { importance?: unknown } };
  const importance = HumanImportance.safeParse(entry.payload?.importance);
  return {
    seq: message.seq,
    tick: message.tick,
    sender: message.sender,
    kind: message.kind,
    importance: importance.success ? importance.data : null,
    text: messageText(message),
    file: message.file,
    entry,
  };
}

/**
 * What an agent will be shown on its next turn, from what the timeline holds (outbox files written
 * since the last run are taken in by the next one).
 */
export async function agentInbox(reader: OrgReader, name: string): Promise<IpcResult<AgentInbox>> {
  const agent = (await discoverAgents(reader.orgPath)).find(
    (candidate) => candidate.valid && candidate.resume.name === name,
  );
  if (!agent?.valid)
    return fail('agent_not_found', `There is no agent named "${name}" in ${reader.orgPath}.`);
  if (!reader.timeline) return ok({ agent: name, fresh: [], earlier: [], moreWaiting: false });
  const store = new MessageStore(reader.timeline.db);
  const inbox = store.inbox(name, readableSenders(agent.resume), store.latestSeq());
  return ok({
    agent: name,
    fresh: inbox.fresh.map(inboxMessage),
    earlier: inbox.earlier.map(inboxMessage),
    moreWaiting: inbox.moreWaiting,
  });
}
