import { useState } from 'react';
import type { HumanInboxMessage, HumanInboxPage, HumanReply } from '../../../../engine/api';
import { serverState } from '../../server-state/instance';
import { useQuery } from '../../server-state/use-query';
import { write } from '../../server-state/write';
import { openTurn } from '../../stores/open-turn';
import { ErrorAlert } from '../../components/ErrorAlert';
import './inbox.css';

/** Messages for the human: what agents addressed to you, and notes to everyone from agents you read. */
export function InboxView() {
  const { result, replace } = useQuery('inbox.page', {});

  const markRead = async (input: { seqs?: number[]; all?: boolean }) => {
    const marked = await serverState().write('inbox.markRead', input);
    if (!marked.ok || !result?.ok) return;
    serverState().replace('inbox.unread', {}, { unread: marked.value.unread });
    replace(withRead(result.value, input, marked.value.unread));
  };

  return (
    <section className="inbox" aria-labelledby="inbox-heading">
      <div className="view-toolbar">
        <h2 id="inbox-heading">Messages for you</h2>
        {result?.ok && result.value.unread > 0 && (
          <button type="button" onClick={() => void markRead({ all: true })}>
            Mark all as read
          </button>
        )}
      </div>
      <p className="muted">
        What agents sent to you, and what agents you follow sent to everyone. Your replies go to the agent
        that wrote, through your outbox.
      </p>
      {result === null && <p role="status">Reading your messages…</p>}
      {result?.ok === false && <ErrorAlert error={result.error} title="Could not read your messages." />}
      {result?.ok && result.value.messages.length === 0 && (
        <p className="muted">No messages for you yet. Agents that write to “human” show up here.</p>
      )}
      {result?.ok && result.value.messages.length > 0 && (
        <ol className="inbox-list" aria-label="Your messages">
          {result.value.messages.map((message) => (
            <InboxItem
              key={message.seq}
              message={message}
              onRead={() => void markRead({ seqs: [message.seq] })}
              onReplied={(reply) => {
                replace(withReply(withRead(result.value, { seqs: [message.seq] }, null), message.seq, reply));
              }}
            />
          ))}
        </ol>
      )}
    </section>
  );
}

function withRead(
  page: HumanInboxPage,
  input: { seqs?: number[]; all?: boolean },
  unread: number | null,
): HumanInboxPage {
  const seqs = new Set(input.seqs ?? []);
  const messages = page.messages.map((message) =>
    input.all || seqs.has(message.seq) ? { ...message, read: true } : message,
  );
  return { ...page, messages, unread: unread ?? messages.filter((message) => !message.read).length };
}

/** The reply just sent, under its message at once (the next read of the inbox has it too). */
function withReply(page: HumanInboxPage, seq: number, reply: HumanReply): HumanInboxPage {
  return {
    ...page,
    messages: page.messages.map((message) =>
      message.seq === seq ? { ...message, replies: [...message.replies, reply] } : message,
    ),
  };
}

function InboxItem({
  message,
  onRead,
  onReplied,
}: {
  message: HumanInboxMessage;
  onRead: () => void;
  onReplied: (reply: HumanReply) => void;
}) {
  const [replying, setReplying] = useState(false);
  const [text, setText] = useState('');
  const [sending, setSending] = useState(false);
  const label = `Message from ${message.from}`;

  const send = async () => {
    setSending(true);
    const sent = await write(
      'inbox.reply',
      { seq: message.seq, text },
      {
        progress: 'Sending your reply…',
        failure: 'Your reply was not sent.',
        success: {
          title: `Reply sent to ${message.from}.`,
          detail: 'It is in your outbox for the next tick.',
        },
      },
    );
    setSending(false);
    if (!sent.ok) return;
    setReplying(false);
    setText('');
    onReplied({ text: text.trim(), tick: sent.value.tick, sentAt: new Date().toISOString() });
  };

  return (
    <li className={`inbox-item${message.read ? '' : ' unread'}`} aria-label={label} data-seq={message.seq}>
      <div className="inbox-head">
        {!message.read && <span className="unread-dot" aria-label="Unread" role="img" />}
        <strong>{message.from}</strong>
        <span className="muted">
          {message.addressed ? 'to you' : 'to everyone'} · {message.kind}
          {message.tick !== null && <> · tick {message.tick}</>}
        </span>
        {message.importance && message.importance !== 'normal' && (
          <span className="importance">{message.importance === 'critical' ? 'Critical' : 'Important'}</span>
        )}
      </div>
      {message.text.trim() === '' ? (
        <p className="inbox-text muted" data-empty-message>
          (empty message)
        </p>
      ) : (
        <p className="inbox-text">{message.text}</p>
      )}
      {message.replies.length > 0 && (
        <ol className="inbox-replies" aria-label={`Your replies to ${message.from}`}>
          {message.replies.map((reply, index) => (
            <li key={index} className="inbox-reply-sent">
              <span className="muted">You replied{reply.tick !== null && <> · tick {reply.tick}</>}</span>
              <p className="inbox-text">{reply.text}</p>
            </li>
          ))}
        </ol>
      )}
      <div className="inbox-actions">
        <button type="button" onClick={() => setReplying((open) => !open)} aria-expanded={replying}>
          Reply
        </button>
        {!message.read && (
          <button type="button" onClick={onRead}>
            Mark as read
          </button>
        )}
        {message.tick !== null && (
          <button type="button" className="link-button" onClick={() => openTurn(message.from, message.tick!)}>
            See the turn that wrote it
          </button>
        )}
      </div>
      {replying && (
        <form
          className="inbox-reply"
          onSubmit={(event) => {
            event.preventDefault();
            void send();
          }}
        >
          <label>
            Reply to {message.from}
            <textarea value={text} onChange={(event) => setText(event.target.value)} rows={3} required />
          </label>
          <button type="submit" disabled={sending || text.trim() === ''}>
            {sending ? 'Sending…' : 'Send reply'}
          </button>
        </form>
      )}
    </li>
  );
}
