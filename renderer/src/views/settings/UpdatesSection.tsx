import { useId } from 'react';
import { valueOf, write } from '../../server-state/write';
import { describeUpdateStatus, useUpdateStatus } from '../../shared/use-update-status';
import '../updates/updates.css';

/** The app's own updates: the switch for automatic checks, and where they stand. */
export function UpdatesSection() {
  const headingId = useId();
  const [status, setStatus] = useUpdateStatus();

  const toggle = async (enabled: boolean) => {
    const saved = await write(
      'updates.setEnabled',
      { enabled },
      {
        progress: enabled ? 'Turning updates on…' : 'Turning updates off…',
        failure: 'Could not change the update setting',
      },
    ).then(valueOf);
    if (saved) setStatus(saved);
  };

  return (
    <section className="panel" aria-labelledby={headingId}>
      <h3 id={headingId}>Updates</h3>
      <label className="checkbox-line">
        <input
          type="checkbox"
          role="switch"
          checked={status?.enabled ?? false}
          disabled={!status}
          onChange={(event) => void toggle(event.target.checked)}
        />
        Check for updates automatically
      </label>
      <p className="muted" data-testid="update-status">
        {status ? describeUpdateStatus(status) : ''}
      </p>
      <p className="muted">
        When a new version is out, the app downloads it in the background and asks before restarting.
      </p>
    </section>
  );
}
