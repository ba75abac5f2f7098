import { useId, useState, type FormEvent } from 'react';
import { GlossaryLink } from '../../components/Glossary';
import { isHumanOperator, type AgentListItem } from '../../../../engine/api';
import { valueOf, write } from '../../server-state/write';
import { toast } from '../../components/toast-store';
import './run.css';

type Importance = 'normal' | 'high' | 'critical';

/** A message from you to the agents: it lands in the human outbox, where agents that read it will see it. */
export function SendMessageForm({ agents }: { agents: AgentListItem[] }) {
  const headingId = useId();
  const [text, setText] = useState('');
  const [target, setTarget] = useState('');
  const [importance, setImportance] = useState<Importance>('normal');
  const [sending, setSending] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!text.trim()) return;
    setSending(true);
    const sent = await write(
      'messages.send',
      { text, importance, ...(target ? { target } : {}) },
      { progress: 'Sending the message…', failure: 'Could not send the message' },
    ).then(valueOf);
    setSending(false);
    if (!sent) return;
    setText('');
    toast.success(
      'Message sent',
      `${target ? `For ${target}` : 'For every agent that reads your outbox'}; agents see it from tick ${sent.tick}.`,
    );
  };

  return (
    <section className="panel" aria-labelledby={headingId}>
      <h2 id={headingId}>Message the agents</h2>
      <p className="muted small">
        Your message goes to your <GlossaryLink term="outbox" />; the agents that listen to you read it in
        their next turn.
      </p>
      <form className="message-form" onSubmit={(event) => void submit(event)}>
        <label>
          <span className="visually-hidden">Message to the agents</span>
          <textarea
            value={text}
            onChange={(event) => setText(event.target.value)}
            placeholder="Write to your agents, e.g. “Please draft the launch note by tick 10.”"
            maxLength={100_000}
          />
        </label>
        <div className="row">
          <label>
            To
            <select value={target} onChange={(event) => setTarget(event.target.value)}>
              <option value="">Everyone who reads your messages</option>
              {agents
                .filter((agent) => !isHumanOperator(agent.name))
                .map((agent) => (
                  <option key={agent.folder} value={agent.name}>
                    {agent.name}
                  </option>
                ))}
            </select>
          </label>
          <label>
            Importance
            <select value={importance} onChange={(event) => setImportance(event.target.value as Importance)}>
              <option value="normal">Normal</option>
              <option value="high">High</option>
              <option value="critical">Critical</option>
            </select>
          </label>
          <button type="submit" className="primary" disabled={sending || !text.trim()}>
            {sending ? 'Sending…' : 'Send message'}
          </button>
        </div>
      </form>
    </section>
  );
}
