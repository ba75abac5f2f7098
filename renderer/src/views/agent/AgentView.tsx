import type { AgentState } from '../../../../engine/api';
import { RecentTurns } from '../../shared/RecentTurns';
import { RehearseTurn } from '../../shared/RehearseTurn';
import { LiveAnswerPanel } from '../../shared/live/LiveAnswer';
import { Advanced } from '../../components/Advanced';
import { GlossaryLink } from '../../components/Glossary';
import { ErrorAlert } from '../../components/ErrorAlert';
import { AgentStateBadge } from '../../components/AgentStateBadge';
import { useNavigation } from '../../stores/navigation-store';
import '../org/org-view.css';
import { AgentProblems } from './AgentProblems';
import { MemorySection } from './MemorySection';
import { ResumeForm } from './ResumeForm';
import { ToolToggles } from '../../shared/ToolToggles';
import { AgentSwitch } from '../../shared/AgentSwitch';
import './agent-view.css';
import { useAgentDetail } from '../../shared/use-agent-detail';
import { resumeOverBudget } from '../../shared/resume-over-budget';

/** States that keep an agent from working: their reason is shown in words, not only on hover. */
const PROBLEM_STATES: ReadonlySet<AgentState['kind']> = new Set([
  'failing',
  'will_not_run',
  'invalid_resume',
  'out_of_credits',
  'over_budget',
]);

/** One agent: its resume as a form, its tools with the explainer, and the files it may touch. */
export function AgentView({ agent }: { agent: string }) {
  const { detail, error, replace } = useAgentDetail(agent);

  if (error) return <ErrorAlert error={error} title={`Could not open the agent ${agent}.`} />;
  if (!detail) return <p role="status">Opening {agent}…</p>;

  return (
    <section className="agent-view" aria-labelledby="agent-view-heading">
      <div className="view-toolbar">
        <h2 id="agent-view-heading">
          {detail.name}
          {detail.resume?.title && <span className="muted"> — {detail.resume.title}</span>}
        </h2>
        <AgentStateBadge state={detail.state} />
        {detail.resume && (
          <AgentSwitch agent={agent} switchedOff={detail.resume.switched_off} onChanged={replace} />
        )}
      </div>
      <AgentStateNote agent={agent} state={detail.state} />
      {detail.nextDue && <p className="muted">Next turn: {detail.nextDue.words}.</p>}
      <LiveAnswerPanel agent={agent} />
      <RecentTurns agent={agent} />
      {detail.valid && <RehearseTurn agent={agent} />}
      <div className="muted">
        <p>
          This page edits the agent’s <GlossaryLink term="resume" />. Saving changes only what you edit;
          everything else the agent’s file holds stays as it is
          {detail.otherFields.length > 0 && (
            <> (including {detail.otherFields.length} settings this page does not show)</>
          )}
          .
        </p>
        <details>
          <summary>Advanced</summary>
          The resume is the file <code>{detail.file}</code> in the org folder.
        </details>
      </div>
      <AgentProblems
        problems={detail.problems}
        tone="error"
        label="This resume is invalid"
        formShown={detail.resume !== null}
      />
      <AgentProblems problems={detail.warnings} tone="warning" label="Warnings" />
      {detail.resume ? (
        <div className="agent-columns">
          <ResumeForm agent={agent} detail={detail} resume={detail.resume} onSaved={replace} />
          {detail.valid && <ToolToggles agent={agent} />}
        </div>
      ) : (
        <p>
          The form cannot show this resume until the file reads as a resume. Fix the problems above in a text
          editor, then come back: the page updates by itself.
        </p>
      )}
      {detail.valid && <MemorySection agent={agent} />}
      <details className="raw-resume">
        <summary>Show the resume file</summary>
        <pre tabIndex={0} aria-label={`Text of ${detail.file}`}>
          {detail.text ?? '(the file could not be read)'}
        </pre>
      </details>
    </section>
  );
}

/**
 * Under the badge: why an agent does not work, with where to fix it (red, an alert); "needs you" with
 * the way to what waits; and a failure already fixed kept as history (quiet, not an alert).
 */
function AgentStateNote({ agent, state }: { agent: string; state: AgentState }) {
  const openTimeline = useNavigation((store) => store.openTimeline);
  const go = useNavigation((store) => store.go);
  const showTurn = (tick: number) => (
    <button type="button" className="link-button" onClick={() => openTimeline({ agent, tick })}>
      Show that turn in the timeline
    </button>
  );
  if (state.kind === 'needs_you')
    return (
      <p className="agent-state-reason" role="status">
        {state.words} Use the card at the top of the window, or the “Needs you” button.
      </p>
    );
  if (state.kind === 'ready' && state.lastTurnFailed)
    return (
      <p className="muted agent-state-history">
        Its last turn (tick {state.lastTurnFailed.tick}) failed: {state.lastTurnFailed.why} That is fixed now.{' '}
        {showTurn(state.lastTurnFailed.tick)}
      </p>
    );
  if (!PROBLEM_STATES.has(state.kind)) return null;
  const failed =
    state.kind === 'failing'
      ? { tick: state.sinceTick, technical: state.technical, why: null }
      : state.kind === 'will_not_run'
        ? state.lastTurnFailed
        : null;
  const details = state.kind === 'will_not_run' ? state.reasons.flatMap((reason) => reason.detail ?? []) : [];
  return (
    <div className="inline-alert agent-state-reason" role="alert">
      {state.words}
      {state.kind === 'will_not_run' && state.reasons.some((reason) => reason.fixIn === 'settings') && (
        <>
          {' '}
          <button type="button" className="link-button" onClick={() => go('settings')}>
            Open Settings
          </button>
        </>
      )}
      {state.kind === 'over_budget' && (
        <>
          {' '}
          <button type="button" onClick={() => void resumeOverBudget(agent)}>
            Resume {agent}
          </button>
        </>
      )}
      {failed && (
        <div>
          {failed.why !== null && (
            <>
              Its last turn (tick {failed.tick}) failed: {failed.why}{' '}
            </>
          )}
          {showTurn(failed.tick)}
        </div>
      )}
      {(details.length > 0 || failed?.technical) && (
        <Advanced>
          {details.map((detail) => (
            <div key={detail}>{detail}</div>
          ))}
          {failed?.technical && <code>{failed.technical}</code>}
        </Advanced>
      )}
    </div>
  );
}
