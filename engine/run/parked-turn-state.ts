import type { ApprovalRequest } from '../api/approval-schemas';
import type { KnownTimelineEvent } from '../api/timeline-events';
import type { LedgerPosting } from '../credits/ledger';
import type { StagedMemoryChange } from '../memory/turn-memory';
import type { Inbox } from '../messages/message-store';
import type { ChatMessage, MessageMedia, ToolCall } from '../models/types';
import type { AnsweredApproval } from '../tools/agent-tools';
import type { ToolResult } from '../tools/tool-result';
import type { FileWrite } from './pending-files';
import type { ParsedOutboxEntry } from './response-parser';

/** A call of the parked round that ran before the turn parked, with what the model is given of it. */
export interface RoundResult {
  call: ToolCall;
  result: ToolResult;
  given: MessageMedia[];
  text: string;
}

/**
 * Everything a turn holds when it parks on an approval request, so that it goes on where it stopped:
 * the conversation so far, the round's calls (the one asking is `calls[done.length]`), what the turn
 * has staged (events, charges, files, memory, messages) and the inbox it was shown. Plain data: it is
 * kept in the timeline (redacted) and read back after a restart.
 */
export interface ParkedTurnState {
  round: number;
  messages: ChatMessage[];
  calls: ToolCall[];
  /** Whether the model asked for the calls natively (their results go back as tool messages). */
  nativeCalls: boolean;
  done: RoundResult[];
  parsedEntries: ParsedOutboxEntry[];
  notes: string[];
  contractMemoryUpdates: { key: string; op: 'set' | 'append' | 'merge' | 'delete'; value: unknown }[];
  memory: StagedMemoryChange[];
  recorder: {
    events: KnownTimelineEvent[];
    postings: LedgerPosting[];
    files: FileWrite[];
    spentMicro: number;
    toolCount: number;
    inboxShown: boolean;
  };
  inbox: Inbox;
  request: ApprovalRequest;
}

/** A parked turn given its answer: what `runAgentTurn` goes on from. */
export interface ResumedTurn {
  state: ParkedTurnState;
  answered: AnsweredApproval;
}
