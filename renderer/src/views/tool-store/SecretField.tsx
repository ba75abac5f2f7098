import { useId, useState } from 'react';
import { Badge } from '../../components/Badge';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { deleteSecret, setSecret } from './tool-store-writes';

/** A write-only secret: says whether it is set, takes a new value, never shows one. */
export function SecretField({
  name,
  description,
  isSet,
}: {
  name: string;
  description: string;
  isSet: boolean;
}) {
  const [editing, setEditing] = useState(!isSet);
  const [value, setValue] = useState('');
  const [confirmingDelete, setConfirmingDelete] = useState(false);
  const inputId = useId();
  const hintId = useId();

  const save = async () => {
    if (!value) return;
    if (await setSecret(name, value)) {
      setValue('');
      setEditing(false);
    }
  };

  return (
    <div className="secret-field">
      <div className="secret-heading">
        {editing ? <label htmlFor={inputId}>{name}</label> : <span className="secret-name">{name}</span>}
        <Badge tone={isSet ? 'ok' : 'warn'}>{isSet ? 'is set' : 'not set'}</Badge>
      </div>
      {description && (
        <p className="muted" id={hintId}>
          {description}
        </p>
      )}
      {editing ? (
        <div className="secret-edit">
          <input
            id={inputId}
            type="password"
            autoComplete="off"
            value={value}
            aria-describedby={description ? hintId : undefined}
            placeholder={isSet ? 'New value' : 'Paste the value'}
            onChange={(event) => setValue(event.target.value)}
          />
          <button type="button" className="primary" disabled={!value} onClick={() => void save()}>
            Save {name}
          </button>
          {isSet && (
            <button type="button" onClick={() => setEditing(false)}>
              Cancel
            </button>
          )}
        </div>
      ) : (
        <div className="secret-edit">
          <button type="button" onClick={() => setEditing(true)}>
            Replace {name}
          </button>
          <button type="button" className="danger" onClick={() => setConfirmingDelete(true)}>
            Delete {name}
          </button>
        </div>
      )}
      <ConfirmDialog
        open={confirmingDelete}
        title={`Delete ${name}?`}
        confirmLabel={`Delete ${name}`}
        destructive
        onCancel={() => setConfirmingDelete(false)}
        onConfirm={() => {
          setConfirmingDelete(false);
          void deleteSecret(name).then((deleted) => deleted && setEditing(true));
        }}
      >
        Tools that need {name} stop working until you set it again. The value cannot be recovered.
      </ConfirmDialog>
    </div>
  );
}
