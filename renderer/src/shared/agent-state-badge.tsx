import type { AgentState } from '../../../engine/api';

/** How an agent looks on screen: its state, or the run's (paused) or its readers' (starved). */
export type NodeLook = AgentState | 'paused' | 'starved';

/** Each state in words, with an icon and a colour class: never colour alone. */
const STATE_LOOK: Record<NodeLook, { label: string; icon: string }> = {
  idle: { label: 'Idle', icon: '○' },
  running: { label: 'Running now', icon: '▶' },
  out_of_credits: { label: 'Out of credits', icon: '⊘' },
  failing: { label: 'Failing', icon: '⚠' },
  invalid: { label: 'Invalid resume', icon: '✗' },
  paused: { label: 'Paused', icon: '❚❚' },
  starved: { label: 'Starved', icon: '◌' },
};

export function AgentStateBadge({ state, reason }: { state: NodeLook; reason?: string }) {
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
