import type { AgentState, AgentStateKind } from '../../../engine/api';
import './agent-state.css';

/** Each state in words, with an icon and a class of its own: never colour alone. */
const STATE_LOOK: Record<AgentStateKind, { label: string; icon: string }> = {
  ready: { label: 'Ready', icon: '✓' },
  will_not_run: { label: 'Will not run', icon: '⊘' },
  running: { label: 'Running now', icon: '▶' },
  needs_you: { label: 'Needs you', icon: '⚑' },
  failing: { label: 'Failing', icon: '⚠' },
  paused: { label: 'Paused', icon: '❚❚' },
  switched_off: { label: 'Switched off', icon: '○' },
  out_of_credits: { label: 'Out of credits', icon: '⊖' },
  over_budget: { label: 'Paused: over budget', icon: '❚❚' },
  invalid_resume: { label: 'Invalid resume', icon: '✗' },
};

export const stateLabel = (state: AgentState): string => STATE_LOOK[state.kind].label;

/**
 * An agent's state as the engine decided it, the same wherever agents are shown. "Needs you" is a button
 * that brings what waits for the person (its approval card) into view.
 */
export function AgentStateBadge({ state }: { state: AgentState }) {
  const look = STATE_LOOK[state.kind];
  const className = `agent-state agent-state-${state.kind}`;
  const content = (
    <>
      <span aria-hidden="true" className="agent-state-icon">
        {look.icon}
      </span>{' '}
      {look.label}
    </>
  );
  if (state.kind === 'needs_you')
    return (
      <button
        type="button"
        className={`${className} nodrag`}
        title={state.words}
        data-agent-state={state.kind}
        onClick={(event) => {
          event.stopPropagation();
          showWaiting(state.requestId);
        }}
      >
        {content}
      </button>
    );
  return (
    <span className={className} title={state.words} data-agent-state={state.kind}>
      {content}
    </span>
  );
}

/** Scrolls the waiting request's card into view and puts the focus on it. */
export function showWaiting(requestId: string): void {
  const card = document.querySelector<HTMLElement>(`[data-request-id="${CSS.escape(requestId)}"]`);
  if (!card) return;
  card.scrollIntoView({ block: 'nearest' });
  card.focus();
}
