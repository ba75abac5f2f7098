import type { RunState, TickTurn } from '../../../../engine/api';
import { useQuery } from '../../server-state/use-query';
import { ErrorAlert } from '../../components/ErrorAlert';
import { duration } from '../../words/plain-words';
import { useRunState } from '../../stores/run-store';
import { openTick, openTurn } from '../../stores/open-turn';
import './inspector.css';

/** The newest tick that has run or is running; null while the run's state is not known. */
function lastTickRun(run: RunState | null): number | null {
  if (!run) return null;
  if (run.tickInProgress !== null) return run.tickInProgress;
  return run.nextTick === null ? null : run.nextTick - 1;
}

/** Every turn of one tick as a bar from when it started to when it ended; a click opens the turn. */
export function TickWaterfall({ tick }: { tick: number }) {
  const { result } = useQuery('inspector.tick', { tick });
  const lastTick = lastTickRun(useRunState());

  return (
    <section className="inspector" aria-labelledby="inspector-heading">
      <div className="view-toolbar">
        <h2 id="inspector-heading">Turns of tick {tick}</h2>
        <span className="inspector-actions">
          <button type="button" onClick={() => openTick(tick - 1)} disabled={tick <= 0}>
            ← Tick {tick - 1}
          </button>
          <button
            type="button"
            onClick={() => openTick(tick + 1)}
            disabled={lastTick !== null && tick + 1 > lastTick}
            title={lastTick !== null && tick + 1 > lastTick ? `Tick ${tick + 1} has not run yet` : undefined}
          >
            Tick {tick + 1} →
          </button>
        </span>
      </div>
      {result === null && <p role="status">Reading the tick…</p>}
      {result?.ok === false && <ErrorAlert error={result.error} title="Could not show this tick." />}
      {result?.ok && result.value.turns.length === 0 && (
        <p className="muted">No agent took a turn at this tick.</p>
      )}
      {result?.ok && result.value.turns.length > 0 && <Waterfall tick={tick} turns={result.value.turns} />}
    </section>
  );
}

function Waterfall({ tick, turns }: { tick: number; turns: TickTurn[] }) {
  const span = Math.max(1, ...turns.map((turn) => turn.offsetMs + (turn.durationMs ?? 0)));
  const longest = Math.max(...turns.map((turn) => turn.durationMs ?? 0));
  return (
    <>
      <p className="muted">
        Each bar runs from when the turn started to when it ended; the tick took {duration(span)} from its
        first turn to its last. The longest turn is marked.
      </p>
      <ol className="waterfall" aria-label={`Turns of tick ${tick}`}>
        {turns.map((turn) => (
          <li key={`${turn.agent}-${turn.offsetMs}`} className="waterfall-row">
            <button type="button" className="link-button" onClick={() => openTurn(turn.agent, tick)}>
              {turn.agent}
            </button>
            <span className="waterfall-track" aria-hidden="true">
              <span
                className={`waterfall-bar status-${turn.status ?? 'unknown'}${turn.durationMs === longest ? ' longest' : ''}`}
                style={{
                  left: `${(turn.offsetMs / span) * 100}%`,
                  width: `max(2px, ${((turn.durationMs ?? 0) / span) * 100}%)`,
                }}
              />
            </span>
            <span className="waterfall-numbers">
              {turn.durationMs === null ? 'not finished' : duration(turn.durationMs)} · {turn.status ?? '—'}
            </span>
          </li>
        ))}
      </ol>
    </>
  );
}
