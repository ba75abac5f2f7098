import { useId, type ReactNode } from 'react';
import './components.css';

/** What an empty list says: what is missing and the one thing to do next. */
export function EmptyState({
  title,
  children,
  action,
}: {
  title: string;
  children?: ReactNode;
  action?: ReactNode;
}) {
  const headingId = useId();
  return (
    <section className="empty-state" aria-labelledby={headingId}>
      <h2 id={headingId}>{title}</h2>
      {children}
      {action && <div className="empty-action">{action}</div>}
    </section>
  );
}
