import { BaseEdge, EdgeLabelRenderer, getSmoothStepPath, type Edge, type EdgeProps } from '@xyflow/react';
import type { Position } from '../../../../engine/api';
import { routeMidpoint, routePath, type EdgeRoute } from '../../shared/graph/elk-layout';

export interface RoutedEdgeData extends Record<string, unknown> {
  /** ELK's route; null when a card was moved off the laid-out place, and the edge goes card to card. */
  route: EdgeRoute | null;
  /** Messages over the traffic window; shown when above 0. */
  count: number;
  windowTicks: number;
  label: string;
}
export type RoutedFlowEdge = Edge<RoutedEdgeData, 'routed'>;

/** A message-flow edge on the path ELK routed around the cards, with its message count. */
export function RoutedEdge(props: EdgeProps<RoutedFlowEdge>) {
  const { data, markerEnd, style, id } = props;
  let path: string;
  let middle: Position;
  if (data?.route) {
    path = routePath(data.route);
    middle = routeMidpoint(data.route);
  } else {
    const [fallback, labelX, labelY] = getSmoothStepPath(props);
    path = fallback;
    middle = { x: labelX, y: labelY };
  }
  const count = data?.count ?? 0;
  return (
    <>
      <BaseEdge id={id} path={path} markerEnd={markerEnd} style={style} />
      {count > 0 && (
        <EdgeLabelRenderer>
          <div
            className="edge-count"
            data-edge-count={id}
            style={{ transform: `translate(-50%, -50%) translate(${middle.x}px, ${middle.y}px)` }}
            title={`${data?.label ?? ''}: ${count} message${count === 1 ? '' : 's'} in the last ${data?.windowTicks ?? 0} ticks`}
          >
            {count}
          </div>
        </EdgeLabelRenderer>
      )}
    </>
  );
}
