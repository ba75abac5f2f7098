import { useId, useState, type FormEvent } from 'react';
import type { SecretListItem } from '../../../../engine/api';
import { valueOf, write } from '../../server-state/write';
import { Badge } from '../../components/Badge';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { EmptyState } from '../../components/EmptyState';
import { toast } from '../../components/toast-store';
import { ErrorAlert } from '../../components/ErrorAlert';
import { serverState } from '../../server-state/instance';
import { useQuery } from '../../server-state/use-query';
import { useTrustStore } from '../../stores/trust-store';

/**
 * API keys and other secrets: write-only. The app can set, replace and delete them; no screen ever shows a
 * value, and the field clears as soon as it is saved.
 */
export function SecretsSection() {
  const headingId = useId();
  const { result } = useQuery('secrets.list', {});
  const secrets = result?.ok ? result.value.secrets : null;
  const store = result?.ok ? result.value.store : null;
  // A change is written through the write helper, which makes the list stale; this waits for the new one.
  const load = () =>
    serverState()
      .read('secrets.list', {})
      .then(() => undefined);

  return (
    <section className="panel" aria-labelledby={headingId}>
      <h3 id={headingId}>API keys and secrets</h3>
      {store && (
        <div className="muted small">
          <p>
            Kept on this computer, never in the org folder. Values cannot be read back, only replaced or
            deleted.
          </p>
          <p>
            A secret is used only by the orgs you allow. Tick <q>This org may use it</q> for each secret this
            org needs; it gets no other.
          </p>
          <details>
            <summary>Advanced</summary>
            Kept {store.location}.
          </details>
        </div>
      )}
      {store && !store.canStore && (
        <p className="inline-error" role="alert">
          Secrets cannot be saved here: {store.reason} {store.fix}
        </p>
      )}
      {result && !result.ok && <ErrorAlert error={result.error} title="Could not read the secret list." />}
      {secrets === null ? (
        <p className="muted">Reading secrets…</p>
      ) : secrets.length === 0 ? (
        <EmptyState title="No secrets yet">
          <p>Add an API key below when a model or connector needs one.</p>
        </EmptyState>
      ) : (
        <ul className="secret-list" aria-label="Secrets">
          {secrets.map((secret) => (
            <SecretRow key={secret.name} secret={secret} disabled={!store?.canStore} onChanged={load} />
          ))}
        </ul>
      )}
      <NewSecretForm disabled={!store?.canStore} onAdded={load} />
    </section>
  );
}

function SecretRow({
  secret,
  disabled,
  onChanged,
}: {
  secret: SecretListItem;
  disabled: boolean;
  onChanged: () => Promise<void>;
}) {
  const [value, setValue] = useState('');
  const [deleting, setDeleting] = useState(false);

  const save = async (event: FormEvent) => {
    event.preventDefault();
    const changed = await write(
      'secrets.set',
      { name: secret.name, value },
      { progress: `Saving ${secret.name}…`, failure: `Could not save ${secret.name}` },
    ).then(valueOf);
    setValue('');
    if (!changed) return;
    toast.success(changed.existed ? `Replaced ${secret.name}` : `Set ${secret.name}`);
    await onChanged();
  };

  const remove = async () => {
    setDeleting(false);
    const changed = await write(
      'secrets.delete',
      { name: secret.name },
      { progress: `Deleting ${secret.name}…`, failure: `Could not delete ${secret.name}` },
    ).then(valueOf);
    if (!changed) return;
    toast.success(`Deleted ${secret.name}`);
    await onChanged();
  };

  return (
    <li className="secret-row" aria-label={secret.name} data-secret={secret.name}>
      <div className="model-heading">
        <code>{secret.name}</code>
        {secret.isSet ? <Badge tone="ok">Is set</Badge> : <Badge tone="bad">Not set</Badge>}
        {secret.source === 'environment' && <span className="muted small">from the environment</span>}
      </div>
      {secret.usedBy.length > 0 && <p className="muted small">Needed by {secret.usedBy.join(', ')}</p>}
      <SecretGrant name={secret.name} />
      <form className="secret-form" onSubmit={(event) => void save(event)}>
        <label>
          <span className="visually-hidden">
            {secret.isSet ? `New value for ${secret.name}` : `Value for ${secret.name}`}
          </span>
          <input
            type="password"
            autoComplete="off"
            value={value}
            onChange={(event) => setValue(event.target.value)}
            placeholder={secret.isSet ? 'Paste a new value to replace it' : 'Paste the value'}
            disabled={disabled}
          />
        </label>
        <button type="submit" disabled={disabled || value === ''}>
          {secret.isSet ? 'Replace' : 'Set'}
        </button>
        {secret.isSet && (
          <button type="button" className="ghost" onClick={() => setDeleting(true)} disabled={disabled}>
            Delete…
          </button>
        )}
      </form>
      <ConfirmDialog
        open={deleting}
        title={`Delete ${secret.name}?`}
        confirmLabel="Delete secret"
        destructive
        onConfirm={() => void remove()}
        onCancel={() => setDeleting(false)}
      >
        <p>
          The value is gone for good; you would need to paste it again.
          {secret.usedBy.length > 0 ? ` ${secret.usedBy.join(', ')} will stop working until you do.` : ''}
        </p>
      </ConfirmDialog>
    </li>
  );
}

/** Whether the open org may use this secret (the person's grant, kept outside the org). */
function SecretGrant({ name }: { name: string }) {
  const granted = useTrustStore((store) => store.trust?.grants.secrets.includes(name) ?? null);
  const grant = useTrustStore((store) => store.grant);
  // The box follows the click at once; the record's answer settles it.
  const [asked, setAsked] = useState<boolean | null>(null);
  if (granted === null) return null;
  const change = async (on: boolean) => {
    setAsked(on);
    await grant({ kind: 'secret', name, granted: on });
    setAsked(null);
  };
  return (
    <label className="secret-grant">
      <input
        type="checkbox"
        checked={asked ?? granted}
        onChange={(event) => void change(event.target.checked)}
      />
      This org may use it
    </label>
  );
}

function NewSecretForm({ disabled, onAdded }: { disabled: boolean; onAdded: () => Promise<void> }) {
  const [name, setName] = useState('');
  const [value, setValue] = useState('');

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const changed = await write(
      'secrets.set',
      { name, value },
      { progress: `Saving ${name}…`, failure: `Could not save ${name}` },
    ).then(valueOf);
    setValue('');
    if (!changed) return;
    toast.success(changed.existed ? `Replaced ${name}` : `Set ${name}`);
    setName('');
    await onAdded();
  };

  return (
    <details className="add-model">
      <summary>Add a secret</summary>
      <form className="field-grid" onSubmit={(event) => void submit(event)}>
        <label>
          Secret name
          <input
            value={name}
            onChange={(event) => setName(event.target.value.toUpperCase())}
            placeholder="e.g. OPENAI_API_KEY"
            spellCheck={false}
            disabled={disabled}
          />
        </label>
        <label>
          Secret value
          <input
            type="password"
            autoComplete="off"
            value={value}
            onChange={(event) => setValue(event.target.value)}
            disabled={disabled}
          />
        </label>
        <div>
          <button type="submit" disabled={disabled || !name || !value}>
            Save secret
          </button>
        </div>
      </form>
    </details>
  );
}
