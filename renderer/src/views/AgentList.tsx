import { problemLocation, type AgentListEntry, type OrgSummary } from '../../../engine/api';
import { AgentStateBadge } from '../components/AgentStateBadge';
import { useNavigation } from '../stores/navigation-store';

export function AgentList({ org, agents }: { org: OrgSummary; agents: AgentListEntry[] }) {
  if (agents.length === 0) {
    return (
      <section className="empty-state" aria-labelledby="no-agents-heading">
        <h2 id="no-agents-heading">This org has no agents yet</h2>
        <p>Create one with “New agent…”, or copy an agent’s folder from another org into this one.</p>
        <details>
          <summary>Advanced</summary>
          An agent is a folder under <code>{org.path}/agents/</code> with a <code>resume.json</code> in it.
        </details>
      </section>
    );
  }

  return (
    <section aria-labelledby="agents-heading">
      <h2 id="agents-heading">
        Agents <span className="count">{agents.length}</span>
        {org.invalidAgentCount > 0 && (
          <span className="count warning">{org.invalidAgentCount} need attention</span>
        )}
      </h2>
      <ul className="agent-list" aria-label="Agents">
        {agents.map((agent) => (
          <AgentRow key={agent.folder} agent={agent} />
        ))}
      </ul>
    </section>
  );
}

function AgentRow({ agent }: { agent: AgentListEntry }) {
  const openAgent = useNavigation((store) => store.openAgent);
  return (
    <li
      className={agent.valid ? 'agent-card' : 'agent-card invalid'}
      aria-label={agent.name}
      data-agent={agent.name}
    >
      <div className="agent-heading">
        <span className="agent-name">{agent.name}</span>
        <AgentStateBadge state={agent.state} />
        <button type="button" className="agent-open" onClick={() => openAgent(agent.name)}>
          Open {agent.name}
        </button>
      </div>
      {agent.title && <div className="agent-title">{agent.title}</div>}
      {agent.valid && agent.state.kind !== 'ready' && (
        <p className="agent-state-words">{agent.state.words}</p>
      )}
      {agent.problems.length > 0 && (
        <ul className="problems" aria-label={`Problems with ${agent.name}`}>
          {agent.problems.map((problem, index) => (
            <li key={index}>
              <code>{problemLocation(problem)}</code>
              {problem.field && (
                <>
                  {' '}
                  — field <code>{problem.field}</code>
                </>
              )}
              : {problem.message}
            </li>
          ))}
        </ul>
      )}
      {agent.warnings.map((warning, index) => (
        <p key={index} className="agent-warning">
          {warning.message}
        </p>
      ))}
    </li>
  );
}
