import type { AgentState, WillNotRunReason } from '../api/agent-state-schemas';
import { isModelSetupFailure } from '../api/failure';
import { plainFailure } from '../api/failure-words';
import { failureOfError } from '../api/older-failure';
import type { RecordedError } from '../run/turn-status';

/** Everything an agent's state is decided from, gathered by the use-case (engine/app/agent-facts.ts). */
export interface AgentFacts {
  /** Its resume cannot be used: where, and why; null when it can. */
  invalidResume: { file: string; line: number | null; message: string } | null;
  /** The person switched it off. */
  switchedOff: boolean;
  /** The oldest request of its turn waiting for the person; null when none waits. */
  waiting: { id: string; tool: string; form: boolean; askedAt: string } | null;
  /** It is taking its turn in the tick in progress. */
  running: boolean;
  /** The person paused the run. */
  runPaused: boolean;
  /** Why a budget pauses it, in words (engine/run/budget-standing.ts); null when none does. */
  overBudget: string | null;
  /** Credits left; null while it has none recorded and no cap. */
  balance: number | null;
  /** What keeps its next turn from running, found now: a model not set up, a key not set. */
  willNotRun: WillNotRunReason[];
  lastTurn: { tick: number; status: string } | null;
  /** The error its last turn recorded, when that turn failed. */
  lastError: RecordedError | null;
  /** What caused its last turn to fail is put right since (a key now set, a folder now writable). */
  lastFailureFixed: boolean;
}

/**
 * An agent's state, the one place it is decided. The first that applies wins: an unusable resume,
 * switched off by the person (unless a turn of it is still going), a request waiting for the person
 * (over running: its turn is held up by them), running, out of credits, over budget, will not run,
 * failing (until its cause is fixed or a turn succeeds), paused, ready.
 */
export function agentStateOf(facts: AgentFacts): AgentState {
  const { invalidResume, waiting, lastTurn } = facts;
  if (invalidResume)
    return {
      kind: 'invalid_resume',
      words: `Its resume cannot be used: ${invalidResume.message}`,
      file: invalidResume.file,
      line: invalidResume.line,
    };
  if (facts.switchedOff && !waiting && !facts.running)
    return { kind: 'switched_off', words: 'Switched off: it takes no turns until you switch it on.' };
  if (waiting)
    return {
      kind: 'needs_you',
      words: waiting.form
        ? `Its turn waits for you to fill in a form for ${waiting.tool}.`
        : `Its turn waits for you to allow or deny ${waiting.tool}.`,
      waitingFor: waiting.form ? 'form' : 'approval',
      requestId: waiting.id,
      tool: waiting.tool,
      since: waiting.askedAt,
    };
  if (facts.running) return { kind: 'running', words: 'Taking its turn in the tick in progress.' };
  if (facts.balance !== null && facts.balance <= 0)
    return { kind: 'out_of_credits', words: 'No credits left: it skips its turns until topped up.' };
  if (facts.overBudget) return { kind: 'over_budget', words: facts.overBudget };
  const failed = lastTurn?.status === 'failed' ? lastTurn.tick : null;
  const why =
    failed === null
      ? null
      : facts.lastError
        ? plainFailure(facts.lastError.reason, failureOfError(facts.lastError))
        : 'The timeline says why.';
  const technical = facts.lastError ? `${facts.lastError.reason}: ${facts.lastError.message}` : null;
  const lastTurnFailed = failed !== null && why !== null ? { tick: failed, why, technical } : null;
  if (facts.willNotRun.length > 0)
    return {
      kind: 'will_not_run',
      words: `It will not run: ${facts.willNotRun.map((reason) => reason.reason).join('; ')}.`,
      reasons: facts.willNotRun,
      lastTurnFailed,
    };
  if (failed !== null && why !== null && !facts.lastFailureFixed)
    return {
      kind: 'failing',
      words: `Its last turn (tick ${failed}) failed. ${why}`,
      sinceTick: failed,
      technical,
    };
  if (facts.runPaused)
    return {
      kind: 'paused',
      words: 'The run is paused: it takes its turn when the run continues.',
      by: 'person',
    };
  return {
    kind: 'ready',
    words:
      failed !== null
        ? `Ready: what made its last turn (tick ${failed}) fail is fixed.`
        : lastTurn
          ? `Ready. Last ran at tick ${lastTurn.tick}.`
          : 'Ready. It has not run yet.',
    lastTurnFailed,
  };
}

/** What a failure came from, so the engine can tell when it is fixed without waiting for another turn. */
export type FailureCause =
  { kind: 'model_setup' } | { kind: 'unwritable_folder'; folder: string } | { kind: 'other' };

/**
 * A model that is not set up (not in the list, no key, a key the org may not use) is fixed once the
 * engine finds the model set up; a file that could not be written, once its folder is writable. A
 * server's refusal or a timeout is fixed only by a turn that succeeds.
 */
export function failureCause(error: RecordedError | null): FailureCause {
  if (!error) return { kind: 'other' };
  if (error.reason === 'model_unavailable') return { kind: 'model_setup' };
  const failure = failureOfError(error);
  if (error.reason === 'llm_call_failed' && isModelSetupFailure(failure.kind)) return { kind: 'model_setup' };
  if (error.reason === 'file_write_failed' && failure.folder !== undefined)
    return { kind: 'unwritable_folder', folder: failure.folder };
  return { kind: 'other' };
}
