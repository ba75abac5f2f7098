import { Handle, Position as HandleSide, useStore, type Node, type NodeProps } from '@xyflow/react';
import type { ReactNode } from 'react';
import type { GraphNode } from '../../../../engine/api';
import { LiveAnswerTail } from '../../shared/live/LiveAnswer';
import { AgentStateBadge } from '../../components/AgentStateBadge';

export interface AgentNodeData extends Record<string, unknown> {
  agent: GraphNode;
  /** Why it may have nothing to read (nothing reached it for a while); null when it has. */
  starved: string | null;
  /** Readers it holds up in the next tick (the dependency-bottleneck halo); empty when none. */
  holdsUp: string[];
  /** Lit (hovered, selected or next to one) or dimmed; null when nothing is hovered or selected. */
  emphasis: 'lit' | 'dim' | null;
  /** What readiness checks found wrong with the agent, shown on the card; null when nothing. */
  problem: ReactNode;
  onOpen(name: string): void;
  onRemove(name: string): void;
}
export type AgentFlowNode = Node<AgentNodeData, 'agent'>;

/** The reason's own size, and the least it may look on screen once the graph is zoomed out to fit. */
const REASON_FONT_PX = 12;
const READABLE_PX = 12;
/** The card's badge already says "Failing": its few lines go to why (the whole sentence is its title). */
const FAILED_TURN = /^Its last turn \(tick \d+\) failed[.;]\s*/;

/** What the card says under its badge about why: for the states that keep it from working. */
function reasonOf(state: GraphNode['state']): string | null {
  if (state.kind === 'failing') return state.words.replace(FAILED_TURN, '');
  if (state.kind === 'will_not_run') return state.reasons.map((reason) => reason.short).join('; ');
  if (state.kind === 'invalid_resume' || state.kind === 'needs_you') return state.words;
  return null;
}

export function AgentNodeCard({ data, selected }: NodeProps<AgentFlowNode>) {
  const { agent, starved, holdsUp, emphasis, problem } = data;
  const { state } = agent;
  const reason = reasonOf(state);
  // Why an agent fails must stay readable however far the graph is zoomed out, as a map's labels do.
  const zoom = useStore((store) => store.transform[2]);
  const classes = [
    'agent-node',
    `agent-node-${state.kind}`,
    selected ? 'agent-node-selected' : '',
    holdsUp.length > 0 ? 'agent-node-bottleneck' : '',
    emphasis === 'dim' ? 'agent-node-dim' : '',
    reason !== null && zoom < READABLE_PX / REASON_FONT_PX - 0.01 ? 'agent-node-reason-first' : '',
  ];
  return (
    <div className={classes.filter(Boolean).join(' ')} data-agent-node={agent.name} data-look={state.kind}>
      <Handle type="target" position={HandleSide.Left} isConnectable={false} className="agent-port-in" />
      <div className="agent-node-heading">
        <button
          type="button"
          className="agent-node-name nodrag"
          aria-label={`Open agent ${agent.name}`}
          title={`Open the page of ${agent.name}`}
          onClick={(event) => {
            event.stopPropagation();
            data.onOpen(agent.name);
          }}
        >
          {agent.name}
        </button>
        <button
          type="button"
          className="agent-node-remove nodrag"
          aria-label={`Remove agent ${agent.name}`}
          title={`Remove ${agent.name}`}
          onClick={(event) => {
            event.stopPropagation();
            data.onRemove(agent.name);
          }}
        >
          <span aria-hidden="true">×</span>
        </button>
      </div>
      {agent.title && (
        <div className="agent-node-title" title={agent.title}>
          {agent.title}
        </div>
      )}
      <div className="agent-node-status">
        <AgentStateBadge state={state} />
        {agent.balance !== null && <span className="agent-node-balance">{agent.balance} credits</span>}
      </div>
      {reason !== null && (
        <div
          className="agent-node-reason"
          title={state.words}
          style={{ fontSize: `${Math.max(REASON_FONT_PX, READABLE_PX / zoom)}px` }}
        >
          {reason}
        </div>
      )}
      <div className="agent-node-badges">
        {agent.readsAll && <span className="agent-node-badge">Reads every outbox</span>}
        {agent.sendsAnywhere && <span className="agent-node-badge">May send to anyone</span>}
        {starved !== null && (
          <span className="agent-node-badge agent-node-badge-starved" title={starved}>
            Nothing to read lately
          </span>
        )}
        {holdsUp.length > 0 && (
          <span
            className="agent-node-badge agent-node-badge-bottleneck"
            title={`${holdsUp.join(', ')} fire${holdsUp.length === 1 ? 's' : ''} next tick before this agent has written anything`}
          >
            Holds up {holdsUp.join(', ')}
          </span>
        )}
      </div>
      <div className="agent-node-problem" data-slot="problem">
        {problem}
      </div>
      <LiveAnswerTail agent={agent.name} />
      <Handle
        type="source"
        position={HandleSide.Right}
        className="agent-port-out"
        title={`Drag to another agent: it will read ${agent.name}'s outbox`}
      />
    </div>
  );
}
