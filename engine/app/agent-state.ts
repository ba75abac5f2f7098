import { plainFailure } from '../api/failure-words';
import type { AgentState } from '../api/org-schemas';
import type { RecordedError } from '../run/turn-status';

export interface AgentStateInput {
  /** Why the resume cannot be used; null when it can. */
  invalidBecause: string | null;
  running: boolean;
  /** Credits left; null until the first turn seeds the balance. */
  balance: number | null;
  lastTurn: { tick: number; status: string } | null;
  /** The error the last turn recorded, when it failed. */
  lastError?: RecordedError | null;
}

export interface DescribedState {
  state: AgentState;
  /** Why, in plain words. */
  reason: string;
  /** The engine's own words for a failed turn (its error kind and message), for "Advanced"; null otherwise. */
  technical: string | null;
}

/** What the org graph shows for an agent, and why, in words. The first state that applies wins. */
export function agentStateOf(input: AgentStateInput): DescribedState {
  const described = stateOf(input);
  const error = input.lastError;
  return {
    ...described,
    technical: described.state === 'failing' && error ? `${error.reason}: ${error.message}` : null,
  };
}

function stateOf(input: AgentStateInput): { state: AgentState; reason: string } {
  if (input.invalidBecause !== null)
    return { state: 'invalid', reason: `Its resume cannot be used: ${input.invalidBecause}` };
  if (input.running) return { state: 'running', reason: 'Taking its turn in the tick in progress.' };
  if (input.balance !== null && input.balance <= 0)
    return { state: 'out_of_credits', reason: 'No credits left: it skips its turns until topped up.' };
  if (input.lastTurn?.status === 'failed')
    return {
      state: 'failing',
      reason: input.lastError
        ? `Its last turn (tick ${input.lastTurn.tick}) failed. ${plainFailure(input.lastError.reason, input.lastError.message)}`
        : `Its last turn (tick ${input.lastTurn.tick}) failed; the timeline says why.`,
    };
  return {
    state: 'idle',
    reason: input.lastTurn ? `Last ran at tick ${input.lastTurn.tick}.` : 'Has not run yet.',
  };
}
