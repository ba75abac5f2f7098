import { useId, useState, type FormEvent } from 'react';
import { problemPlace, type Department, type IpcError, type Problem } from '../../../../engine/api';
import { Dialog } from '../../components/Dialog';
import { ErrorAlert } from '../../components/ErrorAlert';
import { ProblemList } from '../../components/ProblemList';
import { serverState } from '../../server-state/instance';
import { useQuery } from '../../server-state/use-query';

interface Props {
  /** Every agent of the org, by name: the ones a department may hold. */
  agents: readonly string[];
  onClose(): void;
}

type Editing = { department: Department | null } | null;

/** A problem in a department file, with where it is: `departments/desk.json:4:3 (tags)`. */
const located = (problem: Problem) => ({ path: problemPlace(problem), message: problem.message });

/** The org's departments: each groups some of its agents. Listed, created and changed here. */
export function DepartmentsDialog({ agents, onClose }: Props) {
  const { result } = useQuery('departments.list', {});
  const list = result?.ok ? result.value : null;
  const [editing, setEditing] = useState<Editing>(null);

  return (
    <Dialog title="Departments" className="departments-dialog" onClose={onClose}>
      {result && !result.ok && <ErrorAlert error={result.error} title="Could not read the departments." />}
      {list && list.problems.length > 0 && (
        <div className="inline-alert" role="alert">
          <strong>Some department files cannot be read; the others are shown.</strong>
          <ProblemList problems={list.problems.map(located)} />
        </div>
      )}
      {list && list.warnings.length > 0 && (
        <div className="warning-text" role="note">
          <ProblemList problems={list.warnings.map(located)} />
        </div>
      )}
      {editing ? (
        <DepartmentForm department={editing.department} agents={agents} onDone={() => setEditing(null)} />
      ) : (
        <>
          {list && list.departments.length === 0 && (
            <p>
              No departments yet. A department groups agents that work together: it has its own box on the
              graph, its own line in the credits and can filter the timeline.
            </p>
          )}
          <ul className="department-list" aria-label="Departments">
            {list?.departments.map((department) => (
              <li key={department.name}>
                <div>
                  <strong>{department.name}</strong> — {department.description}
                  <div className="department-members">
                    {department.agents.length > 0 ? department.agents.join(', ') : 'No agents yet'}
                  </div>
                </div>
                <button
                  type="button"
                  aria-label={`Edit ${department.name}`}
                  onClick={() => setEditing({ department })}
                >
                  Edit
                </button>
              </li>
            ))}
          </ul>
          <div className="form-actions">
            <button type="button" className="primary-button" onClick={() => setEditing({ department: null })}>
              New department…
            </button>
            <button type="button" onClick={onClose}>
              Done
            </button>
          </div>
        </>
      )}
    </Dialog>
  );
}

function DepartmentForm({
  department,
  agents,
  onDone,
}: {
  department: Department | null;
  agents: readonly string[];
  onDone(): void;
}) {
  const id = useId();
  const [name, setName] = useState(department?.name ?? '');
  const [description, setDescription] = useState(department?.description ?? '');
  const [members, setMembers] = useState<string[]>(department?.agents ?? []);
  const [error, setError] = useState<IpcError | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    const saved = await serverState().write('departments.save', {
      name: name.trim(),
      description,
      agents: members,
    });
    setBusy(false);
    if (!saved.ok) return setError(saved.error);
    onDone();
  }

  const toggle = (agent: string, on: boolean) =>
    setMembers((current) => (on ? [...current, agent] : current.filter((member) => member !== agent)));

  return (
    <form
      className="department-form"
      aria-label={department ? `Edit ${department.name}` : 'New department'}
      onSubmit={submit}
    >
      <div className="form-grid">
        <label htmlFor={`${id}-name`}>Name</label>
        <input
          id={`${id}-name`}
          value={name}
          onChange={(event) => setName(event.target.value)}
          readOnly={department !== null}
          required
          aria-describedby={`${id}-name-help`}
        />
        <p id={`${id}-name-help`} className="help">
          Letters, digits, “_” and “-”.
        </p>
        <label htmlFor={`${id}-description`}>What it does</label>
        <input
          id={`${id}-description`}
          value={description}
          onChange={(event) => setDescription(event.target.value)}
          required
        />
      </div>
      <fieldset className="department-agents">
        <legend>Its agents</legend>
        {agents.map((agent) => (
          <label key={agent}>
            <input
              type="checkbox"
              checked={members.includes(agent)}
              onChange={(event) => toggle(agent, event.target.checked)}
            />{' '}
            {agent}
          </label>
        ))}
      </fieldset>
      {error && <ErrorAlert error={error} title="Could not save the department." />}
      <div className="form-actions">
        <button type="submit" className="primary-button" disabled={busy}>
          {busy ? 'Saving…' : 'Save department'}
        </button>
        <button type="button" onClick={onDone}>
          Back
        </button>
      </div>
    </form>
  );
}
