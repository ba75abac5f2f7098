import ELK from 'elkjs/lib/elk.bundled.js';
import type { GraphEdge, Position } from '../../../../engine/api';

export const NODE_WIDTH = 210;
export const NODE_HEIGHT = 92;

const elk = new ELK();

/** Places every agent with ELK, linked agents near each other. */
export async function layoutAgents(names: string[], edges: GraphEdge[]): Promise<Record<string, Position>> {
  const known = new Set(names);
  const laidOut = await elk.layout({
    id: 'org',
    layoutOptions: {
      // Orgs are full of cycles (agents read each other), which stress layouts spread out well.
      'elk.algorithm': 'stress',
      'elk.stress.desiredEdgeLength': '330',
    },
    children: names.map((name) => ({ id: name, width: NODE_WIDTH, height: NODE_HEIGHT })),
    edges: edges
      .filter((edge) => known.has(edge.from) && known.has(edge.to) && edge.from !== edge.to)
      .map((edge, index) => ({ id: `e${index}`, sources: [edge.from], targets: [edge.to] })),
  });
  const positions: Record<string, Position> = {};
  for (const child of laidOut.children ?? []) positions[child.id] = { x: child.x ?? 0, y: child.y ?? 0 };
  return positions;
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
