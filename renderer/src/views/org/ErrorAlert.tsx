import type { IpcError } from '../../../../engine/api';

/** An IPC error as people read it: what went wrong, where, and what to do. */
export function ErrorAlert({ error, title }: { error: IpcError; title: string }) {
  return (
    <div className="inline-alert" role="alert">
      <strong>{title}</strong> {error.message}
      {error.issues && error.issues.length > 0 && (
        <ul>
          {error.issues.map((issue, index) => (
            <li key={index}>
              <code>{issue.path}</code>: {issue.message}
            </li>
          ))}
        </ul>
      )}
      {error.fix && <p>{error.fix}</p>}
    </div>
  );
}
