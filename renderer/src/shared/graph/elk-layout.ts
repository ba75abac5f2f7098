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

/**
 * Layers the agents left to right along the message flow (a sender left of its readers), with ports on
 * the cards' sides and orthogonal edges routed between the cards, never through one.
 */
export async function layoutAgents(names: string[], edges: GraphEdge[]): Promise<GraphLayout> {
  const known = new Set(names);
  const drawn = edges.filter((edge) => known.has(edge.from) && known.has(edge.to) && edge.from !== edge.to);
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
    },
    children: names.map((name) => ({
      id: name,
      width: NODE_WIDTH,
      height: NODE_HEIGHT,
      layoutOptions: { 'elk.portConstraints': 'FIXED_SIDE' },
      ports: [
        { id: `${name}:out`, width: 1, height: 1, layoutOptions: { 'elk.port.side': 'EAST' } },
        { id: `${name}:in`, width: 1, height: 1, layoutOptions: { 'elk.port.side': 'WEST' } },
      ],
    })),
    edges: drawn.map((edge): ElkExtendedEdge => ({
      id: edgeKey(edge),
      sources: [`${edge.from}:out`],
      targets: [`${edge.to}:in`],
    })),
  };
  const laidOut = await elk.layout(graph);
  const positions: Record<string, Position> = {};
  for (const child of laidOut.children ?? []) positions[child.id] = { x: child.x ?? 0, y: child.y ?? 0 };
  const routes: Record<string, EdgeRoute> = {};
  for (const edge of laidOut.edges ?? []) {
    const section = edge.sections?.[0];
    if (!section) continue;
    routes[edge.id] = [section.startPoint, ...(section.bendPoints ?? []), section.endPoint].map(
      ({ x, y }) => ({ x, y }),
    );
  }
  return { positions, routes };
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
