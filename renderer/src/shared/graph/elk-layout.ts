import ELK, { type ElkExtendedEdge, type ElkNode } from 'elkjs/lib/elk.bundled.js';
import type { GraphEdge, Position } from '../../../../engine/api';

export const NODE_WIDTH = 220;
export const NODE_HEIGHT = 112;

const elk = new ELK();

/** An edge as ELK routed it: the points of its orthogonal path, start and end on the cards' sides. */
export type EdgeRoute = Position[];

export interface GraphLayout {
  positions: Record<string, Position>;
  /** Keyed by `edgeKey`. */
  routes: Record<string, EdgeRoute>;
}

export function edgeKey(edge: Pick<GraphEdge, 'kind' | 'from' | 'to'>): string {
  return `${edge.kind}:${edge.from}->${edge.to}`;
}

/** A department's agents, kept together in one box by the layout. */
export interface AgentGroup {
  name: string;
  members: readonly string[];
}

/** Room inside a department's box around its cards; the top leaves room for its name. */
export const GROUP_PADDING = { top: 44, side: 20, bottom: 20 };
const GROUP_ID = (name: string) => `department:${name}`;

/**
 * Layers the agents left to right along the message flow (a sender left of its readers), with ports on
 * the cards' sides and orthogonal edges routed between the cards, never through one. The agents of a
 * department are laid out together inside its box (an agent in several goes with the first).
 */
export async function layoutAgents(
  names: string[],
  edges: GraphEdge[],
  groups: readonly AgentGroup[] = [],
): Promise<GraphLayout> {
  const known = new Set(names);
  const drawn = edges.filter((edge) => known.has(edge.from) && known.has(edge.to) && edge.from !== edge.to);
  const groupOf = new Map<string, string>();
  for (const group of groups)
    for (const member of group.members)
      if (known.has(member) && !groupOf.has(member)) groupOf.set(member, group.name);
  const card = (name: string): ElkNode => ({
    id: name,
    width: NODE_WIDTH,
    height: NODE_HEIGHT,
    layoutOptions: { 'elk.portConstraints': 'FIXED_SIDE' },
    ports: [
      { id: `${name}:out`, width: 1, height: 1, layoutOptions: { 'elk.port.side': 'EAST' } },
      { id: `${name}:in`, width: 1, height: 1, layoutOptions: { 'elk.port.side': 'WEST' } },
    ],
  });
  const boxes: ElkNode[] = groups
    .filter((group) => [...groupOf.values()].includes(group.name))
    .map((group) => ({
      id: GROUP_ID(group.name),
      layoutOptions: {
        'elk.padding': `[top=${GROUP_PADDING.top},left=${GROUP_PADDING.side},bottom=${GROUP_PADDING.bottom},right=${GROUP_PADDING.side}]`,
      },
      children: names.filter((name) => groupOf.get(name) === group.name).map(card),
    }));
  const graph: ElkNode = {
    id: 'org',
    layoutOptions: {
      'elk.algorithm': 'layered',
      'elk.direction': 'RIGHT',
      'elk.edgeRouting': 'ORTHOGONAL',
      'elk.layered.spacing.nodeNodeBetweenLayers': '90',
      'elk.spacing.nodeNode': '48',
      'elk.layered.spacing.edgeNodeBetweenLayers': '24',
      'elk.spacing.edgeNode': '20',
      'elk.spacing.edgeEdge': '12',
      'elk.layered.nodePlacement.strategy': 'NETWORK_SIMPLEX',
      'elk.layered.crossingMinimization.strategy': 'LAYER_SWEEP',
      'elk.layered.considerModelOrder.strategy': 'NODES_AND_EDGES',
      'elk.layered.wrapping.strategy': names.length > 12 ? 'MULTI_EDGE' : 'OFF',
      'elk.aspectRatio': '1.6',
      'elk.separateConnectedComponents': 'true',
      'elk.spacing.componentComponent': '60',
      'elk.portConstraints': 'FIXED_SIDE',
      ...(boxes.length > 0 ? { 'elk.hierarchyHandling': 'INCLUDE_CHILDREN' } : {}),
    },
    children: [...names.filter((name) => !groupOf.has(name)).map(card), ...boxes],
    edges: drawn.map((edge): ElkExtendedEdge => ({
      id: edgeKey(edge),
      sources: [`${edge.from}:out`],
      targets: [`${edge.to}:in`],
    })),
  };
  const laidOut = await elk.layout(graph);
  const positions: Record<string, Position> = {};
  // A box's cards, and the edges inside it, are placed relative to the box.
  const offsets = new Map<string, Position>([['org', { x: 0, y: 0 }]]);
  for (const child of laidOut.children ?? []) {
    const at = { x: child.x ?? 0, y: child.y ?? 0 };
    if (!child.children) positions[child.id] = at;
    offsets.set(child.id, at);
    for (const inner of child.children ?? [])
      positions[inner.id] = { x: at.x + (inner.x ?? 0), y: at.y + (inner.y ?? 0) };
  }
  const routes: Record<string, EdgeRoute> = {};
  for (const edge of laidOut.edges ?? []) {
    const section = edge.sections?.[0];
    if (!section) continue;
    const offset = offsets.get((edge as { container?: string }).container ?? 'org') ?? { x: 0, y: 0 };
    routes[edge.id] = [section.startPoint, ...(section.bendPoints ?? []), section.endPoint].map(
      ({ x, y }) => ({ x: x + offset.x, y: y + offset.y }),
    );
  }
  return { positions, routes };
}

/** A department's box on the graph: around its agents' cards wherever they are now, with its name on top. */
export interface GroupBox {
  name: string;
  x: number;
  y: number;
  width: number;
  height: number;
}

export function groupBoxes(
  groups: readonly AgentGroup[],
  positions: ReadonlyMap<string, Position>,
): GroupBox[] {
  return groups.flatMap((group) => {
    const placed = group.members.flatMap((member) => positions.get(member) ?? []);
    if (placed.length === 0) return [];
    const left = Math.min(...placed.map((position) => position.x)) - GROUP_PADDING.side;
    const top = Math.min(...placed.map((position) => position.y)) - GROUP_PADDING.top;
    const right = Math.max(...placed.map((position) => position.x)) + NODE_WIDTH + GROUP_PADDING.side;
    const bottom = Math.max(...placed.map((position) => position.y)) + NODE_HEIGHT + GROUP_PADDING.bottom;
    return [{ name: group.name, x: left, y: top, width: right - left, height: bottom - top }];
  });
}

/** Places new agents in a row under the ones already placed, so none lands on top of another. */
export function placeBelow(names: string[], placed: Position[]): Record<string, Position> {
  const left = Math.min(...placed.map((position) => position.x));
  const top = Math.max(...placed.map((position) => position.y)) + NODE_HEIGHT + 60;
  const positions: Record<string, Position> = {};
  names.forEach((name, index) => {
    positions[name] = { x: left + index * (NODE_WIDTH + 40), y: top };
  });
  return positions;
}

/** An SVG path through the points, with small rounded corners. */
export function routePath(points: readonly Position[], radius = 6): string {
  if (points.length === 0) return '';
  let path = `M ${points[0]!.x} ${points[0]!.y}`;
  for (let index = 1; index < points.length; index += 1) {
    const point = points[index]!;
    const previous = points[index - 1]!;
    const next = points[index + 1];
    if (!next) {
      path += ` L ${point.x} ${point.y}`;
      continue;
    }
    const r = Math.min(radius, distance(previous, point) / 2, distance(point, next) / 2);
    const before = towards(point, previous, r);
    const after = towards(point, next, r);
    path += ` L ${before.x} ${before.y} Q ${point.x} ${point.y} ${after.x} ${after.y}`;
  }
  return path;
}

/** Where a label sits: the middle of the route's longest segment. */
export function routeMidpoint(points: readonly Position[]): Position {
  let best = { x: points[0]?.x ?? 0, y: points[0]?.y ?? 0 };
  let longest = -1;
  for (let index = 1; index < points.length; index += 1) {
    const a = points[index - 1]!;
    const b = points[index]!;
    const length = distance(a, b);
    if (length > longest) {
      longest = length;
      best = { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 };
    }
  }
  return best;
}

function distance(a: Position, b: Position): number {
  return Math.hypot(b.x - a.x, b.y - a.y);
}

function towards(from: Position, to: Position, length: number): Position {
  const total = distance(from, to) || 1;
  return { x: from.x + ((to.x - from.x) * length) / total, y: from.y + ((to.y - from.y) * length) / total };
}
