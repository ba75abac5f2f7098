import { Handle, Position as HandleSide, type Node, type NodeProps } from '@xyflow/react';
import type { GraphNode } from '../../../../engine/api';
import { LiveAnswerTail } from '../live/LiveAnswer';
import { AgentStateBadge, PROBLEM_STATES } from './agent-state-badge';

export interface AgentNodeData extends Record<string, unknown> {
  agent: GraphNode;
  onOpen(name: string): void;
  onRemove(name: string): void;
}
export type AgentFlowNode = Node<AgentNodeData, 'agent'>;

export function AgentNodeCard({ data }: NodeProps<AgentFlowNode>) {
  const { agent } = data;
  return (
    <div className={`agent-node agent-node-${agent.state}`} data-agent-node={agent.name}>
      <Handle type="target" position={HandleSide.Top} isConnectable={false} />
      <div className="agent-node-heading">
        <button
          type="button"
          className="agent-node-name nodrag"
          aria-label={`Open agent ${agent.name}`}
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
      {agent.title && <div className="agent-node-title">{agent.title}</div>}
      <div className="agent-node-status">
        <AgentStateBadge state={agent.state} reason={agent.stateReason} />
        {agent.balance !== null && <span className="agent-node-balance">{agent.balance} credits</span>}
      </div>
      {PROBLEM_STATES.has(agent.state) && <div className="agent-node-problem">{agent.stateReason}</div>}
      <LiveAnswerTail agent={agent.name} />
      <Handle type="source" position={HandleSide.Bottom} isConnectable={false} />
    </div>
  );
}
