import { useId, useState } from 'react';
import type { ModelInfo, ModelList, ProviderInfo } from '../../../../engine/api';
import { valueOf, write } from '../../server-state/write';
import { Badge } from '../../components/Badge';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { EmptyState } from '../../components/EmptyState';
import { RawJson } from '../../components/RawJson';
import { toast } from '../../components/toast-store';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useQuery } from '../../server-state/use-query';
import { ModelForm } from './ModelForm';
import { ModelSetupForm } from './ModelSetupForm';

/** The org's models (models.json): provider, model, endpoint and key, each with a connection test. */
export function ModelsSection() {
  const headingId = useId();
  const { result, replace: saved } = useQuery('models.list', {});
  const list = result?.ok ? result.value : null;

  return (
    <section className="panel" aria-labelledby={headingId}>
      <h3 id={headingId}>Models and providers</h3>
      {result && !result.ok ? (
        <ErrorAlert error={result.error} title="Could not read the models." />
      ) : list === null ? (
        <p className="muted">Reading the models…</p>
      ) : (
        <>
          {[...list.problems, ...list.warnings].map((problem, index) => (
            <p key={index} className="inline-error">
              <code>{problem.file}</code> {problem.field && <code>{problem.field}</code>}: {problem.message}
            </p>
          ))}
          {list.models.length === 0 ? (
            <EmptyState title="No models yet">
              <p>Add a model below so your agents have something to think with.</p>
            </EmptyState>
          ) : (
            <ul className="model-list" aria-label="Models">
              {list.models.map((model) => (
                <ModelCard key={model.key} model={model} providers={list.providers} onChanged={saved} />
              ))}
            </ul>
          )}
          <ModelSetupForm providers={list.providers} onAdded={saved} />
          <RawJson value={list} label="Advanced: the models as the app stores them" />
        </>
      )}
    </section>
  );
}

function providerWords(providers: ProviderInfo[], name: string): string {
  const provider = providers.find((item) => item.name === name);
  return provider ? `${provider.service}${provider.local ? ' (on this computer)' : ''}` : name;
}

function ModelCard({
  model,
  providers,
  onChanged,
}: {
  model: ModelInfo;
  providers: ProviderInfo[];
  onChanged: (list: ModelList) => void;
}) {
  const [removing, setRemoving] = useState(false);
  const provider = providers.find((item) => item.name === model.provider);

  const remove = async () => {
    setRemoving(false);
    const updated = await write(
      'models.update',
      { action: 'remove', key: model.key },
      { progress: `Removing ${model.key}…`, failure: `Could not remove ${model.key}` },
    ).then(valueOf);
    if (updated) {
      onChanged(updated);
      toast.success(`Removed the model ${model.key}`);
    }
  };

  return (
    <li className="model-card" aria-label={model.key} data-model={model.key}>
      <div className="model-heading">
        <strong>{model.key}</strong>
        <span className="muted">{providerWords(providers, model.provider)}</span>
        {model.apiKeySet === true && <Badge tone="ok">Key is set</Badge>}
        {model.apiKeySet === false &&
          (provider?.needsApiKey && model.apiKeySecret === null ? (
            <Badge tone="warn">Needs an API key</Badge>
          ) : (
            <Badge tone="bad">Key not set</Badge>
          ))}
      </div>
      <p className="muted small">
        {model.usedBy.length > 0 ? `Used by ${model.usedBy.join(', ')}` : 'No agent uses this model yet'}
      </p>
      <ModelForm
        mode="edit"
        model={model}
        providers={providers}
        onSaved={onChanged}
        onRemove={() => setRemoving(true)}
      />
      <ConfirmDialog
        open={removing}
        title={`Remove ${model.key}?`}
        confirmLabel="Remove model"
        destructive
        onConfirm={() => void remove()}
        onCancel={() => setRemoving(false)}
      >
        <p>
          The model leaves the org’s list of models.
          {model.usedBy.length > 0 ? ` ${model.usedBy.join(', ')} will need another model.` : ''}
        </p>
      </ConfirmDialog>
    </li>
  );
}
