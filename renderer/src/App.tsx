import { AgentList } from './views/AgentList';
import { OpenOrgForm } from './views/OpenOrgForm';
import { useOrgStore } from './stores/org-store';

export function App() {
  const state = useOrgStore((store) => store.state);

  return (
    <div className="app" data-app-state={state.status}>
      <header className="app-header">
        <h1>LeMMing Desktop</h1>
        {state.status === 'open' && (
          <span className="org-path" title={state.org.path}>
            {state.org.name}
          </span>
        )}
      </header>
      <main className="app-main">
        <OpenOrgForm />
        {state.status === 'none' && (
          <section className="empty-state" aria-labelledby="welcome-heading">
            <h2 id="welcome-heading">Open an org to begin</h2>
            <p>
              An org is a folder with an <code>agents</code> folder inside, one folder per agent. Choose one
              with <strong>Choose org folder…</strong>, or paste its path. LeMMing orgs open unchanged.
            </p>
          </section>
        )}
        {state.status === 'failed' && (
          <div className="error-banner" role="alert">
            <strong>Could not open the org.</strong> {state.error.message}
            {state.error.issues?.map((issue) => (
              <div key={issue.path}>
                {issue.path}: {issue.message}
              </div>
            ))}
          </div>
        )}
        {state.status === 'open' && <AgentList org={state.org} agents={state.agents} />}
      </main>
    </div>
  );
}
