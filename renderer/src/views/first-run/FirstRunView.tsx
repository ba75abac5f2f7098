import { useId } from 'react';
import type { IpcError } from '../../../../engine/api';
import { useOrgStore } from '../../stores/org-store';
import { OpenOrgForm } from './OpenOrgForm';
import { RecentOrgs } from './RecentOrgs';
import { TemplateGallery } from './TemplateGallery';
import './first-run.css';
import { ProblemList } from '../../components/ProblemList';

/**
 * What a window with no org offers: the demo org (runs offline, no key needed), an org folder of your own,
 * or a new org from a template.
 */
export function FirstRunView() {
  const state = useOrgStore((store) => store.state);
  const openDemo = useOrgStore((store) => store.openDemo);
  const headingId = useId();
  const templatesId = useId();
  const busy = state.status === 'opening';

  return (
    <div className="first-run">
      {state.status === 'failed' && <OpenFailure path={state.path} error={state.error} />}
      <section className="welcome" aria-labelledby={headingId}>
        <h2 id={headingId}>Open an org to begin</h2>
        <p>
          An org is a team of AI agents that live in a folder on your computer: each agent has a role, a
          private workspace and a budget of credits, and they work together by leaving messages for each
          other.
        </p>
        <RecentOrgs />
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
        <section className="start-from-template" aria-labelledby={templatesId}>
          <h3 id={templatesId}>Start a new org from a template</h3>
          <p>
            A team ready to work, which you can change afterwards. Each one first runs offline with scripted
            answers, so you can watch it work before you give it a real model.
          </p>
          <TemplateGallery />
        </section>
      </section>
    </div>
  );
}

/** Why the folder did not open; a folder that is not an org yet is offered to become one (nothing is written before). */
function OpenFailure({ path, error }: { path: string; error: IpcError }) {
  const createOrg = useOrgStore((store) => store.createOrg);
  const busy = useOrgStore((store) => store.state.status === 'opening');
  if (error.code === 'not_an_org')
    return (
      <div className="error-banner" role="alert">
        <strong>This folder is not an org.</strong> {error.message}
        <p>
          An org folder holds an <q>agents</q> folder with one folder per agent. You can choose another
          folder, or make this one a new, empty org: the app then adds the folders and settings files of an
          org (<q>agents</q>, <q>shared</q>, <q>lemming/config</q> and a README), keeps everything already in
          it, and changes nothing else.
        </p>
        <div className="button-row">
          <button type="button" className="primary" disabled={busy} onClick={() => void createOrg(path)}>
            Create an org in this folder
          </button>
        </div>
      </div>
    );
  return (
    <div className="error-banner" role="alert">
      <strong>Could not open the org.</strong> {error.message}
      {error.fix && <div>{error.fix}</div>}
      {error.issues && error.issues.length > 0 && (
        <details>
          <summary>Advanced</summary>
          <ProblemList problems={error.issues} />
        </details>
      )}
    </div>
  );
}
