import { useQuery } from '../server-state/use-query';
import { duration } from '../words/plain-words';
import { openTurn } from '../stores/open-turn';

/** An agent's newest turns, each a link into the inspector (for the agent page). */
export function RecentTurns({ agent }: { agent: string }) {
  const { result } = useQuery('inspector.agentTurns', { agent });
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
