import { useEffect, useState } from 'react';
import { useActivity } from './activity-store';
import './components.css';

const SAVED_VISIBLE_MS = 4000;

/** "Working…" while writes (server-state/write.ts) are in flight, then a quiet "Saved" for a moment. */
export function ActivityIndicator() {
  const pending = useActivity((store) => store.pending);
  const lastDoneAt = useActivity((store) => store.lastDoneAt);
  const [now, setNow] = useState(() => Date.now());

  useEffect(() => {
    if (lastDoneAt === null) return;
    const timer = setTimeout(() => setNow(Date.now()), SAVED_VISIBLE_MS);
    return () => clearTimeout(timer);
  }, [lastDoneAt]);

  const current = pending.at(-1);
  const showSaved = !current && lastDoneAt !== null && now - lastDoneAt < SAVED_VISIBLE_MS;
  return (
    <span
      className="activity"
      role="status"
      aria-live="polite"
      data-activity={current ? 'busy' : showSaved ? 'saved' : 'idle'}
    >
      {current ? (
        <>
          <span className="spinner" aria-hidden="true" /> {current.label}
        </>
      ) : showSaved ? (
        'Saved'
      ) : (
        ''
      )}
    </span>
  );
}
