import { useCallback, useId, useState } from 'react';
import { toolWords, type AnswerApprovalInput, type ApprovalRequest } from '../../../../engine/api';
import { Advanced } from '../../components/Advanced';
import { valueOf, write } from '../../server-state/write';
import { useQuery } from '../../server-state/use-query';
import { FormCard } from './FormCard';
import { useComesIntoView } from './use-comes-into-view';
import './approvals.css';

/** Calls waiting for the person's approval: read once, then again on every `approvals.changed` ping. */
function usePendingApprovals(): [ApprovalRequest[], (requests: ApprovalRequest[]) => void] {
  const { result, replace } = useQuery('approvals.pending', {});
  const requests = result?.ok ? result.value.requests : [];
  return [requests, useCallback((left: ApprovalRequest[]) => replace({ requests: left }), [replace])];
}

/** One card per waiting call, above every view: who asks, for which tool, with what, and why. */
export function ApprovalCards() {
  const [requests, setRequests] = usePendingApprovals();
  const answer = useCallback(
    async (input: AnswerApprovalInput) => {
      const left = await write('approvals.answer', input, {
        progress: 'Sending your answer…',
        failure: 'Your answer could not be given',
      }).then(valueOf);
      if (left) setRequests(left.requests);
    },
    [setRequests],
  );
  if (requests.length === 0) return null;
  return (
    <section className="approval-cards" aria-label="Waiting for your approval">
      {requests.map((request) =>
        request.form ? (
          <FormCard
            key={request.id}
            request={request}
            onAnswered={() => setRequests(requests.filter((other) => other.id !== request.id))}
          />
        ) : (
          <ApprovalCard key={request.id} request={request} onAnswer={answer} />
        ),
      )}
    </section>
  );
}

function ApprovalCard({
  request,
  onAnswer,
}: {
  request: ApprovalRequest;
  onAnswer(input: AnswerApprovalInput): Promise<void>;
}) {
  const headingId = useId();
  const reasonId = useId();
  const [denying, setDenying] = useState(false);
  const [reason, setReason] = useState('');
  const card = useComesIntoView();
  const deadline = new Date(request.expires_at).toLocaleTimeString();
  return (
    <article
      ref={card}
      className="approval-card"
      role="alertdialog"
      aria-labelledby={headingId}
      data-request-id={request.id}
      tabIndex={-1}
    >
      <h2 id={headingId}>
        {request.agent} wants to use {toolWords(request.tool, request.title)}
      </h2>
      <p className="approval-why">{request.reason}</p>
      {request.changes && request.changes.length > 0 && (
        <div className="approval-changes" role="group" aria-label="What changed">
          <p>What changed:</p>
          <ul>
            {request.changes.map((change) => (
              <li key={change}>{change}</li>
            ))}
          </ul>
        </div>
      )}
      <p className="approval-args-label">Exactly what it will do:</p>
      <pre className="approval-args">{JSON.stringify(request.args, null, 2)}</pre>
      <Advanced>
        Tool id: <code>{request.tool}</code>
      </Advanced>
      <p className="muted">
        Only {request.agent} waits for your answer; the other agents go on. If you do not answer by {deadline}
        , the call is denied.
      </p>
      {denying ? (
        <form
          className="approval-deny"
          onSubmit={(event) => {
            event.preventDefault();
            void onAnswer({ id: request.id, answer: 'deny', ...(reason.trim() ? { reason } : {}) });
          }}
        >
          <label htmlFor={reasonId}>Why not? {request.agent} is told this.</label>
          <input
            id={reasonId}
            value={reason}
            maxLength={2000}
            onChange={(event) => setReason(event.target.value)}
            autoFocus
          />
          <div className="approval-actions">
            <button type="button" onClick={() => setDenying(false)}>
              Back
            </button>
            <button type="submit" className="danger">
              Deny
            </button>
          </div>
        </form>
      ) : (
        <div className="approval-actions">
          <button
            type="button"
            className="primary"
            onClick={() => void onAnswer({ id: request.id, answer: 'approve_once' })}
          >
            Allow once
          </button>
          <button type="button" onClick={() => void onAnswer({ id: request.id, answer: 'approve_always' })}>
            Always allow for {request.agent}
          </button>
          <button type="button" onClick={() => setDenying(true)}>
            Deny…
          </button>
        </div>
      )}
    </article>
  );
}
