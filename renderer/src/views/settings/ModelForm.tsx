import { useId, useState, type FormEvent, type ReactNode } from 'react';
import type {
  IpcError,
  IpcResult,
  LocalServer,
  ModelInfo,
  ModelList,
  ModelProbe,
  ProviderInfo,
  ServerModel,
  SetupField,
  SetupProblem,
} from '../../../../engine/api';
import { useActivity } from '../../components/activity-store';
import { toast } from '../../components/toast-store';
import { serverState } from '../../server-state/instance';
import { placeProblems } from '../../server-state/write';

/** Providers that run on a server; a command or a script has nothing to connect to. */
export const SERVER_PROVIDERS: ReadonlySet<string> = new Set([
  'openai',
  'anthropic',
  'openrouter',
  'ollama',
  'lmstudio',
  'openai-compatible',
  'vllm',
  'llamacpp',
]);

/** The words of the model form, the same whether a model is added or changed. */
export const MODEL_FORM_WORDS = {
  provider: 'Where the model runs',
  baseUrl: 'Server address',
  apiKey: 'API key',
  modelName: 'Model',
  key: 'Name your agents use for it',
  secret: 'Name of the saved key in the secret store',
  listModels: 'Show the server’s models',
  test: 'Test',
} as const;

/** Where an engine refusal of a save points, by the field names of models.add and models.update. */
const FIELD_OF_PATH: Record<string, SetupField> = {
  key: 'key',
  provider: 'provider',
  modelName: 'modelName',
  model_name: 'modelName',
  baseUrl: 'baseUrl',
  base_url: 'baseUrl',
  apiKey: 'apiKey',
  api_key_secret: 'apiKey',
};

type Listing = { state: 'idle' } | { state: 'listing' } | { state: 'listed'; models: ServerModel[] };
type Probe = { state: 'idle' } | { state: 'testing' } | { state: 'done'; probe: ModelProbe };

type ModelFormProps = {
  providers: ProviderInfo[];
  onSaved: (list: ModelList) => void;
} & (
  { mode: 'add'; localServers?: LocalServer[] } | { mode: 'edit'; model: ModelInfo; onRemove: () => void }
);

/** The first field an engine refusal names, as a problem shown at that field. */
function problemOf(error: IpcError): SetupProblem {
  const { byField } = placeProblems(error, (path) => FIELD_OF_PATH[path.split('.').at(-1) ?? ''] ?? null);
  const [field, messages] = Object.entries(byField)[0] ?? [];
  return field && messages?.[0]
    ? { field: field as SetupField, kind: 'other', message: messages[0] }
    : { field: null, kind: 'other', message: error.message };
}

/** Where a pasted key went, and which other models it serves now (every one of the same account). */
function keptWords(list: ModelList, name: string): string {
  const secret = list.models.find((model) => model.key === name)?.keySecret;
  const sharing = list.models.filter((model) => model.key !== name && secret && model.keySecret === secret);
  const shared =
    sharing.length > 0 ? ` The same key now serves ${sharing.map((model) => model.key).join(', ')}.` : '';
  return `Its API key is kept in the secret store on this computer.${shared}`;
}

/**
 * The one model form: adding a model in a minute and changing a saved one use the same fields, words
 * and checks. Where it runs, its address, the API key itself (kept in the secret store, never shown
 * again), a model picked from the server's own list, a Test that says in plain words what is wrong and
 * at which field, and Save.
 */
export function ModelForm(props: ModelFormProps) {
  const { providers, onSaved, mode } = props;
  const saved = mode === 'edit' ? props.model : null;
  const choices =
    mode === 'add' ? providers.filter((provider) => SERVER_PROVIDERS.has(provider.name)) : providers;
  const [provider, setProvider] = useState(saved?.provider ?? choices[0]?.name ?? 'openai');
  const info = providers.find((item) => item.name === provider);
  const onServer = SERVER_PROVIDERS.has(provider);
  const [baseUrl, setBaseUrl] = useState(saved ? (saved.baseUrl ?? '') : (info?.defaultBaseUrl ?? ''));
  const [apiKey, setApiKey] = useState('');
  const [secret, setSecret] = useState(saved?.apiKeySecret ?? '');
  const [modelName, setModelName] = useState(saved?.modelName ?? '');
  const [key, setKey] = useState(saved?.key ?? '');
  const [keyEdited, setKeyEdited] = useState(saved !== null);
  const [listing, setListing] = useState<Listing>({ state: 'idle' });
  const [probe, setProbe] = useState<Probe>({ state: 'idle' });
  const [problem, setProblem] = useState<SetupProblem | null>(null);
  const ids = useId();

  const server = () => ({
    provider,
    ...(baseUrl.trim() ? { baseUrl: baseUrl.trim() } : {}),
    ...(apiKey.trim() ? { apiKey: apiKey.trim() } : {}),
    ...(saved ? { existingModel: saved.key } : {}),
  });

  const chooseProvider = (name: string, address?: string) => {
    setProvider(name);
    setBaseUrl(address ?? providers.find((item) => item.name === name)?.defaultBaseUrl ?? '');
    setListing({ state: 'idle' });
    setProbe({ state: 'idle' });
    setProblem(null);
  };

  const chooseModel = (name: string) => {
    setModelName(name);
    if (!keyEdited) setKey(name);
    setProbe({ state: 'idle' });
    if (problem?.field === 'modelName') setProblem(null);
  };

  const takeLocalServer = (found: LocalServer) => {
    chooseProvider(found.provider, found.baseUrl);
    setListing({ state: 'listed', models: found.models });
    if (found.models[0]) chooseModel(found.models[0].id);
  };

  const listModels = async () => {
    setListing({ state: 'listing' });
    setProblem(null);
    const result = await serverState().read('models.serverModels', server());
    if (!result.ok) {
      setListing({ state: 'idle' });
      setProblem(problemOf(result.error));
      return;
    }
    const listed = result.value;
    if (!listed.ok) {
      setListing({ state: 'idle' });
      setProblem(listed.error);
      return;
    }
    setListing({ state: 'listed', models: listed.value });
    if (listed.value.length > 0 && !listed.value.some((model) => model.id === modelName))
      chooseModel(listed.value[0]!.id);
  };

  const test = async () => {
    setProbe({ state: 'testing' });
    setProblem(null);
    const result: IpcResult<ModelProbe> = onServer
      ? await serverState().write('models.probe', { ...server(), modelName: modelName.trim() })
      : await serverState()
          .write('settings.testConnection', { model: saved?.key ?? key.trim() })
          .then((tested) => (tested.ok ? { ok: true, value: { ...tested.value, problem: null } } : tested));
    if (!result.ok) {
      setProbe({ state: 'idle' });
      setProblem(problemOf(result.error));
      return;
    }
    setProbe({ state: 'done', probe: result.value });
    setProblem(
      result.value.problem ??
        (result.value.ok ? null : { field: null, kind: 'other', message: result.value.message }),
    );
  };

  const save = async (event: FormEvent) => {
    event.preventDefault();
    const name = key.trim();
    setProblem(null);
    const activity = useActivity.getState();
    const id = activity.begin(`Saving ${name}…`);
    // A new model goes to models.json with its key; a saved one changes its fields, then keeps a pasted
    // key under the secret it reads (its provider account's, shared by every model of that provider).
    const result =
      saved === null
        ? await serverState().write('models.add', { ...server(), key: name, modelName: modelName.trim() })
        : await serverState()
            .write('models.update', {
              action: 'set',
              key: saved.key,
              patch: {
                model_name: modelName.trim(),
                base_url: baseUrl.trim() === '' ? null : baseUrl.trim(),
                api_key_secret: secret.trim() === '' ? null : secret.trim(),
              },
            })
            .then((updated) =>
              updated.ok && apiKey.trim()
                ? serverState().write('models.setKey', { model: saved.key, apiKey: apiKey.trim() })
                : updated,
            );
    activity.end(id, result.ok);
    if (!result.ok) {
      setProblem(problemOf(result.error));
      return;
    }
    onSaved(result.value);
    toast.success(`Saved ${name}`, apiKey.trim() ? keptWords(result.value, name) : undefined);
    setApiKey('');
    setProbe({ state: 'idle' });
    if (saved === null) {
      setModelName('');
      setKey('');
      setKeyEdited(false);
      setListing({ state: 'idle' });
    }
  };

  const fieldProps = (field: SetupField) => {
    const failing = problem?.field === field;
    return {
      'aria-invalid': failing || undefined,
      'aria-describedby': failing ? `${ids}-${field}-problem` : undefined,
    } as const;
  };
  const fieldProblem = (field: SetupField): ReactNode =>
    problem?.field === field ? (
      <span id={`${ids}-${field}-problem`} className="field-problem" role="alert">
        {problem.message}
      </span>
    ) : null;

  const needsKey = info?.needsApiKey ?? false;
  const sharedAccount = saved !== null && saved.apiKeySecret === null && saved.keySecret !== null;
  const canTest = (modelName.trim() !== '' || !onServer) && probe.state !== 'testing';
  const local = mode === 'add' ? (props.localServers ?? []) : [];

  return (
    <>
      {local.length > 0 && (
        <div className="found-servers" aria-label="Model servers on this computer" role="group">
          {local.map((found) => (
            <p key={found.baseUrl}>
              <strong>{found.service}</strong> is running on this computer with {found.models.length} model
              {found.models.length === 1 ? '' : 's'}.{' '}
              <button type="button" onClick={() => takeLocalServer(found)}>
                Use {found.service}
              </button>
            </p>
          ))}
        </div>
      )}
      <form
        className="setup-form"
        aria-label={saved ? `Settings of ${saved.key}` : 'Add a model'}
        onSubmit={(event) => void save(event)}
      >
        <label>
          {MODEL_FORM_WORDS.provider}
          <select
            value={provider}
            disabled={saved !== null}
            onChange={(event) => chooseProvider(event.target.value)}
            {...fieldProps('provider')}
          >
            {choices.map((item) => (
              <option key={item.name} value={item.name}>
                {item.service}
                {item.local ? ' (on this computer)' : ''}
              </option>
            ))}
          </select>
          {fieldProblem('provider')}
        </label>
        {onServer && (
          <>
            <label>
              {MODEL_FORM_WORDS.baseUrl}
              <input
                value={baseUrl}
                onChange={(event) => setBaseUrl(event.target.value)}
                placeholder={info?.defaultBaseUrl ?? 'e.g. http://localhost:8000/v1'}
                spellCheck={false}
                {...fieldProps('baseUrl')}
              />
              {fieldProblem('baseUrl')}
            </label>
            <label>
              {MODEL_FORM_WORDS.apiKey}
              {needsKey ? '' : ' (if the server needs one)'}
              <input
                type="password"
                value={apiKey}
                onChange={(event) => setApiKey(event.target.value)}
                autoComplete="off"
                spellCheck={false}
                placeholder={
                  saved?.apiKeySet
                    ? `Saved${sharedAccount ? ` for every ${info?.service ?? ''} model` : ''}. Paste a new key to replace it`
                    : needsKey
                      ? `Paste your ${info?.service ?? ''} API key`
                      : 'Not needed for most local servers'
                }
                {...fieldProps('apiKey')}
              />
              <span className="muted small">
                Kept in the secret store on this computer. It is not shown again.
              </span>
              {fieldProblem('apiKey')}
            </label>
            <div className="setup-row">
              <button type="button" onClick={() => void listModels()} disabled={listing.state === 'listing'}>
                {listing.state === 'listing' ? 'Asking the server…' : MODEL_FORM_WORDS.listModels}
              </button>
            </div>
          </>
        )}
        <label>
          {MODEL_FORM_WORDS.modelName}
          {listing.state === 'listed' && listing.models.length > 0 ? (
            <select
              value={modelName}
              onChange={(event) => chooseModel(event.target.value)}
              {...fieldProps('modelName')}
            >
              {listing.models.map((model) => (
                <option key={model.id} value={model.id}>
                  {model.label === model.id ? model.id : `${model.label} (${model.id})`}
                </option>
              ))}
            </select>
          ) : (
            <input
              value={modelName}
              onChange={(event) => chooseModel(event.target.value)}
              placeholder="Its name at the provider, or show the server’s models"
              spellCheck={false}
              {...fieldProps('modelName')}
            />
          )}
          {listing.state === 'listed' && listing.models.length === 0 && (
            <span className="muted small">The server has no models yet. Add one on the server first.</span>
          )}
          {fieldProblem('modelName')}
        </label>
        <label>
          {MODEL_FORM_WORDS.key}
          <input
            value={key}
            readOnly={saved !== null}
            onChange={(event) => {
              setKey(event.target.value);
              setKeyEdited(true);
            }}
            placeholder="e.g. gpt-4o"
            spellCheck={false}
            {...fieldProps('key')}
          />
          {fieldProblem('key')}
        </label>
        {saved && onServer && (
          <details className="advanced">
            <summary>Advanced</summary>
            <label>
              {MODEL_FORM_WORDS.secret}
              <input
                value={secret}
                onChange={(event) => setSecret(event.target.value.toUpperCase())}
                placeholder="e.g. OPENAI_API_KEY"
                spellCheck={false}
              />
            </label>
            <p className="muted small">{callsAtOnceWords(saved.callsAtOnce)}</p>
          </details>
        )}
        <div className="button-row">
          <button type="button" onClick={() => void test()} disabled={!canTest}>
            {probe.state === 'testing' ? 'Testing…' : MODEL_FORM_WORDS.test}
          </button>
          <button type="submit" className="primary" disabled={!key.trim() || !modelName.trim()}>
            {saved ? `Save ${saved.key}` : 'Add model'}
          </button>
          {mode === 'edit' && (
            <button type="button" className="ghost" onClick={props.onRemove}>
              Remove…
            </button>
          )}
        </div>
        <div role="status" className="test-result" aria-label="Test result">
          {probe.state === 'done' && probe.probe.ok && (
            <span className="test-ok">It works. {probe.probe.message}</span>
          )}
          {problem && problem.field === null && <span className="test-bad">{problem.message}</span>}
        </div>
      </form>
    </>
  );
}

/** How many agents may wait on the model's server at once, and where that number comes from. */
function callsAtOnceWords({ limit, how }: ModelInfo['callsAtOnce']): string {
  const calls = `Up to ${limit} ${limit === 1 ? 'call' : 'calls'} at once`;
  if (how === 'learned') return `${calls}, learned from how the server answered.`;
  if (how === 'default')
    return `${calls} to start with; the app learns how many the server takes as the org runs.`;
  return `${calls}, as set (max_concurrent_calls).`;
}
