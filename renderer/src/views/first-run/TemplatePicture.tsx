import { useEffect, useId, useState } from 'react';
import type { GraphEdge, TemplateCard } from '../../../../engine/api';
import {
  edgeKey,
  layoutAgents,
  NODE_HEIGHT,
  NODE_WIDTH,
  routePath,
  type GraphLayout,
} from '../../shared/graph/elk-layout';

const MARGIN = 40;
/** Large for the card's size: the picture is drawn at a fifth of the graph view's scale. */
const LINE_HEIGHT = 40;
/** About how wide a letter of the card's font is, and the room a line has: a longer one is narrowed to fit. */
const CHARACTER_WIDTH = 21;
const TEXT_WIDTH = NODE_WIDTH - 24;

/** A title on at most two lines of a card: split at the space nearest its middle. */
function titleLines(title: string): string[] {
  if (!title.includes(' ')) return [title];
  const spaces = [...title.matchAll(/ /g)].map((match) => match.index);
  const middle = spaces.reduce((best, at) =>
    Math.abs(at - title.length / 2) < Math.abs(best - title.length / 2) ? at : best,
  );
  return [title.slice(0, middle), title.slice(middle + 1)];
}

/**
 * The template's graph, drawn small: the same layout the Org view gives an org (elk-layout), its agents
 * as cards and who hears from whom as arrows, computed from the template's own resumes.
 */
export function TemplatePicture({ card }: { card: TemplateCard }) {
  const markerId = useId();
  const [layout, setLayout] = useState<GraphLayout | null>(null);
  const titles = new Map<string, string>([
    ['human', 'You'],
    ...card.agents.map((agent) => [agent.name, agent.title] as const),
  ]);
  const names = [...titles.keys()];
  const edges: GraphEdge[] = card.edges.map((edge) => ({ ...edge, kind: 'read', viaWildcard: false }));

  useEffect(() => {
    let shown = true;
    void layoutAgents(names, edges).then((laidOut) => {
      if (shown) setLayout(laidOut);
    });
    return () => {
      shown = false;
    };
    // The card is the input: a new answer for the same template lays it out again.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [card]);

  const label = `How ${card.title} works together: ${card.edges
    .map((edge) => `${titles.get(edge.from) ?? edge.from} to ${titles.get(edge.to) ?? edge.to}`)
    .join(', ')}.`;
  if (!layout) return <div className="template-picture" role="img" aria-label={label} />;
  // The cards and every bend of the arrows, which may run outside the cards.
  const corners = [
    ...Object.values(layout.positions).flatMap((position) => [
      position,
      { x: position.x + NODE_WIDTH, y: position.y + NODE_HEIGHT },
    ]),
    ...Object.values(layout.routes).flat(),
  ];
  const left = Math.min(...corners.map((point) => point.x)) - MARGIN;
  const top = Math.min(...corners.map((point) => point.y)) - MARGIN;
  const width = Math.max(...corners.map((point) => point.x)) + MARGIN - left;
  const height = Math.max(...corners.map((point) => point.y)) + MARGIN - top;
  return (
    <svg
      className="template-picture"
      viewBox={`${left} ${top} ${width} ${height}`}
      role="img"
      aria-label={label}
    >
      <defs>
        <marker
          id={markerId}
          viewBox="0 0 10 10"
          refX="9"
          refY="5"
          markerWidth="7"
          markerHeight="7"
          orient="auto"
        >
          <path d="M 0 0 L 10 5 L 0 10 z" className="template-picture-arrowhead" />
        </marker>
      </defs>
      {edges.map((edge) => {
        const route = layout.routes[edgeKey(edge)];
        return route ? (
          <path
            key={edgeKey(edge)}
            d={routePath(route)}
            className="template-picture-edge"
            markerEnd={`url(#${markerId})`}
          />
        ) : null;
      })}
      {names.map((name) => {
        const position = layout.positions[name];
        if (!position) return null;
        const lines = titleLines(titles.get(name) ?? name);
        return (
          <g key={name} className={name === 'human' ? 'template-picture-node you' : 'template-picture-node'}>
            <rect x={position.x} y={position.y} width={NODE_WIDTH} height={NODE_HEIGHT} rx={14} />
            <text
              x={position.x + NODE_WIDTH / 2}
              y={position.y + NODE_HEIGHT / 2 - ((lines.length - 1) * LINE_HEIGHT) / 2}
            >
              {lines.map((line, index) => (
                <tspan
                  key={line}
                  x={position.x + NODE_WIDTH / 2}
                  dy={index === 0 ? '0.35em' : LINE_HEIGHT}
                  {...(line.length * CHARACTER_WIDTH > TEXT_WIDTH
                    ? { textLength: TEXT_WIDTH, lengthAdjust: 'spacingAndGlyphs' }
                    : {})}
                >
                  {line}
                </tspan>
              ))}
            </text>
          </g>
        );
      })}
    </svg>
  );
}
