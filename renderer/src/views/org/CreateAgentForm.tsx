import { useId, useState, type FormEvent } from 'react';
import type { IpcError } from '../../../../engine/api';
import { Dialog } from '../../components/Dialog';
import { serverState } from '../../server-state/instance';
import { useQuery } from '../../server-state/use-query';
import { ErrorAlert } from '../../components/ErrorAlert';

interface Props {
  onCreated(name: string): void;
  onCancel(): void;
}

/** A new agent, in a dialog: the few fields it needs to exist; the Agent view edits the rest. */
export function CreateAgentForm({ onCreated, onCancel }: Props) {
  const id = useId();
  const [name, setName] = useState('');
  const [title, setTitle] = useState('');
  const [model, setModel] = useState('');
  const [every, setEvery] = useState('1');
  const [offset, setOffset] = useState('0');
  const [error, setError] = useState<IpcError | null>(null);
  const [busy, setBusy] = useState(false);

  const { result: modelList } = useQuery('models.list', {});
  const models = modelList?.ok ? modelList.value.models.map((entry) => entry.key) : [];

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    const result = await serverState().write('org.createAgent', {
      name: name.trim(),
      title,
      ...(model ? { model } : {}),
      schedule: { run_every_n_ticks: Number(every), phase_offset: Number(offset) },
    });
    setBusy(false);
    if (!result.ok) return setError(result.error);
    setError(null);
    onCreated(result.value.name);
  }

  return (
    <Dialog title="New agent" className="create-agent-dialog" onClose={onCancel}>
      <form className="create-agent-form" aria-label="New agent" onSubmit={submit}>
        <div className="form-grid">
          <label htmlFor={`${id}-name`}>Name</label>
          <input
            id={`${id}-name`}
            value={name}
            onChange={(event) => setName(event.target.value)}
            required
            aria-describedby={`${id}-name-help`}
          />
          <p id={`${id}-name-help`} className="help">
            Letters, digits, “_” and “-”; it becomes the agent’s folder name.
          </p>
          <label htmlFor={`${id}-title`}>Title</label>
          <input
            id={`${id}-title`}
            value={title}
            onChange={(event) => setTitle(event.target.value)}
            required
          />
          <label htmlFor={`${id}-model`}>Model</label>
          <select id={`${id}-model`} value={model} onChange={(event) => setModel(event.target.value)}>
            <option value="">The org’s first model</option>
            {models.map((key) => (
              <option key={key} value={key}>
                {key}
              </option>
            ))}
          </select>
          <label htmlFor={`${id}-every`}>Runs every … ticks</label>
          <input
            id={`${id}-every`}
            type="number"
            min={1}
            step={1}
            value={every}
            onChange={(event) => setEvery(event.target.value)}
            required
          />
          <label htmlFor={`${id}-offset`}>Phase offset</label>
          <input
            id={`${id}-offset`}
            type="number"
            step={1}
            value={offset}
            onChange={(event) => setOffset(event.target.value)}
            required
          />
        </div>
        {error && <ErrorAlert error={error} title="Could not create the agent." />}
        <div className="form-actions">
          <button type="submit" className="primary-button" disabled={busy}>
            {busy ? 'Creating…' : 'Create agent'}
          </button>
          <button type="button" onClick={onCancel}>
            Cancel
          </button>
        </div>
      </form>
    </Dialog>
  );
}
