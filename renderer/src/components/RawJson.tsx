import { useMemo } from 'react';
import './components.css';

/** The exact data behind a screen, one click away and collapsed by default. */
export function RawJson({ value, label = 'Show raw JSON' }: { value: unknown; label?: string }) {
  const text = useMemo(() => JSON.stringify(value, null, 2), [value]);
  return (
    <details className="raw-json">
      <summary>{label}</summary>
      <pre tabIndex={0} aria-label={label}>
        {text}
      </pre>
    </details>
  );
}
