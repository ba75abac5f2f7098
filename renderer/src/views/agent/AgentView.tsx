import { RecentTurns } from '../../shared/RecentTurns';
import { LiveAnswerPanel } from '../../shared/live/LiveAnswer';
import { Advanced } from '../../components/Advanced';
import { GlossaryLink } from '../../components/Glossary';
import { ErrorAlert } from '../../components/ErrorAlert';
import { AgentStateBadge } from '../../shared/agent-state-badge';
import { useNavigation } from '../../stores/navigation-store';
import '../org/org-view.css';
import { AgentProblems } from './AgentProblems';
import { MemorySection } from './MemorySection';
import { ResumeForm } from './ResumeForm';
import { ToolToggles } from '../../shared/ToolToggles';
import './agent-view.css';
import { useAgentDetail } from '../../shared/use-agent-detail';

/** States that keep an agent from working: their reason is shown in words, not only on hover. */
const PROBLEM_STATES: ReadonlySet<string> = new Set(['failing', 'invalid', 'out_of_credits']);

/** One agent: its resume as a form, its tools with the explainer, and the files it may touch. */
export function AgentView({ agent }: { agent: string }) {
  const { detail, error, replace } = useAgentDetail(agent);
  const openTimeline = useNavigation((store) => store.openTimeline);

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
      </div>
      {PROBLEM_STATES.has(detail.state) && (
        <div className="inline-alert agent-state-reason" role="alert">
          {detail.stateReason}
          {detail.failedTick !== null && (
            <>
              {' '}
              <button
                type="button"
                className="link-button"
                onClick={() => openTimeline({ agent, tick: detail.failedTick ?? undefined })}
              >
                Show that turn in the timeline
              </button>
            </>
          )}
          {detail.stateTechnical !== null && (
            <Advanced>
              <code>{detail.stateTechnical}</code>
            </Advanced>
          )}
        </div>
      )}
      <LiveAnswerPanel agent={agent} />
      <RecentTurns agent={agent} />
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
