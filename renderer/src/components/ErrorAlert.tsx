import type { IpcError } from '../../../engine/api';
import { ProblemList } from './ProblemList';

/** An IPC error as people read it: what went wrong, where, and what to do. */
export function ErrorAlert({ error, title }: { error: IpcError; title: string }) {
  return (
    <div className="inline-alert" role="alert">
      <strong>{title}</strong> {error.message}
      <ProblemList problems={error.issues ?? []} />
      {error.fix && <p>{error.fix}</p>}
    </div>
  );
}
