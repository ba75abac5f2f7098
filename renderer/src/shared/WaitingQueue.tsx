import { useState } from 'react';
import { toolWords, type AnswerApprovalInput, type ApprovalRequest } from '../../../engine/api';
import { showWaiting } from '../components/AgentStateBadge';
import { Drawer } from '../components/Dialog';
import { useQuery } from '../server-state/use-query';
import { valueOf, write } from '../server-state/write';
import '../views/approvals/approvals.css';

/** "Waiting for you (N)" in the run bar while anything waits for the person; opens the queue. */
export function WaitingForYouButton() {
  const { result, replace } = useQuery('approvals.pending', {});
  const requests = result?.ok ? result.value.requests : [];
  const [open, setOpen] = useState(false);
  if (requests.length === 0 && !open) return null;
  return (
    <>
      {requests.length > 0 && (
        <button type="button" className="waiting-queue-open" onClick={() => setOpen(true)}>
          Waiting for you ({requests.length})
        </button>
      )}
      {open && (
        <WaitingQueue
          requests={requests}
          onAnswered={(left) => replace({ requests: left })}
          onClose={() => setOpen(false)}
        />
      )}
    </>
  );
}

/**
 * Everything waiting for the person, oldest first: which agent, since when, what it asks. An approval
 * is answered here; a form is filled in on its card, which "Fill in the form" brings into view.
 */
function WaitingQueue({
  requests,
  onAnswered,
  onClose,
}: {
  requests: ApprovalRequest[];
  onAnswered(left: ApprovalRequest[]): void;
  onClose(): void;
}) {
  const answer = async (input: AnswerApprovalInput) => {
    const left = await write('approvals.answer', input, {
      progress: 'Sending your answer…',
      failure: 'Your answer could not be given',
    }).then(valueOf);
    if (left) onAnswered(left.requests);
  };
  return (
    <Drawer title="Waiting for you" onClose={onClose} className="waiting-queue">
      {requests.length === 0 ? (
        <p>Nothing waits for you now.</p>
      ) : (
        <>
          <p className="muted">
            Oldest first. Each agent here waits for your answer; the other agents go on. Its turn goes on
            where it stopped once you answer.
          </p>
          <ol className="waiting-queue-list">
            {requests.map((request) => (
              <WaitingRow
                key={request.id}
                request={request}
                onAnswer={answer}
                onShowForm={() => {
                  onClose();
                  requestAnimationFrame(() => showWaiting(request.id));
                }}
              />
            ))}
          </ol>
        </>
      )}
    </Drawer>
  );
}

function WaitingRow({
  request,
  onAnswer,
  onShowForm,
}: {
  request: ApprovalRequest;
  onAnswer(input: AnswerApprovalInput): Promise<void>;
  onShowForm(): void;
}) {
  const tool = toolWords(request.tool, request.title);
  const what = request.form ? `fill in a form for ${tool}` : `allow ${tool}`;
  const since = new Date(request.asked_at);
  return (
    <li className="waiting-queue-row" aria-label={`${request.agent} asks you to ${what}`}>
      <p className="waiting-queue-what">
        <strong>{request.agent}</strong> asks you to {what}
      </p>
      <p className="muted">
        Waiting since <time dateTime={request.asked_at}>{since.toLocaleString()}</time> ({minutesAgo(since)}),
        from tick {request.tick}
      </p>
      {request.form ? (
        <p>{request.form.message}</p>
      ) : (
        <>
          <p>{request.reason}</p>
          <pre className="waiting-queue-args">{JSON.stringify(request.args)}</pre>
        </>
      )}
      <div className="waiting-queue-actions">
        {request.form ? (
          <button type="button" className="primary" onClick={onShowForm}>
            Fill in the form
          </button>
        ) : (
          <>
            <button
              type="button"
              className="primary"
              onClick={() => void onAnswer({ id: request.id, answer: 'approve_once' })}
            >
              Allow once
            </button>
            <button type="button" onClick={() => void onAnswer({ id: request.id, answer: 'deny' })}>
              Deny
            </button>
          </>
        )}
      </div>
    </li>
  );
}

function minutesAgo(since: Date): string {
  const minutes = Math.floor((Date.now() - since.getTime()) / 60_000);
  if (minutes < 1) return 'less than a minute';
  if (minutes < 60) return `${minutes} minute${minutes === 1 ? '' : 's'}`;
  const hours = Math.floor(minutes / 60);
  return `about ${hours} hour${hours === 1 ? '' : 's'}`;
}
