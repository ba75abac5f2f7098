import type { ApprovalAnswer, ApprovalRequest } from '../api/approval-schemas';
import type { KnownEventFields } from '../api/timeline-events';
import type { ToolDefinition } from '../models/types';
import type { Resume } from '../org/resume-schema';
import type { TurnMemory } from '../memory/turn-memory';
import type { ToolVerdict } from './policy-resolver';
import type { ToolOutcome } from './tool-result';
import type { ModelAsker } from './mcp/mcp-sampling';

/** Spending from the turn's credits: a tool call that costs more than is left is refused before it runs. */
export interface TurnBudget {
  availableMicro(): number;
  charge(micros: number, reason: string): void;
}

/** What the tools of one turn may know about it. */
export interface ToolTurnContext {
  orgPath: string;
  agentDir: string;
  resume: Resume;
  tick: number;
  memory: TurnMemory;
  /** The org's agents as the engine knows them this tick. */
  agents: readonly { name: string; title: string }[];
  budget: TurnBudget;
  signal?: AbortSignal;
  /** Adds an event to the turn's timeline (approval requests and answers). */
  record?: (fields: KnownEventFields) => void;
  /** The agent's model, lent to the MCP server whose tool it calls, for that server's questions (sampling). */
  askModel?: ModelAsker;
}

/** The tools one agent has in one turn: what the model is told, and how a call is carried out. */
export interface AgentTools {
  definitions: ToolDefinition[];
  /** The policy resolver's verdict on a tool the agent could have, with its fix (for skills), or undefined. */
  verdict(name: string): ToolVerdict | undefined;
  /**
   * Never throws: an unknown, forbidden or failing call is a failed result. `beforeChange` is called
   * right before a call that may change things runs (after any approval), and not for one that only reads;
   * when it throws, the call does not run. A call whose approval parks its turn is not run: its outcome
   * carries the request (`parked`). `answered` is the answer a parked call was given: it is not asked again.
   */
  call(
    name: string,
    args: unknown,
    beforeChange?: () => void,
    answered?: AnsweredApproval,
  ): Promise<ToolOutcome & { parked?: ApprovalRequest }>;
}

/** A parked call's request and the answer it was given later (by the person, or its timeout). */
export interface AnsweredApproval {
  request: ApprovalRequest;
  answer: ApprovalAnswer;
}

export type AgentToolsFactory = (context: ToolTurnContext) => AgentTools;
