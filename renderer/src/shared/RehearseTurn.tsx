import { useState } from 'react';
import type { RehearsalSummary } from '../../../engine/api';
import { write } from '../server-state/write';
import { openRehearsal } from '../stores/open-turn';

/**
 * "Rehearse a turn": the agent's next turn played with nothing done (no file, message, memory, web
 * request or command), then what it would have done, with the way to the whole turn in the inspector.
 */
export function RehearseTurn({ agent }: { agent: string }) {
  const [rehearsing, setRehearsing] = useState(false);
  const [last, setLast] = useState<RehearsalSummary | null>(null);

  const rehearse = async () => {
    if (rehearsing) return;
    setRehearsing(true);
    const result = await write(
      'agent.rehearse',
      { agent },
      { progress: `Rehearsing a turn of ${agent}…`, failure: `Could not rehearse a turn of ${agent}` },
    );
    setRehearsing(false);
    if (result.ok) setLast(result.value);
  };

  return (
    <section aria-label={`Rehearse a turn of ${agent}`}>
      <p>
        <button
          type="button"
          onClick={() => void rehearse()}
          aria-disabled={rehearsing}
          aria-describedby={`rehearse-${agent}-words`}
        >
          {rehearsing ? 'Rehearsing…' : 'Rehearse a turn'}
        </button>{' '}
        <span id={`rehearse-${agent}-words`} className="muted">
          Runs one turn with nothing done, to see what it would do. Its model is called (and may cost money);
          no credits are charged.
        </span>
      </p>
      {last && (
        <div role="status" data-testid="rehearsal-result">
          {last.problem && <p>{last.problem}</p>}
          <p>
            Rehearsal {last.status === 'completed' ? 'done' : last.status}:{' '}
            {last.wouldDo.length === 0
              ? 'it would have done nothing.'
              : `it would have done ${last.wouldDo.length} thing${last.wouldDo.length === 1 ? '' : 's'}; none was done.`}
          </p>
          {last.wouldDo.length > 0 && (
            <ul aria-label="What the rehearsed turn would have done">
              {last.wouldDo.map((action, index) => (
                <li key={index}>
                  Would do: {action.title}
                  {action.target && ` ${action.target}`}
                </li>
              ))}
            </ul>
          )}
          <button type="button" onClick={() => openRehearsal(last.seq)}>
            Open the rehearsal in the inspector
          </button>
        </div>
      )}
    </section>
  );
}
