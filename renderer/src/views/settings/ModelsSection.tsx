import { useEffect, useId, useState, type FormEvent } from 'react';
import type { ModelInfo, ModelList, ProviderInfo } from '../../../../engine/api';
import { attempt } from '../../components/activity-store';
import { Badge } from '../../components/Badge';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { EmptyState } from '../../components/EmptyState';
import { RawJson } from '../../components/RawJson';
import { toast } from '../../components/toast-store';
import { lemming } from '../../lemming';
import { ModelSetupForm, SERVER_PROVIDERS } from './ModelSetupForm';

/** The org's models (models.json): provider, model, endpoint and key, each with a connection test. */
export function ModelsSection({ onModelsSaved }: { onModelsSaved?: () => void }) {
  const headingId = useId();
  const [list, setList] = useState<ModelList | null>(null);
  const saved = (next: ModelList) => {
    setList(next);
    onModelsSaved?.();
  };

  useEffect(() => {
    let live = true;
    void lemming()
      .models.list()
      .then((result) => {
        if (!live) return;
        if (result.ok) setList(result.value);
        else toast.error('Could not read the models', result.error);
      });
    return () => {
      live = false;
    };
  }, []);

  return (
    <section className="panel" aria-labelledby={headingId}>
      <h3 id={headingId}>Models and providers</h3>
      {list === null ? (
        <p className="muted">Reading models.json…</p>
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
          <RawJson value={list} label="Show models as JSON" />
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
  const [baseUrl, setBaseUrl] = useState(model.baseUrl ?? '');
  const [modelName, setModelName] = useState(model.modelName);
  const [secret, setSecret] = useState(model.apiKeySecret ?? '');
  const [apiKey, setApiKey] = useState('');
  const [test, setTest] = useState<
    { ok: boolean; message: string; latencyMs: number | null } | 'testing' | null
  >(null);
  const [removing, setRemoving] = useState(false);
  const provider = providers.find((item) => item.name === model.provider);

  const save = async (event: FormEvent) => {
    event.preventDefault();
    // A new key goes to the secret store with the model; otherwise only the fields change.
    const updated = await attempt(`Saving ${model.key}…`, `Could not save ${model.key}`, () =>
      apiKey.trim()
        ? lemming().models.add({
            key: model.key,
            provider: model.provider,
            modelName: modelName.trim(),
            ...(baseUrl.trim() ? { baseUrl: baseUrl.trim() } : {}),
            apiKey: apiKey.trim(),
          })
        : lemming().models.update({
            action: 'set',
            key: model.key,
            patch: {
              model_name: modelName.trim(),
              base_url: baseUrl.trim() === '' ? null : baseUrl.trim(),
              api_key_secret: secret.trim() === '' ? null : secret.trim(),
            },
          }),
    );
    if (!updated) return;
    setApiKey('');
    onChanged(updated);
    toast.success(`Saved ${model.key}`);
  };

  const testConnection = async () => {
    setTest('testing');
    if (provider && SERVER_PROVIDERS.has(provider.name)) {
      const probed = await lemming().models.probe({
        provider: model.provider,
        ...(baseUrl.trim() ? { baseUrl: baseUrl.trim() } : {}),
        ...(apiKey.trim() ? { apiKey: apiKey.trim() } : {}),
        existingModel: model.key,
        modelName: modelName.trim(),
      });
      if (probed.ok) setTest(probed.value);
      else setTest({ ok: false, message: probed.error.message, latencyMs: null });
      return;
    }
    const result = await lemming().settings.testConnection({ model: model.key });
    if (result.ok) setTest(result.value);
    else setTest({ ok: false, message: result.error.message, latencyMs: null });
  };

  const remove = async () => {
    setRemoving(false);
    const updated = await attempt(`Removing ${model.key}…`, `Could not remove ${model.key}`, () =>
      lemming().models.update({ action: 'remove', key: model.key }),
    );
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
        {model.apiKeySet === false && <Badge tone="bad">Key not set</Badge>}
        {provider?.needsApiKey && model.apiKeySecret === null && model.apiKeyEnv === null && (
          <Badge tone="warn">Needs an API key</Badge>
        )}
      </div>
      <p className="muted small">
        {model.usedBy.length > 0 ? `Used by ${model.usedBy.join(', ')}` : 'No agent uses this model yet'}
      </p>
      <form className="field-grid" onSubmit={(event) => void save(event)}>
        <label>
          Model name
          <input
            value={modelName}
            onChange={(event) => setModelName(event.target.value)}
            spellCheck={false}
          />
        </label>
        <label>
          Base URL
          <input
            value={baseUrl}
            onChange={(event) => setBaseUrl(event.target.value)}
            placeholder={provider?.defaultBaseUrl ?? 'The provider’s default'}
            spellCheck={false}
          />
        </label>
        {provider && SERVER_PROVIDERS.has(provider.name) && (
          <label>
            API key
            <input
              type="password"
              value={apiKey}
              onChange={(event) => setApiKey(event.target.value)}
              autoComplete="off"
              spellCheck={false}
              placeholder={model.apiKeySet ? 'Saved. Paste a new key to replace it' : 'Paste the API key'}
            />
          </label>
        )}
        <details className="advanced">
          <summary>Advanced</summary>
          <label>
            Name of the secret that holds the key
            <input
              value={secret}
              onChange={(event) => setSecret(event.target.value.toUpperCase())}
              placeholder="e.g. OPENAI_API_KEY"
              spellCheck={false}
            />
          </label>
        </details>
        <div className="button-row">
          <button type="submit">Save {model.key}</button>
          <button type="button" onClick={() => void testConnection()} disabled={test === 'testing'}>
            {test === 'testing' ? 'Testing…' : 'Test connection'}
          </button>
          <button type="button" className="ghost" onClick={() => setRemoving(true)}>
            Remove…
          </button>
        </div>
      </form>
      <div role="status" className="test-result">
        {test !== null && test !== 'testing' && (
          <span className={test.ok ? 'test-ok' : 'test-bad'}>
            <strong>{test.ok ? 'Connected.' : 'Not connected.'}</strong> {test.message}
          </span>
        )}
      </div>
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
