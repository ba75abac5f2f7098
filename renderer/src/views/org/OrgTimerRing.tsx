import { useEffect, useRef, useState } from 'react';
import type { OrgGraph } from '../../../../engine/api';
import { useRunState } from '../../stores/run-store';
import { bottlenecks } from './graph-model';

const SIZE = 132;
const CENTRE = SIZE / 2;
const RADIUS = 50;
const PING_MS = 1600;

interface Dot {
  name: string;
  x: number;
  y: number;
}

/** Each scheduled agent at its fire point around the ring (12 o'clock is the tick's start). */
function dotsOf(graph: OrgGraph): Dot[] {
  const stacked = new Map<number, number>();
  const dots: Dot[] = [];
  for (const node of graph.nodes) {
    if (!node.schedule) continue;
    const point = node.schedule.firePoint;
    const depth = stacked.get(point) ?? 0;
    stacked.set(point, depth + 1);
    const angle = point * 2 * Math.PI - Math.PI / 2;
    const radius = RADIUS - (depth % 4) * 9;
    dots.push({
      name: node.name,
      x: CENTRE + radius * Math.cos(angle),
      y: CENTRE + radius * Math.sin(angle),
    });
  }
  return dots;
}

function arcPath(fraction: number): string {
  if (fraction <= 0) return '';
  const clamped = Math.min(fraction, 0.9999);
  const angle = clamped * 2 * Math.PI - Math.PI / 2;
  const x = CENTRE + RADIUS * Math.cos(angle);
  const y = CENTRE + RADIUS * Math.sin(angle);
  return `M ${CENTRE} ${CENTRE - RADIUS} A ${RADIUS} ${RADIUS} 0 ${clamped > 0.5 ? 1 : 0} 1 ${x} ${y}`;
}

/**
 * The org timer ring: the tick in progress as an arc, each agent's fire point as a dot that pings when
 * the agent starts its turn, a yellow halo on agents that hold a reader up, and the next tick's firing
 * list on hover or focus.
 */
export function OrgTimerRing({ graph }: { graph: OrgGraph }) {
  const tickInProgress = useRunState()?.tickInProgress ?? null;
  const [pinging, setPinging] = useState<ReadonlySet<string>>(new Set());
  const [done, setDone] = useState<{ tick: number | null; agents: ReadonlySet<string> }>({
    tick: null,
    agents: new Set(),
  });
  const wasRunning = useRef(new Set<string>());
  const tickNow = useRef(tickInProgress);
  useEffect(() => {
    tickNow.current = tickInProgress;
  }, [tickInProgress]);

  useEffect(() => {
    const running = new Set(
      graph.nodes
        .filter((node) => node.state.kind === 'running' || node.state.kind === 'needs_you')
        .map((node) => node.name),
    );
    const started = [...running].filter((name) => !wasRunning.current.has(name));
    const finished = [...wasRunning.current].filter((name) => !running.has(name));
    wasRunning.current = running;
    const tick = tickNow.current;
    if (finished.length > 0)
      setDone((current) =>
        current.tick === tick
          ? { tick, agents: new Set([...current.agents, ...finished]) }
          : { tick, agents: new Set(finished) },
      );
    if (started.length === 0) return;
    setPinging((current) => new Set([...current, ...started]));
    const timer = setTimeout(
      () => setPinging((current) => new Set([...current].filter((name) => !started.includes(name)))),
      PING_MS,
    );
    return () => clearTimeout(timer);
  }, [graph]);

  const firing = graph.nodes
    .filter((node) => node.schedule?.firesNextTick)
    .sort((a, b) => a.schedule!.firePoint - b.schedule!.firePoint);
  const progress =
    tickInProgress === null || firing.length === 0
      ? 0
      : done.tick !== tickInProgress
        ? 0
        : firing.filter((node) => done.agents.has(node.name)).length / firing.length;
  const halos = bottlenecks(graph);
  const tickName = tickInProgress ?? graph.nextTick;

  return (
    <div className="org-timer-ring">
      <button
        type="button"
        className="org-timer-ring-face"
        aria-describedby="org-timer-ring-next"
        aria-label={
          tickInProgress === null
            ? `Tick ${tickName ?? '–'}: the org timer, waiting for the next tick`
            : `Tick ${tickInProgress}: the org timer, ${Math.round(progress * 100)}% of this tick done`
        }
      >
        <svg width={SIZE} height={SIZE} viewBox={`0 0 ${SIZE} ${SIZE}`} aria-hidden="true">
          <circle className="ring-track" cx={CENTRE} cy={CENTRE} r={RADIUS} />
          <path className="ring-progress" d={arcPath(progress)} data-progress={progress.toFixed(2)} />
          {dotsOf(graph).map((dot) => (
            <g key={dot.name} data-ring-dot={dot.name}>
              {halos.has(dot.name) && <circle className="ring-halo" cx={dot.x} cy={dot.y} r={9} />}
              {pinging.has(dot.name) && (
                <circle className="ring-ping" data-ping={dot.name} cx={dot.x} cy={dot.y} r={5} />
              )}
              <circle
                className={`ring-dot${firing.some((node) => node.name === dot.name) ? ' ring-dot-next' : ''}`}
                cx={dot.x}
                cy={dot.y}
                r={5}
              />
            </g>
          ))}
        </svg>
        <span className="ring-centre">
          <span className="ring-label">Tick</span> <span className="ring-tick">{tickName ?? '–'}</span>
        </span>
      </button>
      <div role="tooltip" id="org-timer-ring-next" className="org-timer-ring-next">
        <strong>{tickInProgress === null ? `Next tick (${graph.nextTick ?? '?'})` : 'This tick'}</strong>
        {firing.length === 0 ? (
          <p>No agent fires.</p>
        ) : (
          <ol>
            {firing.map((node) => (
              <li key={node.name}>
                {node.name}
                {halos.has(node.name) && ` — holds up ${halos.get(node.name)!.join(', ')}`}
              </li>
            ))}
          </ol>
        )}
      </div>
    </div>
  );
}
