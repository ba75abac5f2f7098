import {
  Background,
  Controls,
  MarkerType,
  ReactFlow,
  useNodesState,
  type Edge,
  type OnNodeDrag,
  type ReactFlowInstance,
} from '@xyflow/react';
import '@xyflow/react/dist/style.css';
import { useEffect, useMemo, useRef } from 'react';
import type { OrgGraph, Position } from '../../../../engine/api';
import { AgentNodeCard, type AgentFlowNode } from './AgentNodeCard';
import { layoutAgents, placeBelow } from './elk-layout';

const nodeTypes = { agent: AgentNodeCard };
const FIT = { padding: 0.2 };

const READ_COLOUR = '#3f6fd8';
const SEND_COLOUR = '#c25a12';

export function edgeLabel(edge: OrgGraph['edges'][number]): string {
  return edge.kind === 'read'
    ? `${edge.to} reads ${edge.from}'s outbox${edge.viaWildcard ? ' (reads every outbox)' : ''}`
    : `${edge.from} may send to ${edge.to}`;
}

interface Props {
  graph: OrgGraph;
  /** Changes when the user asks for a fresh layout. */
  tidyRequest: number;
  onOpen(name: string): void;
  onRemove(name: string): void;
  onSavePositions(positions: Record<string, Position>): void;
}

/**
 * The org as a graph. Saved positions win. ELK lays out an org never placed (and all of it on "Tidy up");
 * an agent added to a placed org goes below the others. New places are saved, so the graph looks the
 * same next time.
 */
export function OrgGraphCanvas({ graph, tidyRequest, onOpen, onRemove, onSavePositions }: Props) {
  const [nodes, setNodes, onNodesChange] = useNodesState<AgentFlowNode>([]);
  const placed = useRef(new Map<string, Position>());
  const tidiedFor = useRef(0);
  const flow = useRef<ReactFlowInstance<AgentFlowNode, Edge> | null>(null);
  const handlers = useRef({ onOpen, onRemove, onSavePositions });
  useEffect(() => {
    handlers.current = { onOpen, onRemove, onSavePositions };
  });

  useEffect(() => {
    let cancelled = false;
    const tidy = tidyRequest !== tidiedFor.current;
    tidiedFor.current = tidyRequest;
    void (async () => {
      const kept = new Map<string, Position>();
      if (!tidy)
        for (const node of graph.nodes) {
          const position = placed.current.get(node.name) ?? node.position;
          if (position) kept.set(node.name, position);
        }
      const fresh =
        kept.size === 0
          ? await layoutAgents(
              graph.nodes.map((node) => node.name),
              graph.edges,
            )
          : placeBelow(
              graph.nodes.filter((node) => !kept.has(node.name)).map((node) => node.name),
              [...kept.values()],
            );
      if (cancelled) return;
      const next = new Map(kept);
      for (const [name, position] of Object.entries(fresh)) next.set(name, position);
      placed.current = next;
      setNodes(
        graph.nodes.map((agent) => ({
          id: agent.name,
          type: 'agent',
          position: next.get(agent.name)!,
          ariaLabel: `${agent.name}${agent.title ? `, ${agent.title}` : ''}`,
          data: {
            agent,
            onOpen: (name: string) => handlers.current.onOpen(name),
            onRemove: (name: string) => handlers.current.onRemove(name),
          },
        })),
      );
      handlers.current.onSavePositions(fresh);
      // Newly placed agents may fall outside the view; show the whole org once they are measured.
      if (Object.keys(fresh).length > 0) setTimeout(() => void flow.current?.fitView(FIT), 50);
    })();
    return () => {
      cancelled = true;
    };
  }, [graph, tidyRequest, setNodes]);

  const edges = useMemo<Edge[]>(
    () =>
      graph.edges.map((edge) => {
        const colour = edge.kind === 'read' ? READ_COLOUR : SEND_COLOUR;
        return {
          id: `${edge.kind}:${edge.from}->${edge.to}`,
          source: edge.from,
          target: edge.to,
          type: edge.kind === 'read' ? 'default' : 'smoothstep',
          className: `edge-${edge.kind}${edge.viaWildcard ? ' edge-wildcard' : ''}`,
          ariaLabel: edgeLabel(edge),
          markerEnd: { type: MarkerType.ArrowClosed, color: colour, width: 18, height: 18 },
          style: { stroke: colour },
          focusable: false,
        };
      }),
    [graph.edges],
  );

  const onNodeDragStop: OnNodeDrag<AgentFlowNode> = (_event, _node, moved) => {
    const positions: Record<string, Position> = {};
    for (const node of moved) {
      positions[node.id] = { x: Math.round(node.position.x), y: Math.round(node.position.y) };
      placed.current.set(node.id, positions[node.id]!);
    }
    handlers.current.onSavePositions(positions);
  };

  return (
    <div className="org-graph" data-testid="org-graph">
      <ReactFlow
        nodes={nodes}
        edges={edges}
        nodeTypes={nodeTypes}
        onNodesChange={onNodesChange}
        onNodeDragStop={onNodeDragStop}
        onNodeClick={(_event, node) => handlers.current.onOpen(node.id)}
        nodesConnectable={false}
        edgesFocusable={false}
        onInit={(instance) => {
          flow.current = instance;
        }}
        fitView
        fitViewOptions={FIT}
        minZoom={0.2}
        proOptions={{ hideAttribution: true }}
      >
        <Background />
        <Controls showInteractive={false} />
      </ReactFlow>
    </div>
  );
}
