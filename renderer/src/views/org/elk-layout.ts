import ELK from 'elkjs/lib/elk.bundled.js';
import type { GraphEdge, Position } from '../../../../engine/api';

export const NODE_WIDTH = 210;
export const NODE_HEIGHT = 92;

const elk = new ELK();

/** Places every agent with ELK's layered layout, messages flowing top to bottom. */
export async function layoutAgents(names: string[], edges: GraphEdge[]): Promise<Record<string, Position>> {
  const known = new Set(names);
  const laidOut = await elk.layout({
    id: 'org',
    layoutOptions: {
      'elk.algorithm': 'layered',
      'elk.direction': 'DOWN',
      'elk.spacing.nodeNode': '60',
      'elk.layered.spacing.nodeNodeBetweenLayers': '90',
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
