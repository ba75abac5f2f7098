import type { AgentReadinessNote, BlockedAgent } from '../../../../engine/api';
import { AgentStateBadge } from '../../components/AgentStateBadge';
import { Advanced } from '../../components/Advanced';
import { useQuery } from '../../server-state/use-query';
import { useNavigation } from '../../stores/navigation-store';

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

/**
 * Beside Start: the engine's readiness check, so an agent that will not run says so before the run,
 * not as a failed turn after it. Asked again when what it depends on changes (server-state/stale-map.ts).
 */
export function RunReadinessNote() {
  const { result } = useQuery('run.readiness', {});
  const readiness = result?.ok ? result.value : null;

  if (
    !readiness ||
    (!readiness.notTrusted && readiness.blocked.length === 0 && readiness.warnings.length === 0)
  )
    return null;
  return (
    <div className="run-readiness" role="status" aria-label="Before you start">
      {readiness.notTrusted && (
        <p className="run-readiness-blocked">
          ⚠{' '}
          {readiness.notTrusted.state === 'changed'
            ? 'What this org can run changed since you trusted it: nothing runs until you trust it again.'
            : 'This org is not trusted yet: nothing runs until you trust it.'}
        </p>
      )}
      <NoteGroup
        notes={readiness.blocked}
        className="run-readiness-blocked"
        headline={`⚠ ${plural(readiness.blocked.length, 'agent', 'agents')} will not run`}
      />
      <NoteGroup
        notes={readiness.warnings}
        headline={`${plural(readiness.warnings.length, 'agent has', 'agents have')} a tool that will not work`}
      />
    </div>
  );
}

/** One line naming the agents; opened, each agent's reason in plain words, where to fix it, and the precise words under Advanced. */
function NoteGroup({
  notes,
  headline,
  className,
}: {
  notes: (AgentReadinessNote | BlockedAgent)[];
  headline: string;
  className?: string;
}) {
  const go = useNavigation((state) => state.go);
  if (notes.length === 0) return null;
  return (
    <details>
      <summary className={className}>
        {headline}: {notes.map((note) => note.agent).join(', ')}
      </summary>
      <ul>
        {notes.map((note) => (
          <li key={note.agent}>
            <strong>{note.agent}</strong>
            {'state' in note && (
              <>
                {' '}
                <AgentStateBadge state={note.state} />
              </>
            )}
            : {note.reason}
            {note.fixIn === 'settings' && (
              <>
                {' '}
                <button type="button" className="link-button" onClick={() => go('settings')}>
                  Open Settings
                </button>
              </>
            )}
            {note.detail && <Advanced>{note.detail}</Advanced>}
          </li>
        ))}
      </ul>
    </details>
  );
}
