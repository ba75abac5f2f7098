import { toolWords } from '../../../../engine/api';
import { useKnownToolTitles } from '../tool-titles';
import './live-answer.css';
import { useLiveAnswer } from './live-answers-store';

/** How much of the answer the graph node shows: its end, where the writing is. */
const NODE_TAIL_CHARS = 140;

/** The end of what the agent's model is writing, on its graph node. */
export function LiveAnswerTail({ agent }: { agent: string }) {
  const answer = useLiveAnswer(agent);
  if (!answer) return null;
  const text = answer.text.length > NODE_TAIL_CHARS ? `…${answer.text.slice(-NODE_TAIL_CHARS)}` : answer.text;
  return (
    <div className="live-answer-tail" data-live-answer={agent} title="What the model is writing now">
      {answer.tool && (
        <>
          Asking to use <ToolName id={answer.tool} />…{' '}
        </>
      )}
      {text}
    </div>
  );
}

/** The whole answer being written, on the agent's page. */
export function LiveAnswerPanel({ agent }: { agent: string }) {
  const answer = useLiveAnswer(agent);
  if (!answer) return null;
  return (
    <section className="live-answer-panel" aria-label={`What ${agent} is writing now`}>
      <h3>
        Writing now <span className="muted">(model call {answer.round})</span>
      </h3>
      {answer.tool && (
        <p className="muted">
          Asking to use the tool <ToolName id={answer.tool} />…
        </p>
      )}
      <pre data-live-answer-full={agent}>{answer.text}</pre>
      <p className="muted">The whole answer is saved in the timeline when the turn ends.</p>
    </section>
  );
}

/** A tool the model asks for, by its title if already known. */
function ToolName({ id }: { id: string }) {
  return <>{toolWords(id, useKnownToolTitles())}</>;
}
