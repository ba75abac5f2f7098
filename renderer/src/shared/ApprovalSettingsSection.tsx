import { useId, useState } from 'react';
import { toolWords, type ApprovalMode } from '../../../engine/api';
import { valueOf, write } from '../server-state/write';
import { useQuery } from '../server-state/use-query';
import '../views/approvals/approvals.css';
import { ErrorAlert } from '../components/ErrorAlert';

const MODE_WORDS: Record<ApprovalMode, string> = {
  always: 'Always allowed',
  ask: 'Ask me first',
  never: 'Never allowed',
};

/** The select's value for a tool that changed since the person chose: no choice is shown as made. */
const CHANGED = 'changed';

/** "Ask me first" in the Tool Store: for each agent and each tool it has, when a call needs your approval. */
export function ApprovalSettingsSection() {
  const { result, replace: setView } = useQuery('approvals.settings', {});
  const view = result?.ok ? result.value : null;
  const problem = result && !result.ok ? result.error : null;
  const [agent, setAgent] = useState('');
  const [timeoutText, setTimeoutText] = useState<string | null>(null);
  const headingId = useId();
  const setMode = async (agentName: string, tool: string, mode: ApprovalMode | null) => {
    const next = await write(
      'approvals.setMode',
      { agent: agentName, tool, mode },
      { progress: 'Saving the approval setting…', failure: 'The approval setting could not be saved' },
    ).then(valueOf);
    if (next) setView(next);
  };

  if (problem)
    return (
      <section aria-labelledby={headingId} className="approval-settings">
        <h3 id={headingId}>Ask me first</h3>
        <ErrorAlert error={problem} title="The approval settings could not be read." />
      </section>
    );
  if (!view) return null;
  const timeout = timeoutText ?? String(view.timeoutSeconds);
  const shown = view.agents.find((entry) => entry.agent === agent) ?? view.agents[0];
  return (
    <section aria-labelledby={headingId} className="approval-settings">
      <div className="tool-grants-heading">
        <h3 id={headingId}>Ask me first</h3>
        {view.agents.length > 0 && (
          <label>
            Approval settings for agent{' '}
            <select value={shown?.agent ?? ''} onChange={(event) => setAgent(event.target.value)}>
              {view.agents.map((entry) => (
                <option key={entry.agent} value={entry.agent}>
                  {entry.agent}
                </option>
              ))}
            </select>
          </label>
        )}
      </div>
      <p className="muted">
        Choose which of an agent&apos;s tools may run on their own and which wait for your yes.
      </p>
      <form
        className="approval-timeout"
        onSubmit={(event) => {
          event.preventDefault();
          const seconds = Number(timeout);
          void write(
            'approvals.setTimeout',
            { seconds },
            { progress: 'Saving the approval wait…', failure: 'The wait could not be saved' },
          )
            .then(valueOf)
            .then((next) => {
              if (!next) return;
              setView(next);
              setTimeoutText(null);
            });
        }}
      >
        <label>
          Deny a request nobody answers after{' '}
          <input
            type="number"
            min={1}
            max={86400}
            value={timeout}
            onChange={(event) => setTimeoutText(event.target.value)}
            aria-describedby={`${headingId}-wait`}
          />{' '}
          seconds
        </label>
        <button type="submit" disabled={Number(timeout) === view.timeoutSeconds}>
          Save
        </button>
        <span id={`${headingId}-wait`} className="muted">
          (now {view.timeoutSeconds} seconds)
        </span>
      </form>
      {!shown || shown.tools.length === 0 ? (
        <p>{shown ? `${shown.agent} has no tools yet.` : 'No valid agents yet.'}</p>
      ) : (
        <table aria-label={`Approval settings for ${shown.agent}`}>
          <thead>
            <tr>
              <th scope="col">Tool</th>
              <th scope="col">When it runs</th>
              <th scope="col">Built-in rule</th>
            </tr>
          </thead>
          <tbody>
            {shown.tools.map((tool) => (
              <tr key={tool.tool}>
                <th scope="row">{toolWords(tool.tool, tool.title)}</th>
                <td>
                  <select
                    aria-label={`When ${toolWords(tool.tool, tool.title)} runs for ${shown.agent}`}
                    // A changed tool shows no choice: picking any one, even the one it had, accepts the change.
                    value={tool.changes.length > 0 ? CHANGED : tool.from === 'agent' ? tool.mode : 'default'}
                    onChange={(event) =>
                      void setMode(
                        shown.agent,
                        tool.tool,
                        event.target.value === 'default' ? null : (event.target.value as ApprovalMode),
                      )
                    }
                  >
                    {tool.changes.length > 0 && (
                      <option value={CHANGED} disabled>
                        Changed: asks until you choose again
                      </option>
                    )}
                    <option value="default">
                      {tool.from === 'org' ? "As the org's settings say" : 'Built-in rule'} (
                      {MODE_WORDS[tool.mode]})
                    </option>
                    <option value="always">{MODE_WORDS.always}</option>
                    <option value="ask">{MODE_WORDS.ask}</option>
                    <option value="never">{MODE_WORDS.never}</option>
                  </select>
                </td>
                <td className="muted">
                  {tool.defaultRule}
                  {tool.changes.length > 0 && (
                    <ul className="approval-row-changes" aria-label={`What changed in ${tool.title}`}>
                      {tool.changes.map((change) => (
                        <li key={change}>{change}</li>
                      ))}
                    </ul>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
