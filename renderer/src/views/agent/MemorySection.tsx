import { useId, useState, type FormEvent } from 'react';
import type { AgentMemory, MemoryChangeView, MemoryEntryView } from '../../../../engine/api';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { write } from '../../server-state/write';
import { useQuery } from '../../server-state/use-query';
import { ErrorAlert } from '../../components/ErrorAlert';

/** A value as the person reads it: text as it is, anything else as indented JSON. */
function shown(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value, null, 2);
}

const NOT_JSON = Symbol('not JSON');

/** The value JSON text stands for, or NOT_JSON. */
function jsonOf(text: string): ReturnType<typeof JSON.parse> {
  try {
    return JSON.parse(text);
  } catch {
    return NOT_JSON;
  }
}

function matches(words: string, ...texts: string[]): boolean {
  const query = words.trim().toLowerCase();
  return query === '' || texts.some((text) => text.toLowerCase().includes(query));
}

/** A memory's two fields, as a refusal's issues name them. */
const memoryFieldOf = (path: string) => (path === 'key' || path === 'value' ? path : null);

/**
 * An agent's memory on its page: every key and its value, searchable, each editable or removable by the
 * person, a new memory added, and the history of changes from the timeline (the agent's, the person's,
 * and files changed outside the app). Edits are kept in LeMMing's memory files and recorded in the
 * timeline as the person's.
 */
export function MemorySection({ agent }: { agent: string }) {
  const { result, replace } = useQuery('memory.get', { agent });
  const [search, setSearch] = useState('');
  const headingId = useId();
  const searchId = useId();

  if (!result) return null;
  if (!result.ok)
    return (
      <section className="memory-section panel" aria-labelledby={headingId}>
        <h3 id={headingId}>Memory</h3>
        <ErrorAlert error={result.error} title={`Could not read ${agent}’s memory.`} />
      </section>
    );
  const memory = result.value;
  const entries = memory.entries.filter((entry) => matches(search, entry.key, shown(entry.value)));
  const history = memory.history.filter((change) => matches(search, change.key, ...change.values.map(shown)));

  return (
    <section className="memory-section panel" aria-labelledby={headingId}>
      <h3 id={headingId}>Memory</h3>
      <p className="muted small">
        What {agent} keeps between turns. It sees these in its next turn. Your changes are recorded in the
        timeline as yours.
      </p>
      {memory.entries.length > 0 && (
        <div className="memory-search">
          <label htmlFor={searchId}>Search memory</label>
          <input
            id={searchId}
            type="search"
            value={search}
            onChange={(event) => setSearch(event.target.value)}
            placeholder="A name or a word in a value"
          />
        </div>
      )}
      {memory.problems.map((problem) => (
        <p key={problem.file} className="inline-error">
          A memory file cannot be read: <code>{problem.file}</code> {problem.message}
        </p>
      ))}
      {memory.entries.length === 0 ? (
        <p className="muted">{agent} has no memories yet.</p>
      ) : entries.length === 0 ? (
        <p className="muted" role="status">
          No memory matches “{search}”.
        </p>
      ) : (
        <ul className="memory-list" aria-label={`Memory of ${agent}`}>
          {entries.map((entry) => (
            <MemoryItem key={entry.key} agent={agent} entry={entry} onChanged={replace} />
          ))}
        </ul>
      )}
      <AddMemoryForm agent={agent} onAdded={replace} />
      <MemoryHistory agent={agent} history={history} more={memory.moreHistory} />
    </section>
  );
}

function MemoryItem({
  agent,
  entry,
  onChanged,
}: {
  agent: string;
  entry: MemoryEntryView;
  onChanged: (memory: AgentMemory) => void;
}) {
  const [editing, setEditing] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [removing, setRemoving] = useState(false);
  const ids = useId();
  const isText = typeof entry.value === 'string';

  const save = async (event: FormEvent) => {
    event.preventDefault();
    if (editing === null) return;
    const value = isText ? editing : jsonOf(editing);
    if (value === NOT_JSON) {
      setProblem('This value holds a structure: write it as JSON, e.g. {"status": "done"}.');
      return;
    }
    const saved = await write(
      'memory.edit',
      { action: 'set', agent, key: entry.key, value },
      {
        failure: `Could not save ${entry.key}`,
        success: { title: `Saved ${entry.key}`, detail: `${agent} sees it in its next turn.` },
        fieldOf: memoryFieldOf,
      },
    );
    if (!saved.ok) {
      setProblem(saved.error.fields.byField.value?.[0] ?? saved.error.message);
      return;
    }
    setEditing(null);
    setProblem(null);
    onChanged(saved.value);
  };

  const remove = async () => {
    setRemoving(false);
    const removed = await write(
      'memory.edit',
      { action: 'remove', agent, key: entry.key },
      { failure: `Could not remove ${entry.key}`, success: `Removed ${entry.key} from ${agent}’s memory` },
    );
    if (removed.ok) onChanged(removed.value);
  };

  return (
    <li className="memory-item" aria-label={entry.key} data-memory-key={entry.key}>
      <div className="memory-item-heading">
        <strong>{entry.key}</strong>
        <span className="muted small">
          {entry.tick !== null ? `changed in tick ${entry.tick}` : 'changed outside the app'}
        </span>
      </div>
      {editing === null ? (
        <>
          <pre className="memory-value" tabIndex={0} aria-label={`Value of ${entry.key}`}>
            {shown(entry.value)}
          </pre>
          <div className="button-row">
            <button type="button" onClick={() => setEditing(shown(entry.value))}>
              Edit
            </button>
            <button type="button" className="ghost" onClick={() => setRemoving(true)}>
              Remove…
            </button>
          </div>
        </>
      ) : (
        <form className="memory-edit" aria-label={`Edit ${entry.key}`} onSubmit={(event) => void save(event)}>
          <label htmlFor={`${ids}-value`}>
            {isText ? 'Value' : 'Value (as JSON, since it holds a structure)'}
          </label>
          <textarea
            id={`${ids}-value`}
            value={editing}
            rows={Math.min(12, Math.max(3, editing.split('\n').length))}
            spellCheck={isText}
            autoFocus
            onChange={(event) => setEditing(event.target.value)}
            aria-invalid={problem !== null || undefined}
            aria-describedby={problem ? `${ids}-problem` : undefined}
          />
          {problem && (
            <span id={`${ids}-problem`} className="field-problem" role="alert">
              {problem}
            </span>
          )}
          <div className="button-row">
            <button type="submit" className="primary">
              Save {entry.key}
            </button>
            <button
              type="button"
              onClick={() => {
                setEditing(null);
                setProblem(null);
              }}
            >
              Cancel
            </button>
          </div>
        </form>
      )}
      <ConfirmDialog
        open={removing}
        title={`Remove ${entry.key}?`}
        confirmLabel="Remove memory"
        destructive
        onConfirm={() => void remove()}
        onCancel={() => setRemoving(false)}
      >
        <p>{agent} will no longer see it. The timeline keeps what it held, and that you removed it.</p>
      </ConfirmDialog>
    </li>
  );
}

function AddMemoryForm({ agent, onAdded }: { agent: string; onAdded: (memory: AgentMemory) => void }) {
  const [key, setKey] = useState('');
  const [value, setValue] = useState('');
  const [problem, setProblem] = useState<{ field: 'key' | 'value' | null; message: string } | null>(null);
  const ids = useId();

  const add = async (event: FormEvent) => {
    event.preventDefault();
    const added = await write(
      'memory.edit',
      { action: 'set', agent, key: key.trim(), value },
      {
        failure: `Could not add ${key.trim()}`,
        success: `Added ${key.trim()} to ${agent}’s memory`,
        fieldOf: memoryFieldOf,
      },
    );
    if (!added.ok) {
      const atKey = added.error.fields.byField.key?.[0];
      const atValue = added.error.fields.byField.value?.[0];
      setProblem(
        atKey
          ? { field: 'key', message: atKey }
          : atValue
            ? { field: 'value', message: atValue }
            : { field: null, message: added.error.message },
      );
      return;
    }
    onAdded(added.value);
    setKey('');
    setValue('');
    setProblem(null);
  };

  const described = (field: 'key' | 'value') =>
    problem?.field === field
      ? ({ 'aria-invalid': true, 'aria-describedby': `${ids}-${field}-problem` } as const)
      : {};
  const fieldProblem = (field: 'key' | 'value') =>
    problem?.field === field ? (
      <span id={`${ids}-${field}-problem`} className="field-problem" role="alert">
        {problem.message}
      </span>
    ) : null;

  return (
    <details className="memory-add">
      <summary>Add a memory</summary>
      <form aria-label={`Add a memory for ${agent}`} onSubmit={(event) => void add(event)}>
        <label htmlFor={`${ids}-key`}>Name</label>
        <input
          id={`${ids}-key`}
          value={key}
          onChange={(event) => setKey(event.target.value)}
          placeholder="e.g. house_style (letters, digits, _ and -)"
          spellCheck={false}
          {...described('key')}
        />
        {fieldProblem('key')}
        <label htmlFor={`${ids}-value`}>Value</label>
        <textarea
          id={`${ids}-value`}
          value={value}
          rows={3}
          onChange={(event) => setValue(event.target.value)}
          {...described('value')}
        />
        {fieldProblem('value')}
        {problem?.field === null && <p className="inline-error">{problem.message}</p>}
        <div className="button-row">
          <button type="submit" className="primary" disabled={key.trim() === ''}>
            Add memory
          </button>
        </div>
      </form>
    </details>
  );
}

const BY_WORDS: Record<MemoryChangeView['by'], string> = {
  agent: 'the agent',
  person: 'you',
  file: 'a file changed outside the app',
};

function changeWords(change: MemoryChangeView): string {
  const values = change.values.map((value) => JSON.stringify(value)).join(', ');
  switch (change.shows) {
    case 'removed':
      return 'removed';
    case 'appended':
      return `added ${values}`;
    case 'merged':
      return `merged in ${values}`;
    case 'value':
      return `set to ${values}`;
  }
}

function MemoryHistory({
  agent,
  history,
  more,
}: {
  agent: string;
  history: MemoryChangeView[];
  more: boolean;
}) {
  return (
    <details className="memory-history">
      <summary>History ({history.length === 0 ? 'no changes yet' : `${history.length} changes`})</summary>
      {history.length > 0 && (
        <ol aria-label={`Memory history of ${agent}`}>
          {history.map((change) => (
            <li key={change.seq}>
              <span className="muted small">{change.tick !== null ? `Tick ${change.tick}` : '—'}</span>{' '}
              <strong>{change.key}</strong> {changeWords(change)}{' '}
              <span className="muted small">by {BY_WORDS[change.by]}</span>
            </li>
          ))}
        </ol>
      )}
      {more && <p className="muted small">Older changes are in the timeline.</p>}
    </details>
  );
}
