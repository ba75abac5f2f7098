import {
  Background,
  Controls,
  MarkerType,
  MiniMap,
  Panel,
  ReactFlow,
  useNodesState,
  type NodeChange,
  type OnConnectEnd,
  type OnNodeDrag,
  type ReactFlowInstance,
} from '@xyflow/react';
import '@xyflow/react/dist/style.css';
import './graph.css';
import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import type { OrgGraph, Position } from '../../../../engine/api';
import { AgentNodeCard, type AgentFlowNode } from './AgentNodeCard';
import { DepartmentBox, type DepartmentFlowNode } from './DepartmentBox';
import {
  edgeKey,
  groupBoxes,
  layoutAgents,
  placeBelow,
  type AgentGroup,
  type GraphLayout,
} from '../../shared/graph/elk-layout';
import { bottlenecks, drawnEdges, neighbourhood, starvedBecause, trafficCount } from './graph-model';
import { RoutedEdge, type RoutedFlowEdge } from './RoutedEdge';
import { OrgTimerRing } from './OrgTimerRing';

const nodeTypes = { agent: AgentNodeCard, department: DepartmentBox };
const NO_GROUPS: readonly AgentGroup[] = [];
const edgeTypes = { routed: RoutedEdge };
/** Room at the top for the timer ring, so no card starts under it. */
const FIT = {
  padding: { top: '170px', right: '24px', bottom: '24px', left: '24px' } as const,
  maxZoom: 1.2,
};
/** Below this many agents the whole org fits on screen and the overview would only cover cards. */
const MINIMAP_FROM = 9;
/** The dotted background repaints the whole pane on every pan frame; large orgs pan on a plain one. */
const PLAIN_BACKGROUND_FROM = 20;

const READ_COLOUR = 'var(--graph-read, #3f6fd8)';
const SEND_COLOUR = 'var(--graph-send, #c25a12)';

export function edgeLabel(edge: OrgGraph['edges'][number]): string {
  return edge.kind === 'read'
    ? `${edge.to} reads ${edge.from}'s outbox${edge.viaWildcard ? ' (reads every outbox)' : ''}`
    : `${edge.from} may send to ${edge.to}`;
}

interface Props {
  graph: OrgGraph;
  /** The org's departments: each is a box around its agents. */
  groups?: readonly AgentGroup[];
  /** Changes when the user asks for a fresh layout. */
  tidyRequest: number;
  selected: string | null;
  /** What readiness checks say is wrong with an agent, for its card; null when nothing. */
  problemOf?(agent: string): ReactNode;
  onSelect(name: string | null): void;
  onOpen(name: string): void;
  onRemove(name: string): void;
  /** The user dragged from `source` to `reader`: let `reader` read `source`'s outbox. */
  onGrantRead(reader: string, source: string): void;
  onSavePositions(positions: Record<string, Position>): void;
}

function samePlace(a: Position | undefined, b: Position | undefined): boolean {
  return a !== undefined && b !== undefined && Math.abs(a.x - b.x) < 0.5 && Math.abs(a.y - b.y) < 0.5;
}

/**
 * The org as a graph, laid out in layers along the message flow with ELK. Saved positions win; an
 * edge between two cards where ELK put them follows ELK's route (which never crosses a card), and one
 * touching a card the user moved goes card to card. Wildcards are badges on the cards, not N arrows.
 */
export function OrgGraphCanvas(props: Props) {
  const { graph, tidyRequest, selected, problemOf } = props;
  const groups = props.groups ?? NO_GROUPS;
  const [nodes, setNodes, onNodesChange] = useNodesState<AgentFlowNode>([]);
  const [layout, setLayout] = useState<GraphLayout | null>(null);
  const [hovered, setHovered] = useState<string | null>(null);
  /** While the view pans or zooms, cards passing under the pointer are not "hovered". */
  const moving = useRef(false);
  const placed = useRef(new Map<string, Position>());
  const tidiedFor = useRef(0);
  const groupsKey = JSON.stringify(groups);
  const groupedFor = useRef(groupsKey);
  const flow = useRef<ReactFlowInstance<AgentFlowNode | DepartmentFlowNode, RoutedFlowEdge> | null>(null);
  const handlers = useRef(props);
  useEffect(() => {
    handlers.current = props;
  });

  const lines = useMemo(() => drawnEdges(graph), [graph]);
  const shapeKey = JSON.stringify([graph.nodes.map((node) => node.name), lines.map(edgeKey), groups]);
  const shape = useRef({ names: graph.nodes.map((node) => node.name), lines, groups });
  const savedPositions = useRef(graph.nodes);
  // Declared before the layout effect, so that effect reads this render's org.
  useEffect(() => {
    shape.current = { names: graph.nodes.map((node) => node.name), lines, groups };
    savedPositions.current = graph.nodes;
  });

  useEffect(() => {
    let cancelled = false;
    // A department made or changed is laid out anew, so its agents end up together in its box.
    const regrouped = groupsKey !== groupedFor.current;
    groupedFor.current = groupsKey;
    const tidy = tidyRequest !== tidiedFor.current || regrouped;
    tidiedFor.current = tidyRequest;
    void (async () => {
      const laidOut = await layoutAgents(shape.current.names, shape.current.lines, shape.current.groups);
      if (cancelled) return;
      const next = new Map<string, Position>();
      for (const node of savedPositions.current) {
        const saved = tidy ? undefined : (placed.current.get(node.name) ?? node.position ?? undefined);
        const position = saved ?? laidOut.positions[node.name];
        if (position) next.set(node.name, position);
      }
      const unplaced = shape.current.names.filter((name) => !next.has(name));
      for (const [name, position] of Object.entries(placeBelow(unplaced, [...next.values()])))
        next.set(name, position);
      const fresh: Record<string, Position> = {};
      for (const [name, position] of next)
        if (!samePlace(placed.current.get(name), position)) fresh[name] = position;
      placed.current = next;
      setLayout(laidOut);
      setNodes((current) => {
        const byId = new Map(current.map((node) => [node.id, node]));
        return shape.current.names.map((name) => ({
          ...(byId.get(name) ?? { id: name, type: 'agent' as const, data: undefined as never }),
          position: next.get(name)!,
        })) as AgentFlowNode[];
      });
      handlers.current.onSavePositions(fresh);
      setTimeout(() => void flow.current?.fitView(FIT), 50);
    })();
    return () => {
      cancelled = true;
    };
    // The layout follows the org's shape (agents and lines), not every state change.
  }, [shapeKey, groupsKey, tidyRequest, setNodes]);

  // Opening an agent's card narrows the graph; when the chosen agent then lies outside what is shown
  // (behind the card), the view moves to it, keeping the zoom the user chose.
  const pane = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (selected === null) return;
    const timer = setTimeout(() => {
      const instance = flow.current;
      const node = instance?.getInternalNode(selected);
      const card = pane.current?.querySelector(`[data-agent-node="${CSS.escape(selected)}"]`);
      const room = pane.current?.getBoundingClientRect();
      const box = card?.getBoundingClientRect();
      if (!instance || !node || !room || !box) return;
      const inView =
        box.left >= room.left && box.right <= room.right && box.top >= room.top && box.bottom <= room.bottom;
      if (inView) return;
      const { x, y } = node.internals.positionAbsolute;
      void instance.setCenter(x + (node.measured.width ?? 0) / 2, y + (node.measured.height ?? 0) / 2, {
        zoom: instance.getZoom(),
      });
    }, 50);
    return () => clearTimeout(timer);
  }, [selected]);

  const halos = useMemo(() => bottlenecks(graph), [graph]);
  const focus = hovered ?? selected;
  const lit = useMemo(() => (focus ? neighbourhood(graph, focus) : null), [graph, focus]);

  const departmentNodes = useMemo<DepartmentFlowNode[]>(() => {
    const where = new Map(nodes.map((node) => [node.id, node.position]));
    return groupBoxes(groups, where).map((box) => ({
      id: `department:${box.name}`,
      type: 'department',
      position: { x: box.x, y: box.y },
      data: { name: box.name, width: box.width, height: box.height },
      // Given, not measured: a box is drawn from its agents' places, and React Flow shows a node once it has a size.
      width: box.width,
      height: box.height,
      draggable: false,
      selectable: false,
      focusable: false,
      ariaLabel: `Department ${box.name}`,
    }));
  }, [groups, nodes]);

  const shownNodes = useMemo<(AgentFlowNode | DepartmentFlowNode)[]>(() => {
    const byName = new Map(graph.nodes.map((node) => [node.name, node]));
    const agents: AgentFlowNode[] = nodes
      .filter((node) => byName.has(node.id))
      .map((node) => {
        const agent = byName.get(node.id)!;
        return {
          ...node,
          type: 'agent',
          selected: node.id === selected,
          ariaLabel: `${agent.name}${agent.title ? `, ${agent.title}` : ''}`,
          data: {
            agent,
            starved: starvedBecause(graph, agent.name),
            holdsUp: halos.get(agent.name) ?? [],
            emphasis: lit ? (lit.has(agent.name) ? 'lit' : 'dim') : null,
            problem: problemOf?.(agent.name) ?? null,
            onOpen: (name: string) => handlers.current.onOpen(name),
            onRemove: (name: string) => handlers.current.onRemove(name),
          },
        };
      });
    return [...departmentNodes, ...agents];
  }, [nodes, graph, selected, halos, lit, problemOf, departmentNodes]);

  const edges = useMemo<RoutedFlowEdge[]>(() => {
    const where = new Map(nodes.map((node) => [node.id, node.position]));
    return lines.map((edge) => {
      const key = edgeKey(edge);
      const colour = edge.kind === 'read' ? READ_COLOUR : SEND_COLOUR;
      const laidOut =
        layout !== null &&
        samePlace(where.get(edge.from), layout.positions[edge.from]) &&
        samePlace(where.get(edge.to), layout.positions[edge.to]);
      const touchesFocus = focus !== null && (edge.from === focus || edge.to === focus);
      const emphasis = focus === null ? '' : touchesFocus ? ' edge-lit' : ' edge-dim';
      return {
        id: key,
        source: edge.from,
        target: edge.to,
        type: 'routed',
        className: `edge-${edge.kind}${emphasis}`,
        ariaLabel: edgeLabel(edge),
        markerEnd: { type: MarkerType.ArrowClosed, color: colour, width: 16, height: 16 },
        style: { stroke: colour },
        focusable: false,
        zIndex: touchesFocus ? 1 : 0,
        data: {
          route: laidOut ? (layout.routes[key] ?? null) : null,
          count: trafficCount(graph, edge.from, edge.to),
          windowTicks: graph.traffic.windowTicks,
          label: edgeLabel(edge),
        },
      };
    });
  }, [lines, nodes, layout, focus, graph]);

  const onNodeDragStop: OnNodeDrag<AgentFlowNode | DepartmentFlowNode> = (_event, _node, moved) => {
    const positions: Record<string, Position> = {};
    for (const node of moved) {
      positions[node.id] = { x: Math.round(node.position.x), y: Math.round(node.position.y) };
      placed.current.set(node.id, positions[node.id]!);
    }
    handlers.current.onSavePositions(positions);
  };

  const onConnectEnd: OnConnectEnd = (event, connection) => {
    const source = connection.fromNode?.id;
    let reader = connection.toNode?.id;
    if (!reader) {
      const point = 'changedTouches' in event ? event.changedTouches[0] : event;
      const under = point ? document.elementFromPoint(point.clientX, point.clientY) : null;
      reader = under?.closest<HTMLElement>('[data-agent-node]')?.dataset.agentNode;
    }
    if (source && reader && source !== reader) handlers.current.onGrantRead(reader, source);
  };

  return (
    <div className="org-graph" data-testid="org-graph" ref={pane}>
      <ReactFlow<AgentFlowNode | DepartmentFlowNode, RoutedFlowEdge>
        nodes={shownNodes}
        edges={edges}
        nodeTypes={nodeTypes}
        edgeTypes={edgeTypes}
        onNodesChange={(changes) =>
          onNodesChange(
            changes.filter(
              (change) => !('id' in change) || !change.id.startsWith('department:'),
            ) as NodeChange<AgentFlowNode>[],
          )
        }
        onNodeDragStop={onNodeDragStop}
        onNodeClick={(_event, node) => {
          if (node.type === 'agent') handlers.current.onSelect(node.id);
        }}
        onPaneClick={() => handlers.current.onSelect(null)}
        onNodeMouseEnter={(_event, node) => {
          if (!moving.current && node.type === 'agent') setHovered(node.id);
        }}
        onNodeMouseLeave={() => setHovered(null)}
        onMoveStart={() => {
          moving.current = true;
        }}
        onMoveEnd={() => {
          moving.current = false;
        }}
        onConnectEnd={onConnectEnd}
        connectionRadius={40}
        edgesFocusable={false}
        onInit={(instance) => {
          flow.current = instance;
        }}
        fitView
        fitViewOptions={FIT}
        minZoom={0.1}
        onlyRenderVisibleElements={graph.nodes.length > 60}
        proOptions={{ hideAttribution: true }}
      >
        {graph.nodes.length < PLAIN_BACKGROUND_FROM && <Background />}
        <Controls showInteractive={false} fitViewOptions={FIT} aria-label="Zoom" />
        {graph.nodes.length >= MINIMAP_FROM && (
          <MiniMap pannable zoomable ariaLabel="Overview of the org" className="org-minimap" />
        )}
        <Panel position="top-left">
          <OrgTimerRing graph={graph} />
        </Panel>
      </ReactFlow>
    </div>
  );
}
