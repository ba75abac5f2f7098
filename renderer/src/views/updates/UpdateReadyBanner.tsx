import { useId, useState } from 'react';
import { valueOf, write } from '../../server-state/write';
import { useUpdateStatus } from '../../shared/use-update-status';
import './updates.css';

/**
 * Asks before restarting into a downloaded update. "Later" hides the question for this version; the
 * update is then installed the next time the app quits.
 */
export function UpdateReadyBanner() {
  const [status] = useUpdateStatus();
  const [laterFor, setLaterFor] = useState<string | null>(null);
  const headingId = useId();
  if (!status || status.state !== 'ready' || laterFor === status.version) return null;

  const restart = () =>
    write(
      'updates.restartNow',
      {},
      { progress: 'Restarting to update…', failure: 'Could not restart into the update' },
    ).then(valueOf);

  return (
    <section className="update-ready" role="alertdialog" aria-labelledby={headingId}>
      <div>
        <h2 id={headingId}>An update is ready</h2>
        <p>
          LeMMing Desktop {status.version} has been downloaded. Restart now to use it? A running org stops
          first, and everything it did is saved. If you choose Later, the update is installed when you next
          quit.
        </p>
      </div>
      <div className="update-actions">
        <button type="button" onClick={() => setLaterFor(status.version)}>
          Later
        </button>
        <button type="button" className="primary" onClick={() => void restart()}>
          Restart now
        </button>
      </div>
    </section>
  );
}
