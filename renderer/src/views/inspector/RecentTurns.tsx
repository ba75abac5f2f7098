import { useCallback } from 'react';
import { lemming } from '../../lemming';
import { useLemmingQuery } from '../../use-lemming-query';
import { duration } from '../../words/plain-words';
import { openTurn } from './open-turn';

const whenTimelineGrows = (refresh: () => void) => lemming().on('timeline.appended', refresh);

/** An agent's newest turns, each a link into the inspector (for the agent page). */
export function RecentTurns({ agent }: { agent: string }) {
  const ask = useCallback(() => lemming().inspector.agentTurns({ agent }), [agent]);
  const { result } = useLemmingQuery(agent, ask, { refreshWhen: whenTimelineGrows });
  if (!result?.ok) return null;
  const { turns } = result.value;
  return (
    <details className="recent-turns" open={turns.length > 0}>
      <summary>Recent turns ({turns.length})</summary>
      {turns.length === 0 ? (
        <p className="muted">{agent} has not taken a turn yet.</p>
      ) : (
        <ul aria-label={`Recent turns of ${agent}`}>
          {turns.map((turn) => (
            <li key={turn.tick}>
              <button type="button" className="link-button" onClick={() => openTurn(agent, turn.tick)}>
                Tick {turn.tick}
              </button>{' '}
              <span className="muted">
                {turn.status ?? '—'}
                {turn.durationMs !== null && `, ${duration(turn.durationMs)}`}
              </span>
            </li>
          ))}
        </ul>
      )}
    </details>
  );
}
