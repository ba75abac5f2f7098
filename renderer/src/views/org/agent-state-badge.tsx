import type { AgentState } from '../../../../engine/api';

/** Each state in words, with an icon and a colour class: never colour alone. */
const STATE_LOOK: Record<AgentState, { label: string; icon: string }> = {
  idle: { label: 'Idle', icon: '○' },
  running: { label: 'Running', icon: '▶' },
  out_of_credits: { label: 'Out of credits', icon: '⊘' },
  failing: { label: 'Failing', icon: '⚠' },
  invalid: { label: 'Invalid resume', icon: '✗' },
};

/** States that keep an agent from working: their reason is shown in words, not only on hover. */
export const PROBLEM_STATES: ReadonlySet<AgentState> = new Set(['failing', 'invalid', 'out_of_credits']);

export function AgentStateBadge({ state, reason }: { state: AgentState; reason?: string }) {
  const look = STATE_LOOK[state];
  return (
    <span className={`agent-state agent-state-${state}`} title={reason}>
      <span aria-hidden="true" className="agent-state-icon">
        {look.icon}
      </span>{' '}
      {look.label}
    </span>
  );
}
