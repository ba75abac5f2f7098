import { useEffect, useId, useState, type FormEvent } from 'react';
import type {
  LocalServer,
  ModelList,
  ModelProbe,
  ProviderInfo,
  ServerModel,
  SetupField,
  SetupProblem,
} from '../../../../engine/api';
import { attempt } from '../../components/activity-store';
import { toast } from '../../components/toast-store';
import { lemming } from '../../lemming';

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

type Listing = { state: 'idle' } | { state: 'listing' } | { state: 'listed'; models: ServerModel[] };
type Probe = { state: 'idle' } | { state: 'testing' } | { state: 'done'; probe: ModelProbe };

/**
 * Adding a model in a minute: where it runs, its address, the API key itself (kept in the secret store,
 * never shown again), a model picked from the server's own list, a Test that says in plain words what is
 * wrong and where, and Add. Model servers found on this computer are offered first.
 */
export function ModelSetupForm({
  providers,
  onAdded,
}: {
  providers: ProviderInfo[];
  onAdded: (list: ModelList) => void;
}) {
  const choices = providers.filter((provider) => SERVER_PROVIDERS.has(provider.name));
  const [provider, setProvider] = useState(choices[0]?.name ?? 'openai');
  const info = choices.find((item) => item.name === provider);
  const [baseUrl, setBaseUrl] = useState(info?.defaultBaseUrl ?? '');
  const [apiKey, setApiKey] = useState('');
  const [modelName, setModelName] = useState('');
  const [key, setKey] = useState('');
  const [keyEdited, setKeyEdited] = useState(false);
  const [listing, setListing] = useState<Listing>({ state: 'idle' });
  const [probe, setProbe] = useState<Probe>({ state: 'idle' });
  const [problem, setProblem] = useState<SetupProblem | null>(null);
  const [local, setLocal] = useState<LocalServer[]>([]);
  const ids = useId();

  useEffect(() => {
    let live = true;
    void lemming()
      .models.detectLocal()
      .then((result) => {
        if (live && result.ok) setLocal(result.value.servers);
      });
    return () => {
      live = false;
    };
  }, []);

  const server = () => ({
    provider,
    ...(baseUrl.trim() ? { baseUrl: baseUrl.trim() } : {}),
    ...(apiKey.trim() ? { apiKey: apiKey.trim() } : {}),
  });

  const chooseProvider = (name: string, address?: string) => {
    setProvider(name);
    setBaseUrl(address ?? choices.find((item) => item.name === name)?.defaultBaseUrl ?? '');
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
    const result = await lemming().models.serverModels(server());
    if (!result.ok) {
      setListing({ state: 'idle' });
      setProblem({ field: null, kind: 'other', message: result.error.message });
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
    const result = await lemming().models.probe({ ...server(), modelName: modelName.trim() });
    if (!result.ok) {
      setProbe({ state: 'idle' });
      setProblem({ field: null, kind: 'other', message: result.error.message });
      return;
    }
    setProbe({ state: 'done', probe: result.value });
    setProblem(result.value.problem);
  };

  const add = async (event: FormEvent) => {
    event.preventDefault();
    const name = key.trim();
    const added = await attempt(`Adding ${name}…`, `Could not add ${name}`, () =>
      lemming().models.add({ ...server(), key: name, modelName: modelName.trim() }),
    );
    if (!added) return;
    onAdded(added);
    toast.success(
      `Added ${name}`,
      apiKey.trim() ? 'Its API key is kept in the secret store on this computer.' : undefined,
    );
    setApiKey('');
    setModelName('');
    setKey('');
    setKeyEdited(false);
    setListing({ state: 'idle' });
    setProbe({ state: 'idle' });
  };

  const fieldProps = (field: SetupField) => {
    const failing = problem?.field === field;
    return {
      'aria-invalid': failing || undefined,
      'aria-describedby': failing ? `${ids}-${field}-problem` : undefined,
    } as const;
  };
  const fieldProblem = (field: SetupField) =>
    problem?.field === field ? (
      <span id={`${ids}-${field}-problem`} className="field-problem" role="alert">
        {problem.message}
      </span>
    ) : null;

  const needsKey = info?.needsApiKey ?? false;
  const canList = listing.state !== 'listing';
  const canTest = modelName.trim() !== '' && probe.state !== 'testing';

  return (
    <details className="add-model" open={local.length > 0 || undefined}>
      <summary>Add a model</summary>
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
      <form className="setup-form" aria-label="Add a model" onSubmit={(event) => void add(event)}>
        <label>
          Where the model runs
          <select
            value={provider}
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
        <label>
          Server address
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
          API key{needsKey ? '' : ' (if the server needs one)'}
          <input
            type="password"
            value={apiKey}
            onChange={(event) => setApiKey(event.target.value)}
            autoComplete="off"
            spellCheck={false}
            placeholder={
              needsKey ? `Paste your ${info?.service ?? ''} API key` : 'Not needed for most local servers'
            }
            {...fieldProps('apiKey')}
          />
          <span className="muted small">
            Kept in the secret store on this computer. It is not shown again.
          </span>
          {fieldProblem('apiKey')}
        </label>
        <div className="setup-row">
          <button type="button" onClick={() => void listModels()} disabled={!canList}>
            {listing.state === 'listing' ? 'Asking the server…' : 'Show the server’s models'}
          </button>
        </div>
        <label>
          Model
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
          Name your agents use for it
          <input
            value={key}
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
        <div className="button-row">
          <button type="button" onClick={() => void test()} disabled={!canTest}>
            {probe.state === 'testing' ? 'Testing…' : 'Test'}
          </button>
          <button type="submit" className="primary" disabled={!key.trim() || !modelName.trim()}>
            Add model
          </button>
        </div>
        <div role="status" className="test-result" aria-label="Test result">
          {probe.state === 'done' && probe.probe.ok && (
            <span className="test-ok">It works. {probe.probe.message}</span>
          )}
          {problem && problem.field === null && <span className="test-bad">{problem.message}</span>}
        </div>
      </form>
    </details>
  );
}
