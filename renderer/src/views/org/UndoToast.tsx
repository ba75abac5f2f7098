import { useEffect } from 'react';

const SHOWN_MS = 15_000;

/** A short-lived notice with an Undo button; it disappears by itself after a while. */
export function UndoToast({
  message,
  onUndo,
  onDismiss,
}: {
  message: string;
  onUndo(): void;
  onDismiss(): void;
}) {
  useEffect(() => {
    const timer = setTimeout(onDismiss, SHOWN_MS);
    return () => clearTimeout(timer);
  }, [onDismiss]);
  return (
    <div className="undo-toast" role="status">
      <span>{message}</span>
      <button type="button" className="primary-button" onClick={onUndo}>
        Undo
      </button>
      <button type="button" aria-label="Dismiss" onClick={onDismiss}>
        <span aria-hidden="true">×</span>
      </button>
    </div>
  );
}
