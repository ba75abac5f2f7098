import type { ReactNode } from 'react';

/**
 * The technical side of something shown in plain words above it: file and field names, tool ids, what
 * the CLI prints. Closed until asked for, so a newcomer reads only the plain words.
 */
export function Advanced({ children, label = 'Advanced' }: { children: ReactNode; label?: string }) {
  return (
    <details className="advanced-details">
      <summary>{label}</summary>
      <div className="advanced-body">{children}</div>
    </details>
  );
}
