import { useQuery } from '../../server-state/use-query';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useNavigation } from '../../stores/navigation-store';
import { TurnTree } from './TurnInspectorView';

/** A rehearsal: what the turn would have done (nothing of it was done), then the turn as it played. */
export function RehearsalInspector({ seq }: { seq: number }) {
  const { result } = useQuery('inspector.rehearsal', { seq });
  const openTimeline = useNavigation((store) => store.openTimeline);
  const rehearsal = result?.ok ? result.value : null;

  return (
    <section className="inspector" aria-labelledby="inspector-heading">
      <div className="view-toolbar">
        <h2 id="inspector-heading">{rehearsal ? `Rehearsal of ${rehearsal.agent}'s turn` : 'Rehearsal'}</h2>
        {rehearsal && (
          <span className="inspector-actions">
            <button type="button" onClick={() => openTimeline({ agent: rehearsal.agent })}>
              Show {rehearsal.agent} in the timeline
            </button>
          </span>
        )}
      </div>
      {result === null && <p role="status">Reading the rehearsal…</p>}
      {result?.ok === false && <ErrorAlert error={result.error} title="Could not show this rehearsal." />}
      {rehearsal && (
        <>
          <p className="rehearsal-note" role="note">
            This is a rehearsal of the turn {rehearsal.agent} would take at tick {rehearsal.tick}: its model
            was called and its reads ran, but nothing it would have changed was done (no file, message,
            memory, web request or command).
          </p>
          <section aria-labelledby="would-do-heading">
            <h3 id="would-do-heading">What it would have done</h3>
            {rehearsal.wouldDo.length === 0 ? (
              <p className="muted">Nothing: the turn would have changed nothing.</p>
            ) : (
              <ol className="would-do-list" aria-label="What it would have done">
                {rehearsal.wouldDo.map((action, index) => (
                  <li key={index} data-testid="would-do" data-what={action.what}>
                    <span className="would-do-label">Would do:</span> {action.title}
                    {action.target && ` ${action.target}`}
                  </li>
                ))}
              </ol>
            )}
            <p className="muted">{rehearsal.costWords}</p>
          </section>
          <TurnTree turn={rehearsal} rehearsal />
        </>
      )}
    </section>
  );
}
