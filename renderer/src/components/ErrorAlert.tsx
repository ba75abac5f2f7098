import type { ReactNode } from 'react';
import type { IpcError } from '../../../engine/api';
import { ProblemList } from './ProblemList';

/** An IPC error as people read it: what went wrong, where, what to do, and what can be done here (`children`). */
export function ErrorAlert({
  error,
  title,
  children,
}: {
  error: IpcError;
  title: string;
  children?: ReactNode;
}) {
  return (
    <div className="inline-alert" role="alert">
      <strong>{title}</strong> {error.message}
      <ProblemList problems={error.issues ?? []} />
      {error.fix && <p>{error.fix}</p>}
      {children}
    </div>
  );
}
