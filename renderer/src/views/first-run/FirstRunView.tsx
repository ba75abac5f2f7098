import { useId } from 'react';
import { useOrgStore } from '../../stores/org-store';
import { OpenOrgForm } from '../OpenOrgForm';
import './first-run.css';

/** What a window with no org offers: the demo org (runs offline, no key needed) or an org folder of your own. */
export function FirstRunView() {
  const state = useOrgStore((store) => store.state);
  const openDemo = useOrgStore((store) => store.openDemo);
  const headingId = useId();
  const busy = state.status === 'opening';

  return (
    <div className="first-run">
      {state.status === 'failed' && (
        <div className="error-banner" role="alert">
          <strong>Could not open the org.</strong> {state.error.message}
          {state.error.issues?.map((issue) => (
            <div key={issue.path}>
              {issue.path}: {issue.message}
            </div>
          ))}
          {state.error.fix && <div>{state.error.fix}</div>}
        </div>
      )}
      <section className="welcome" aria-labelledby={headingId}>
        <h2 id={headingId}>Open an org to begin</h2>
        <p>
          An org is a team of AI agents that live in a folder on your computer: each agent has a role, a
          private workspace and a budget of credits, and they work together by leaving messages for each
          other.
        </p>
        <div className="first-run-choices">
          <div className="choice">
            <h3>Try the demo</h3>
            <p>
              A small team (a manager, a researcher and a writer) that runs offline with scripted answers: no
              account, no API key, nothing leaves your computer.
            </p>
            <button type="button" className="primary" onClick={() => void openDemo()} disabled={busy}>
              {busy && state.path === 'demo' ? 'Opening the demo…' : 'Open the demo org'}
            </button>
          </div>
          <div className="choice">
            <h3>Use your own org</h3>
            <p>
              Choose a folder with an <code>agents</code> folder inside, one folder per agent. LeMMing orgs
              open unchanged.
            </p>
            <OpenOrgForm />
          </div>
        </div>
      </section>
    </div>
  );
}
