import { EmptyState } from '../components/EmptyState';

/** Stands in for a view that this build does not have yet. */
export function ViewPlaceholder({ title, children }: { title: string; children: string }) {
  return (
    <EmptyState title={title}>
      <p>{children}</p>
    </EmptyState>
  );
}
