import { useId, useState, type FormEvent } from 'react';
import type {
  AgentUpdate,
  IpcError,
  OrgUpdateApplied,
  OrgUpdatePlan,
  OrgUpdatePlanInput,
  ReachItem,
} from '../../../../engine/api';
import { Dialog } from '../../components/Dialog';
import { ErrorAlert } from '../../components/ErrorAlert';
import { serverState } from '../../server-state/instance';
import { useQuery } from '../../server-state/use-query';

interface Props {
  onClose(): void;
}

const STATUS_WORDS: Record<AgentUpdate['status'], string> = {
  changed: 'Changes',
  unchanged: 'No changes',
  added: 'New agent',
  removed: 'Not in the newer copy',
};

const CHOICE_WORDS: Record<AgentUpdate['status'], string> = {
  changed: 'Update this agent',
  unchanged: '',
  added: 'Add this agent',
  removed: 'Remove this agent',
};

/**
 * Updating the org from a newer copy of it (a template, a bundle, another copy): agent by agent, what
 * would change in plain words, the instructions' diff under "Show changes", and which agents to update.
 * What the agents learned (memory, outbox, workspace, credits, history) is kept.
 */
export function UpdateReview({ onClose }: Props) {
  const id = useId();
  const [source, setSource] = useState('');
  const templates = useQuery('templates.gallery', {}).result;
  const [template, setTemplate] = useState('');
  const [plan, setPlan] = useState<OrgUpdatePlan | null>(null);
  const [chosen, setChosen] = useState<Set<string>>(new Set());
  const [error, setError] = useState<{ title: string; error: IpcError } | null>(null);
  const [busy, setBusy] = useState(false);
  const [applied, setApplied] = useState<OrgUpdateApplied | null>(null);

  async function choose() {
    const picked = await serverState().write('org.pickFolder', {});
    if (picked.ok && picked.value.path) setSource(picked.value.path);
  }

  async function compare(event: FormEvent, input: OrgUpdatePlanInput) {
    event.preventDefault();
    setBusy(true);
    const result = await serverState().write('org.updatePlan', input);
    setBusy(false);
    if (!result.ok)
      return setError({
        title:
          'source' in input
            ? 'Could not compare with that folder or bundle.'
            : 'Could not compare with that template.',
        error: result.error,
      });
    setError(null);
    setPlan(result.value);
    setChosen(
      new Set(
        result.value.agents
          .filter((agent) => agent.status === 'changed' || agent.status === 'added')
          .map((agent) => agent.agent),
      ),
    );
  }

  async function apply() {
    if (!plan) return;
    const status = new Map(plan.agents.map((agent) => [agent.agent, agent.status]));
    const picked = [...chosen];
    setBusy(true);
    const result = await serverState().write('org.updateApply', {
      source: plan.source,
      agents: picked.filter((name) => status.get(name) !== 'removed'),
      remove: picked.filter((name) => status.get(name) === 'removed'),
    });
    setBusy(false);
    if (!result.ok) return setError({ title: 'The update did not finish.', error: result.error });
    setError(null);
    setApplied(result.value);
  }

  const toggle = (agent: string, on: boolean) =>
    setChosen((current) => {
      const next = new Set(current);
      if (on) next.add(agent);
      else next.delete(agent);
      return next;
    });

  const listed = plan?.agents.filter((agent) => agent.status !== 'unchanged') ?? [];
  const unchanged = plan?.agents.filter((agent) => agent.status === 'unchanged') ?? [];
  const widens = listed.some((agent) => agent.reachAdded.length > 0 && chosen.has(agent.agent));

  return (
    <Dialog title="Update from a newer copy" className="update-review-dialog" onClose={onClose}>
      {applied ? (
        <AppliedSummary applied={applied} onClose={onClose} />
      ) : (
        <>
          <form
            className="update-source"
            aria-label="The newer copy"
            onSubmit={(event) => void compare(event, { source: source.trim() })}
          >
            <label htmlFor={`${id}-source`}>
              Folder or bundle (.lemming.zip) of the newer copy of this org
            </label>
            <div className="update-source-row">
              <input
                id={`${id}-source`}
                value={source}
                onChange={(event) => setSource(event.target.value)}
                required
              />
              <button type="button" onClick={() => void choose()}>
                Choose…
              </button>
              <button type="submit" disabled={busy || source.trim() === ''}>
                Compare
              </button>
            </div>
          </form>
          {templates?.ok && templates.value.templates.length > 0 && (
            <form
              className="update-source"
              aria-label="A template"
              onSubmit={(event) => void compare(event, { template })}
            >
              <label htmlFor={`${id}-template`}>Or the newest version of a template it was made from</label>
              <div className="update-source-row">
                <select
                  id={`${id}-template`}
                  value={template}
                  onChange={(event) => setTemplate(event.target.value)}
                >
                  <option value="">Choose a template…</option>
                  {templates.value.templates.map((card) => (
                    <option key={card.name} value={card.name}>
                      {card.title}
                    </option>
                  ))}
                </select>
                <button type="submit" disabled={busy || template === ''}>
                  Compare
                </button>
              </div>
            </form>
          )}
          {error && <ErrorAlert error={error.error} title={error.title} />}
          {plan && (
            <>
              <p>
                Updating keeps what each agent learned: its memory, messages, workspace, credits and history
                stay as they are.
              </p>
              {listed.length === 0 && (
                <p role="status">Every agent is the same in both copies: nothing to update.</p>
              )}
              <ul className="update-agents" aria-label="Agents">
                {listed.map((agent) => (
                  <li key={agent.agent}>
                    <section aria-label={agent.agent} className="update-agent">
                      <h3>
                        {agent.agent} <span className="update-status">{STATUS_WORDS[agent.status]}</span>
                        {agent.reachAdded.length > 0 && (
                          <span className="update-widens">Reaches further</span>
                        )}
                      </h3>
                      <ul>
                        {agent.changes.map((change, index) => (
                          <li key={index}>
                            {change.words}
                            {change.widens && <span className="update-more-power"> (more power)</span>}
                          </li>
                        ))}
                      </ul>
                      {agent.reachAdded.length > 0 && <NewReach items={agent.reachAdded} />}
                      {agent.instructionsDiff && agent.status === 'changed' && (
                        <details>
                          <summary>Show changes</summary>
                          <InstructionsDiff lines={agent.instructionsDiff} />
                        </details>
                      )}
                      <label>
                        <input
                          type="checkbox"
                          checked={chosen.has(agent.agent)}
                          onChange={(event) => toggle(agent.agent, event.target.checked)}
                        />{' '}
                        {CHOICE_WORDS[agent.status]}
                      </label>
                    </section>
                  </li>
                ))}
              </ul>
              {unchanged.length > 0 && (
                <p className="update-unchanged">
                  Unchanged: {unchanged.map((agent) => agent.agent).join(', ')}
                </p>
              )}
              {plan.problems.length > 0 && (
                <p className="warning-text">
                  Left out, because they cannot be read:{' '}
                  {plan.problems.map((problem) => problem.file).join(', ')}
                </p>
              )}
              {widens && (
                <p className="update-trust-note" role="note">
                  Some of the chosen changes let the org run or reach more (marked “Reaches further”). After
                  the update the org will not run until you trust it again.
                </p>
              )}
              <div className="form-actions">
                <button
                  type="button"
                  className="primary-button"
                  disabled={busy || chosen.size === 0}
                  onClick={() => void apply()}
                >
                  {busy ? 'Updating…' : `Update ${chosen.size} ${chosen.size === 1 ? 'agent' : 'agents'}`}
                </button>
                <button type="button" onClick={onClose}>
                  Cancel
                </button>
              </div>
            </>
          )}
        </>
      )}
    </Dialog>
  );
}

/** What the org could newly run or reach once the agent is updated: what the trust screen will ask about. */
function NewReach({ items }: { items: ReachItem[] }) {
  return (
    <ul className="update-reach" aria-label="New to trust">
      {items.map((item) => (
        <li key={`${item.kind}:${item.subject}:${item.file}:${item.field ?? ''}`}>
          New to trust:{' '}
          {item.kind === 'shell' || item.kind === 'web' ? (
            item.because
          ) : (
            <>
              <code>{item.subject}</code>, for {item.because}
            </>
          )}
        </li>
      ))}
    </ul>
  );
}

function InstructionsDiff({ lines }: { lines: NonNullable<AgentUpdate['instructionsDiff']> }) {
  return (
    <pre className="instructions-diff" aria-label="Instructions, before and after">
      {lines.map((line, index) => (
        <div key={index} className={`diff-${line.kind}`}>
          {line.kind === 'added' ? '+ ' : line.kind === 'removed' ? '- ' : '  '}
          {line.text}
        </div>
      ))}
    </pre>
  );
}

function AppliedSummary({ applied, onClose }: { applied: OrgUpdateApplied; onClose(): void }) {
  const words = (items: readonly string[]) => (items.length > 0 ? items.join(', ') : 'none');
  return (
    <div role="status">
      <p>
        Updated: {words(applied.updated)}. Added: {words(applied.added)}. Removed: {words(applied.removed)}.
      </p>
      {applied.needsTrustAgain && (
        <p className="update-trust-note">
          The org can now reach further than you trusted. It will not run until you look at what it can do and
          trust it again.
        </p>
      )}
      <div className="form-actions">
        <button type="button" className="primary-button" onClick={onClose}>
          Done
        </button>
      </div>
    </div>
  );
}
