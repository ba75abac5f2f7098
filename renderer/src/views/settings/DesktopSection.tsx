import { useId } from 'react';
import type { NoticeKind, UpdateDesktopSettingsInput } from '../../../../engine/api';
import { valueOf, write } from '../../server-state/write';
import { useQuery } from '../../server-state/use-query';

const NOTICE_LABELS: Record<NoticeKind, string> = {
  approval: 'An agent waits for your yes or no',
  failing: 'An agent starts failing',
  run_ended: 'A run ends or stops',
  credits: 'An agent runs out of credits',
  sign_in: 'A tool server needs you to sign in',
};

/** The app on this computer: notifications, running in the background, and what it is built on. */
export function DesktopSection() {
  const headingId = useId();
  const { result, replace } = useQuery('desktop.settings', {});
  const settings = result?.ok ? result.value : null;

  const change = async (update: UpdateDesktopSettingsInput) => {
    const saved = await write('desktop.updateSettings', update, {
      progress: 'Saving…',
      failure: 'Could not save the setting',
    }).then(valueOf);
    if (saved) replace(saved);
  };

  return (
    <section className="panel" aria-labelledby={headingId}>
      <h3 id={headingId}>Alerts and running in the background</h3>
      <fieldset className="plain-fieldset">
        <legend>Tell me when…</legend>
        {(Object.keys(NOTICE_LABELS) as NoticeKind[]).map((kind) => (
          <label key={kind} className="checkbox-line">
            <input
              type="checkbox"
              role="switch"
              checked={settings?.notify[kind] ?? false}
              disabled={!settings}
              onChange={(event) => void change({ notify: { [kind]: event.target.checked } })}
            />
            {NOTICE_LABELS[kind]}
          </label>
        ))}
      </fieldset>
      <p className="muted">
        Notifications appear while the app's window is not in front of you; the app's icon shows how many
        things wait for you (answers, sign-ins).
      </p>
      <label className="checkbox-line">
        <input
          type="checkbox"
          role="switch"
          checked={settings?.keepRunningInBackground ?? false}
          disabled={!settings}
          onChange={(event) => void change({ keepRunningInBackground: event.target.checked })}
        />
        Keep running when the window is closed
      </label>
      <p className="muted">
        A running org goes on taking its turns; open the window again from the icon in the menu bar or tray.
      </p>
      <details>
        <summary>Advanced</summary>
        <label className="checkbox-line">
          <input
            type="checkbox"
            role="switch"
            checked={settings?.developerTools ?? false}
            disabled={!settings}
            onChange={(event) => void change({ developerTools: event.target.checked })}
          />
          Offer the developer tools (in the View menu, after the next start)
        </label>
      </details>
      <AboutThisApp />
    </section>
  );
}

function AboutThisApp() {
  const { result } = useQuery('app.info', {});
  if (!result?.ok) return null;
  const { name, version, runtime } = result.value;
  return (
    <details className="about-app">
      <summary>About {name}</summary>
      <dl>
        <dt>Version</dt>
        <dd>{version}</dd>
        {runtime.electron && (
          <>
            <dt>Electron</dt>
            <dd>{runtime.electron}</dd>
          </>
        )}
        <dt>Node</dt>
        <dd>{runtime.node}</dd>
        {runtime.chrome && (
          <>
            <dt>Chrome</dt>
            <dd>{runtime.chrome}</dd>
          </>
        )}
        <dt>SQLite</dt>
        <dd>{runtime.sqlite}</dd>
      </dl>
      <p className="muted">
        The app's log and a diagnostics file to send with a question are in the Help menu.
      </p>
    </details>
  );
}
