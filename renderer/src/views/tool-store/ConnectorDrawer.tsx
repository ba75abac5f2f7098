import { useId, useMemo, useState, type ReactNode } from 'react';
import type { Connector } from '../../../../engine/api';
import { Advanced } from '../../components/Advanced';
import { Drawer } from '../../components/Dialog';
import { ProblemList } from '../../components/ProblemList';
import { ErrorAlert } from '../../components/ErrorAlert';
import type { WriteError } from '../../server-state/write';
import { schemaFields, type SchemaField } from './schema-fields';
import { SecretField } from './SecretField';
import { saveConnectorSettings } from './tool-store-writes';

type SettingValue = string | number | boolean | string[] | null;

/** The settings of one connector, as a form generated from its JSON Schema; secrets are write-only. */
export function ConnectorDrawer({ connector, onClose }: { connector: Connector; onClose(): void }) {
  const fields = useMemo(() => schemaFields(connector.configSchema), [connector.configSchema]);
  const settings = fields.filter((field) => field.type !== 'secret');
  const [values, setValues] = useState<Record<string, SettingValue>>(
    () => ({ ...connector.settings }) as Record<string, SettingValue>,
  );
  const [changed, setChanged] = useState<Set<string>>(new Set());

  const change = (name: string, value: SettingValue) => {
    setValues((current) => ({ ...current, [name]: value }));
    setChanged((current) => new Set(current).add(name));
  };

  const [refusal, setRefusal] = useState<WriteError | null>(null);
  const fieldErrors = refusal?.fields.byField ?? {};

  const save = async () => {
    const patch = Object.fromEntries([...changed].map((name) => [name, values[name] ?? null]));
    const error = await saveConnectorSettings(connector, patch);
    setRefusal(error);
    if (!error) setChanged(new Set());
  };

  return (
    <Drawer title={`${connector.name} settings`} className="connector-drawer" onClose={onClose}>
      <p>{connector.description}</p>
      {settings.length > 0 && (
        <form
          className="drawer-form"
          onSubmit={(event) => {
            event.preventDefault();
            void save();
          }}
        >
          {settings.map((field) => (
            <div key={field.name} aria-invalid={fieldErrors[field.name] ? true : undefined}>
              <SettingInput field={field} value={values[field.name] ?? null} onChange={change} />
              {fieldErrors[field.name] && (
                <ul className="field-errors" role="alert" aria-label={`Problems with ${field.title}`}>
                  {fieldErrors[field.name]?.map((message) => (
                    <li key={message}>Not saved: {message}</li>
                  ))}
                </ul>
              )}
            </div>
          ))}
          {refusal &&
            (Object.keys(fieldErrors).length === 0 ? (
              <ErrorAlert error={refusal} title="Not saved." />
            ) : (
              <ProblemList problems={refusal.fields.elsewhere} label="Not saved" />
            ))}
          <button type="submit" className="primary" disabled={changed.size === 0}>
            Save settings
          </button>
        </form>
      )}
      {connector.secrets.length > 0 && (
        <section aria-label="Secrets" className="drawer-secrets">
          <h3>Secrets</h3>
          <p className="muted">
            Kept outside the org folder. You can set, replace or delete them; the app never shows them.
          </p>
          {connector.secrets.map((secret) => (
            <SecretField
              key={secret.name}
              name={secret.name}
              description={secret.description}
              isSet={secret.isSet}
            />
          ))}
        </section>
      )}
      {settings.length === 0 && connector.secrets.length === 0 && (
        <p>This connector has nothing to set up.</p>
      )}
      {connector.config && (
        <Advanced>
          Saved in <code>{connector.config.file}</code>
          {settings.length > 0 && (
            <>
              {' '}
              as{' '}
              {settings.map((field, index) => (
                <span key={field.name}>
                  {index > 0 && ', '}
                  <code>{field.name}</code>
                </span>
              ))}
            </>
          )}
          .
        </Advanced>
      )}
    </Drawer>
  );
}

function SettingInput({
  field,
  value,
  onChange,
}: {
  field: SchemaField;
  value: SettingValue;
  onChange(name: string, value: SettingValue): void;
}) {
  const hintId = useId();
  const hint: Record<string, string> = field.description ? { 'aria-describedby': hintId } : {};
  const description = field.description && (
    <span className="muted field-hint" id={hintId}>
      {field.description}
    </span>
  );
  switch (field.type) {
    case 'boolean':
      return (
        <div className="drawer-field checkbox">
          <label>
            <input
              type="checkbox"
              checked={value === true}
              onChange={(event) => onChange(field.name, event.target.checked)}
              {...hint}
            />
            {field.title}
          </label>
          {description}
        </div>
      );
    case 'enum':
      return (
        <div className="drawer-field">
          <label>
            {field.title}
            <select
              value={typeof value === 'string' ? value : ''}
              onChange={(event) => onChange(field.name, event.target.value || null)}
              {...hint}
            >
              <option value="">Not set</option>
              {field.options.map((option) => (
                <option key={option} value={option}>
                  {option}
                </option>
              ))}
            </select>
          </label>
          {description}
        </div>
      );
    case 'number':
    case 'integer':
      return (
        <div className="drawer-field">
          <label>
            {field.title}
            <input
              type="number"
              step={field.type === 'integer' ? 1 : 'any'}
              value={typeof value === 'number' ? value : ''}
              onChange={(event) =>
                onChange(field.name, event.target.value === '' ? null : Number(event.target.value))
              }
              {...hint}
            />
          </label>
          {description}
        </div>
      );
    case 'list':
      return (
        <ListSetting field={field} value={value} onChange={onChange} description={description} hint={hint} />
      );
    case 'text':
      return (
        <div className="drawer-field">
          <label>
            {field.title}
            <input
              type="text"
              value={typeof value === 'string' ? value : ''}
              onChange={(event) => onChange(field.name, event.target.value || null)}
              {...hint}
            />
          </label>
          {description}
        </div>
      );
    case 'secret':
      return null;
  }
}

/** A list of strings edited as lines; blank lines are dropped from the value, not from what is typed. */
function ListSetting({
  field,
  value,
  onChange,
  description,
  hint,
}: {
  field: SchemaField;
  value: SettingValue;
  onChange(name: string, value: SettingValue): void;
  description: ReactNode;
  hint: Record<string, string>;
}) {
  const [text, setText] = useState(Array.isArray(value) ? value.join('\n') : '');
  return (
    <div className="drawer-field">
      <label>
        {field.title} (one per line)
        <textarea
          rows={3}
          value={text}
          onChange={(event) => {
            setText(event.target.value);
            onChange(
              field.name,
              event.target.value
                .split('\n')
                .map((line) => line.trim())
                .filter(Boolean),
            );
          }}
          {...hint}
        />
      </label>
      {description}
    </div>
  );
}
