import { useState } from 'react';
import type { RestApiView, RestAuthStyle } from '../../../../engine/api';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { Drawer } from '../../components/Dialog';
import { FieldErrors, TextField } from './DrawerFields';
import { useQuery } from '../../server-state/use-query';
import { removeRestApi, saveRestApi } from './tool-store-writes';

const METHODS = [
  { method: 'GET', words: 'Read (GET)' },
  { method: 'POST', words: 'Create (POST)' },
  { method: 'PUT', words: 'Replace (PUT)' },
  { method: 'PATCH', words: 'Change (PATCH)' },
  { method: 'DELETE', words: 'Delete (DELETE)' },
] as const;
type Method = (typeof METHODS)[number]['method'];

const AUTH_STYLES: { style: RestAuthStyle; words: string }[] = [
  { style: 'bearer', words: 'As "Authorization: Bearer …" (most APIs)' },
  { style: 'header', words: 'In a header of its own (such as X-API-Key)' },
  { style: 'query', words: 'In the address, as a query parameter (such as ?api_key=…)' },
  { style: 'none', words: 'No key (a public API)' },
];

type Field = 'name' | 'baseUrl' | 'authName' | 'apiKey' | 'methods' | 'description';

/**
 * Adds or changes a REST API connector: its address, how its key is sent, and what agents may do
 * with it. The key is write-only: it goes to the secret store and is never shown again.
 */
export function RestApiDrawer({ api, onClose }: { api: RestApiView | null; onClose(): void }) {
  const { result: secretList } = useQuery('secrets.list', {});
  const keyIsSet =
    secretList?.ok && api?.keySecret
      ? secretList.value.secrets.some((secret) => secret.name === api.keySecret && secret.isSet)
      : false;
  const [name, setName] = useState(api?.name ?? '');
  const [baseUrl, setBaseUrl] = useState(api?.baseUrl ?? '');
  const [description, setDescription] = useState(api?.description ?? '');
  const [authStyle, setAuthStyle] = useState<RestAuthStyle>(api?.authStyle ?? 'bearer');
  const [authName, setAuthName] = useState(api?.authName ?? '');
  const [apiKey, setApiKey] = useState('');
  const [methods, setMethods] = useState<Method[]>((api?.methods as Method[] | undefined) ?? ['GET']);
  const [errors, setErrors] = useState<Partial<Record<string, string[]>>>({});
  const [otherError, setOtherError] = useState<string | null>(null);
  const [confirmingRemove, setConfirmingRemove] = useState(false);

  const save = async () => {
    const error = await saveRestApi(
      {
        name: name.trim(),
        baseUrl,
        description,
        authStyle,
        ...(authStyle === 'header' || authStyle === 'query' ? { authName } : {}),
        methods,
        ...(authStyle !== 'none' && apiKey !== '' ? { apiKey } : {}),
        ...(api
          ? {
              opened: {
                baseUrl: api.baseUrl,
                description: api.description,
                authStyle: api.authStyle,
                authName: api.authName,
                methods: api.methods,
              },
            }
          : {}),
      },
      restApiFieldOf,
    );
    const byField = error?.fields.byField ?? {};
    setErrors(byField);
    setOtherError(error && Object.keys(byField).length === 0 ? error.message : null);
    if (!error) {
      setApiKey('');
      onClose();
    }
  };

  const toggleMethod = (method: Method, on: boolean) =>
    setMethods((current) =>
      METHODS.map((entry) => entry.method).filter((candidate) =>
        candidate === method ? on : current.includes(candidate),
      ),
    );

  const title = api ? `${api.name} API settings` : 'Add a REST API';
  return (
    <Drawer title={title} className="connector-drawer rest-api-drawer" onClose={onClose}>
      <p>
        Lets agents call a web service of yours. They give only the path (such as /items/42); the app adds the
        address and the key, and sends nothing anywhere else.
      </p>
      <form
        className="drawer-form"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void save();
        }}
      >
        <TextField
          label="Name agents call it by"
          hint="Lower-case letters, digits and _, such as inventory. It cannot be changed later."
          value={name}
          onChange={setName}
          errors={errors.name}
          disabled={api !== null}
        />
        <TextField
          label="Address of the API"
          hint="The start every call shares, such as https://api.example.com/v1."
          value={baseUrl}
          onChange={setBaseUrl}
          errors={errors.baseUrl}
        />
        <fieldset className="drawer-field">
          <legend>How the key is sent</legend>
          {AUTH_STYLES.map(({ style, words }) => (
            <label key={style} className="radio">
              <input
                type="radio"
                name="auth-style"
                value={style}
                checked={authStyle === style}
                onChange={() => setAuthStyle(style)}
              />
              {words}
            </label>
          ))}
        </fieldset>
        {(authStyle === 'header' || authStyle === 'query') && (
          <TextField
            label={authStyle === 'header' ? 'Header name' : 'Query parameter name'}
            hint={authStyle === 'header' ? 'Such as X-API-Key.' : 'Such as api_key.'}
            value={authName}
            onChange={setAuthName}
            errors={errors.authName}
          />
        )}
        {authStyle !== 'none' && (
          <TextField
            label="API key"
            hint={
              keyIsSet
                ? 'A key is saved. Leave this empty to keep it, or paste a new one to replace it.'
                : 'Kept in the secret store, outside the org folder. The app never shows it again.'
            }
            value={apiKey}
            onChange={setApiKey}
            errors={errors.apiKey}
            secret
          />
        )}
        <fieldset className="drawer-field" aria-invalid={errors.methods ? true : undefined}>
          <legend>What agents may do</legend>
          {METHODS.map(({ method, words }) => (
            <label key={method} className="checkbox">
              <input
                type="checkbox"
                checked={methods.includes(method)}
                onChange={(event) => toggleMethod(method, event.target.checked)}
              />
              {words}
            </label>
          ))}
          <span className="muted field-hint">
            An API agents may only read from runs without asking; once you allow more, each call asks you
            first (see “Ask me first”).
          </span>
          <FieldErrors label="What agents may do" errors={errors.methods} />
        </fieldset>
        <TextField
          label="What it is for (optional)"
          hint="Told to the agents, such as “our stock of parts”."
          value={description}
          onChange={setDescription}
          errors={errors.description}
        />
        <p className="muted">
          Agents need network access on (Web requests). If the address is on this computer or your own
          network, also add its host to Web requests → Private hosts.
        </p>
        {otherError && (
          <p className="inline-alert" role="alert">
            Not saved: {otherError}
          </p>
        )}
        <div className="drawer-actions">
          <button type="submit" className="primary" disabled={methods.length === 0}>
            {api ? 'Save changes' : 'Add this API'}
          </button>
          {api && (
            <button type="button" className="danger" onClick={() => setConfirmingRemove(true)}>
              Remove this API
            </button>
          )}
        </div>
        {api && (
          <details className="advanced">
            <summary>Advanced</summary>
            <p className="muted">
              Saved in <code>lemming/config/rest-apis.json</code> under <code>apis.{api.name}</code>; the tool
              is <code>{api.name}</code>; the key is the secret <code>{api.keySecret ?? 'none'}</code>; calls
              may reach only <code>{api.host}</code>.
            </p>
          </details>
        )}
      </form>
      {api && (
        <ConfirmDialog
          open={confirmingRemove}
          title={`Remove ${api.name}?`}
          confirmLabel={`Remove ${api.name}`}
          destructive
          onCancel={() => setConfirmingRemove(false)}
          onConfirm={() => {
            setConfirmingRemove(false);
            void removeRestApi(api.name).then((removed) => removed && onClose());
          }}
        >
          Agents lose the {api.name} tool and its key is deleted.
        </ConfirmDialog>
      )}
    </Drawer>
  );
}

const FIELDS: readonly string[] = [
  'name',
  'baseUrl',
  'authName',
  'apiKey',
  'methods',
  'description',
] satisfies Field[];

/** `baseUrl` or `methods.0` → the drawer field the answer names. */
function restApiFieldOf(path: string): Field | null {
  const field = /^(?:input\.)?([A-Za-z]+)/.exec(path)?.[1];
  return field && FIELDS.includes(field) ? (field as Field) : null;
}
