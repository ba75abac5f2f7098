import { useEffect, useState, type ReactNode } from 'react';
import type {
  InspectedModelCall,
  InspectedToolCall,
  PromptMessage,
  PromptPart,
  TurnDetail,
  TurnStep,
} from '../../../../engine/api';
import { toolWords } from '../../../../engine/api';
import { Advanced } from '../../components/Advanced';
import { serverState } from '../../server-state/instance';
import { useToolTitles } from '../../shared/tool-titles';
import { useNavigation } from '../../stores/navigation-store';
import { useQuery } from '../../server-state/use-query';
import { ErrorAlert } from '../../components/ErrorAlert';
import { formatJsonText } from '../../components/format-json-text';
import { TickWaterfall } from './TickWaterfall';
import { RehearsalInspector } from './RehearsalInspector';
import { openTick, useInspectorTarget } from '../../stores/open-turn';
import { duration } from '../../words/plain-words';
import { credits, tokens } from './inspector-format';
import './inspector.css';

/** The inspector: a turn as a tree, or a tick's turns as a waterfall. */
export function InspectorView() {
  const target = useInspectorTarget((store) => store.target);
  if (!target)
    return (
      <section className="inspector" aria-labelledby="inspector-heading">
        <h2 id="inspector-heading">Turn inspector</h2>
        <p className="muted">Open a turn from the timeline, the org graph or an agent's page.</p>
      </section>
    );
  if ('rehearsal' in target) return <RehearsalInspector key={target.rehearsal} seq={target.rehearsal} />;
  return target.agent === undefined ? (
    <TickWaterfall key={target.tick} tick={target.tick} />
  ) : (
    <TurnInspector key={`${target.agent}@${target.tick}`} agent={target.agent} tick={target.tick} />
  );
}

function TurnInspector({ agent, tick }: { agent: string; tick: number }) {
  const { result } = useQuery('inspector.turn', { agent, tick });
  const openTimeline = useNavigation((store) => store.openTimeline);

  return (
    <section className="inspector" aria-labelledby="inspector-heading">
      <div className="view-toolbar">
        <h2 id="inspector-heading">
          Turn of {agent} at tick {tick}
        </h2>
        <span className="inspector-actions">
          <button type="button" onClick={() => openTick(tick)}>
            All turns of tick {tick}
          </button>
          <button type="button" onClick={() => openTimeline({ agent, tick })}>
            Show in the timeline
          </button>
        </span>
      </div>
      {result === null && <p role="status">Reading the turn…</p>}
      {result?.ok === false && <ErrorAlert error={result.error} title="Could not show this turn." />}
      {result?.ok && <TurnTree turn={result.value} />}
    </section>
  );
}

/** A turn as a tree; a rehearsal's (`rehearsal`) says what it would have been charged, as nothing was. */
export function TurnTree({ turn, rehearsal = false }: { turn: TurnDetail; rehearsal?: boolean }) {
  const facts = [
    { label: 'Outcome', value: turn.status ?? 'not finished' },
    { label: 'Took', value: turn.durationMs === null ? '—' : duration(turn.durationMs) },
    { label: 'Model calls', value: String(turn.totals.modelCalls) },
    {
      label: 'Tokens',
      value: `${tokens(turn.totals.inputTokens)} in, ${tokens(turn.totals.outputTokens)} out`,
    },
    { label: 'Model cost', value: credits(turn.totals.modelCost) },
    {
      label: rehearsal ? 'Would have been charged' : 'Credits charged',
      value: credits(turn.totals.credits),
    },
  ];
  return (
    <>
      <dl className="inspector-facts" aria-label="The turn in numbers">
        {facts.map((fact) => (
          <div key={fact.label}>
            <dt>{fact.label}</dt>
            <dd>{fact.value}</dd>
          </div>
        ))}
      </dl>
      {turn.truncated && (
        <p className="inline-alert">
          This turn has more events than the inspector reads; the timeline has all.
        </p>
      )}
      <section aria-labelledby="prompt-heading">
        <h3 id="prompt-heading">What the model was sent</h3>
        {turn.inboxFrom.length > 0 && (
          <p className="muted">New messages from {[...new Set(turn.inboxFrom)].join(', ')}.</p>
        )}
        {turn.prompt.length === 0 ? (
          <p className="muted">This turn did not call a model.</p>
        ) : (
          <ol className="prompt-chat" aria-label="Prompt">
            {turn.prompt.map((message, index) => (
              <ChatMessage key={index} message={message} />
            ))}
          </ol>
        )}
      </section>
      <section aria-labelledby="steps-heading">
        <h3 id="steps-heading">What happened, step by step</h3>
        <ol className="turn-steps" aria-label="Steps">
          {turn.steps.map((step, index) => (
            <Step key={rehearsal ? index : stepKey(step)} step={step} rehearsal={rehearsal} />
          ))}
        </ol>
      </section>
      <details className="turn-events">
        <summary>Every event of this turn, as stored ({turn.events.length})</summary>
        <ul aria-label="Events of this turn">
          {turn.events.map((event) => (
            <li key={event.seq}>
              <RawEvent
                seq={event.seq}
                label={`#${event.seq} ${event.kind}${event.known ? '' : ' (unknown kind)'}`}
              />
            </li>
          ))}
        </ul>
      </details>
    </>
  );
}

const MEMORY_STEP_LABELS = { appended: 'Added', merged: 'Merged in', value: 'New value' } as const;

const PART_LABELS: Record<PromptPart, string> = {
  system: 'How to answer (from LeMMing)',
  role: "The agent's role",
  skills: 'Skills',
  memory: 'Memory',
  inbox: 'Inbox',
  user: 'The situation',
  assistant: 'Model',
  tool: 'Tool result',
};

function ChatMessage({ message }: { message: PromptMessage }) {
  return (
    <li className={`chat-message part-${message.part}`} data-part={message.part}>
      <div className="chat-label">
        <span className="chat-role">{message.role}</span> {PART_LABELS[message.part]}
      </div>
      <pre className="chat-text" tabIndex={0}>
        {message.content}
      </pre>
    </li>
  );
}

function stepKey(step: TurnStep): number {
  switch (step.type) {
    case 'model_call':
      return step.call.seq;
    case 'tool_call':
      return step.call.callSeq;
    default:
      return step.seq;
  }
}

/** A step of a turn; in a rehearsal, what was not done says it would have been. */
function Step({ step, rehearsal }: { step: TurnStep; rehearsal: boolean }) {
  switch (step.type) {
    case 'model_call':
      return <ModelCallStep call={step.call} />;
    case 'tool_call':
      return <ToolCallStep call={step.call} />;
    case 'memory_update':
      return (
        <StepItem
          kind="memory"
          testId="memory-update"
          icon="◆"
          seq={step.seq}
          head={
            <>
              {rehearsal ? 'Would change memory' : 'Memory'}: {step.op} <code>{step.key}</code>
            </>
          }
        >
          {step.value !== null && (
            <div>
              <div className="pair-label">{MEMORY_STEP_LABELS[step.shows]}</div>
              <pre className="step-text">{step.value}</pre>
            </div>
          )}
        </StepItem>
      );
    case 'message':
      return (
        <StepItem
          kind="message"
          testId="message-sent"
          icon="✉"
          seq={step.seq}
          head={
            <>
              {rehearsal ? 'Would send' : 'Sent'} a {step.messageKind} to{' '}
              {step.to.length === 0 ? 'everyone' : step.to.join(', ')}
            </>
          }
        >
          <p className="step-text">{step.text}</p>
        </StepItem>
      );
    case 'credit':
      return (
        <StepItem
          kind="credit"
          testId="credit"
          icon="¢"
          seq={step.seq}
          head={
            <>
              Charged {credits(-step.amount)} for {step.reason}
            </>
          }
        />
      );
    case 'other':
      return (
        <StepItem
          kind="other"
          testId="other-event"
          icon="•"
          seq={step.seq}
          head={
            <span>
              {sentenceCase(step.kind.replaceAll('_', ' '))}
              {step.text && <span className="muted">: {step.text}</span>}
            </span>
          }
        />
      );
  }
}

/** One step of the tree: an icon and a line saying what happened, its details, and its raw JSON. */
function StepItem({
  kind,
  testId,
  icon,
  head,
  seq,
  children,
}: {
  kind: string;
  testId: string;
  icon: string;
  head: ReactNode;
  seq: number;
  children?: ReactNode;
}) {
  return (
    <li className={`turn-step step-${kind}`} data-testid={testId}>
      <div className="step-head">
        <span className="step-icon" aria-hidden="true">
          {icon}
        </span>
        {head}
      </div>
      {children}
      <RawEvent seq={seq} />
    </li>
  );
}

/** A model call of the turn; one an MCP server asked for during a tool call is shown under that call. */
function ModelCallStep({ call }: { call: InspectedModelCall }) {
  return (
    <li
      className={`turn-step step-model${call.askedBy ? ' asked-by-server' : ''}${call.error ? ' failed' : ''}`}
      data-testid="model-call"
    >
      <div className="step-head">
        <span className="step-icon" aria-hidden="true">
          ✦
        </span>
        {call.askedBy ? (
          <>
            Question from the server {call.askedBy.server} during {call.askedBy.tool}, answered by{' '}
            {call.model}
          </>
        ) : (
          <>
            Model call{call.round !== null && ` ${call.round}`}: {call.model}
          </>
        )}
      </div>
      <dl className="step-numbers">
        <div>
          <dt>Latency</dt>
          <dd>{call.latencyMs === null ? '—' : duration(call.latencyMs)}</dd>
        </div>
        <div>
          <dt>Tokens</dt>
          <dd data-testid="model-call-tokens">
            {tokens(call.inputTokens ?? 0)} in, {tokens(call.outputTokens ?? 0)} out
            {call.cachedInputTokens ? ` (${tokens(call.cachedInputTokens)} cached)` : ''}
          </dd>
        </div>
        <div>
          <dt>Cost</dt>
          <dd data-testid="model-call-cost">{call.cost === null ? '—' : credits(call.cost)}</dd>
        </div>
        {call.stop && (
          <div>
            <dt>Stopped</dt>
            <dd>{call.stop}</dd>
          </div>
        )}
      </dl>
      {call.error && (
        <p className="step-error" role="note">
          Failed: {call.error}
        </p>
      )}
      {call.answer !== null && (
        <details>
          <summary>The model's answer</summary>
          <pre className="step-text">{call.answer}</pre>
        </details>
      )}
      <RawEvent seq={call.seq} />
    </li>
  );
}

function ToolCallStep({ call }: { call: InspectedToolCall }) {
  const titles = useToolTitles();
  const outcome = call.heldBack
    ? 'held-back'
    : call.startedBeforeStop
      ? 'unknown'
      : call.success === null
        ? 'no result'
        : call.success
          ? 'success'
          : 'error';
  return (
    <li className={`turn-step step-tool outcome-${outcome}`} data-testid="tool-call" data-outcome={outcome}>
      <div className="step-head">
        <span className="step-icon" aria-hidden="true">
          ⚙
        </span>
        {toolWords(call.tool, titles)}
        <span className={`tool-outcome ${outcome}`} data-testid="tool-outcome">
          {call.heldBack
            ? 'Held back: not run in a rehearsal'
            : call.startedBeforeStop
              ? 'Started before the app stopped; whether it finished is not known'
              : call.success === null
                ? 'no result recorded'
                : call.success
                  ? '✓ succeeded'
                  : '✕ failed'}
        </span>
        {call.durationMs !== null && <span className="muted">{duration(call.durationMs)}</span>}
      </div>
      <div className="tool-pair">
        <div>
          <div className="pair-label">Asked with</div>
          <pre className="step-text">{call.args}</pre>
        </div>
        <div data-testid="tool-result">
          <div className="pair-label">
            {call.heldBack ? 'What the model was told' : call.success === false ? 'Error' : 'Result'}
          </div>
          <pre className="step-text">{call.success === false ? call.error : (call.output ?? '—')}</pre>
          {call.attachments?.map((attachment) => (
            <ToolAttachmentView key={attachment.sha256} attachment={attachment} />
          ))}
          {call.structured !== undefined && (
            <details data-testid="tool-structured">
              <summary>Structured content</summary>
              <pre className="step-text">{call.structured}</pre>
            </details>
          )}
        </div>
      </div>
      <Advanced>
        Tool id: <code>{call.tool}</code>
      </Advanced>
      <RawEvent seq={call.callSeq} label="Raw JSON of the call" />
      {call.resultSeq !== null && <RawEvent seq={call.resultSeq} label="Raw JSON of the result" />}
    </li>
  );
}

type ToolAttachment = NonNullable<InspectedToolCall['attachments']>[number];

/** An image a tool gave, shown; a sound, playable. Its bytes are read from where the engine keeps them. */
function ToolAttachmentView({ attachment }: { attachment: ToolAttachment }) {
  const [source, setSource] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    void serverState()
      .read('timeline.attachment', { sha256: attachment.sha256 })
      .then((result) => {
        if (!live) return;
        if (result.ok) setSource(`data:${attachment.mime_type};base64,${result.value.base64}`);
        else setProblem(result.error.message);
      });
    return () => {
      live = false;
    };
  }, [attachment.sha256, attachment.mime_type]);
  const what = `${attachment.kind === 'image' ? 'Image' : 'Sound'} from the tool (${attachment.mime_type}, ${attachment.bytes} bytes)`;
  return (
    <figure className="tool-attachment" data-testid="tool-attachment">
      {problem ? (
        <p className="muted">{problem}</p>
      ) : source === null ? (
        <p className="muted">Loading…</p>
      ) : attachment.kind === 'image' ? (
        <img src={source} alt={what} />
      ) : (
        <audio controls src={source} aria-label={what} />
      )}
      <figcaption className="muted">{what}</figcaption>
    </figure>
  );
}

/** One event's JSON exactly as stored, read when the disclosure is first opened. */
function RawEvent({ seq, label = 'Raw JSON' }: { seq: number; label?: string }) {
  const [text, setText] = useState<string | null>(null);
  return (
    <details
      className="raw-json"
      onToggle={(event) => {
        if (!(event.currentTarget as HTMLDetailsElement).open || text !== null) return;
        void serverState()
          .read('timeline.get', { seq })
          .then((result) => setText(result.ok ? formatJsonText(result.value.json) : result.error.message));
      }}
    >
      <summary>{label}</summary>
      <pre tabIndex={0} aria-label={`${label} (event ${seq})`}>
        {text ?? 'Loading…'}
      </pre>
    </details>
  );
}

function sentenceCase(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
