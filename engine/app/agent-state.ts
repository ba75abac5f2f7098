import type { AgentState } from '../api/org-schemas';

export interface AgentStateInput {
  /** Why the resume cannot be used; null when it can. */
  invalidBecause: string | null;
  running: boolean;
  /** Credits left; null until the first turn seeds the balance. */
  balance: number | null;
  lastTurn: { tick: number; status: string } | null;
  /** The error the last turn recorded, when it failed. */
  lastError?: string | null;
}

/** What the org graph shows for an agent, and why, in words. The first state that applies wins. */
export function agentStateOf(input: AgentStateInput): { state: AgentState; reason: string } {
  if (input.invalidBecause !== null)
    return { state: 'invalid', reason: `Its resume cannot be used: ${input.invalidBecause}` };
  if (input.running) return { state: 'running', reason: 'Taking its turn in the tick in progress.' };
  if (input.balance !== null && input.balance <= 0)
    return { state: 'out_of_credits', reason: 'No credits left: it skips its turns until topped up.' };
  if (input.lastTurn?.status === 'failed')
    return {
      state: 'failing',
      reason: input.lastError
        ? `Its last turn (tick ${input.lastTurn.tick}) failed: ${input.lastError}`
        : `Its last turn (tick ${input.lastTurn.tick}) failed; the timeline says why.`,
    };
  return {
    state: 'idle',
    reason: input.lastTurn ? `Last ran at tick ${input.lastTurn.tick}.` : 'Has not run yet.',
  };
}
