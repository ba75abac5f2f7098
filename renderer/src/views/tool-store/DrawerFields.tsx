import { useId, type ReactNode } from 'react';

/** A labelled text field of a drawer, its hint, and the problems the last save found with it. */
export function TextField({
  label,
  hint,
  value,
  onChange,
  errors,
  disabled = false,
  secret = false,
}: {
  label: string;
  hint: ReactNode;
  value: string;
  onChange(value: string): void;
  errors: string[] | undefined;
  disabled?: boolean;
  secret?: boolean;
}) {
  const hintId = useId();
  return (
    <div className="drawer-field" aria-invalid={errors ? true : undefined}>
      <label>
        {label}
        <input
          type={secret ? 'password' : 'text'}
          autoComplete="off"
          value={value}
          disabled={disabled}
          aria-describedby={hintId}
          aria-invalid={errors ? true : undefined}
          onChange={(event) => onChange(event.target.value)}
        />
      </label>
      <span className="muted field-hint" id={hintId}>
        {hint}
      </span>
      <FieldErrors label={label} errors={errors} />
    </div>
  );
}

export function FieldErrors({ label, errors }: { label: string; errors: string[] | undefined }) {
  if (!errors) return null;
  return (
    // The alert wraps the list: a list that is itself an alert is no list, and its items belong to none.
    <div role="alert" aria-label={`Problems with ${label}`}>
      <ul className="field-errors">
        {errors.map((message) => (
          <li key={message}>Not saved: {message}</li>
        ))}
      </ul>
    </div>
  );
}
