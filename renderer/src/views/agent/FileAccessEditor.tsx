import { useId } from 'react';
import type { PathsPreview } from './use-file-access-preview';

interface Props {
  /** The agent the paths are for. */
  agent: string;
  /** "Paths it may read", shown as the list's heading. */
  title: string;
  /** Names each entry: "Readable path 2". */
  entryLabel: string;
  help: string;
  entries: string[];
  preview: PathsPreview;
  onChange(entries: string[]): void;
}

/** "manager’s", "manager’s and writer’s". */
export function ownersOf(agents: readonly string[]): string {
  const owners = agents.map((name) => `${name}’s`);
  return owners.length === 1 ? owners[0]! : `${owners.slice(0, -1).join(', ')} and ${owners.at(-1)}`;
}

/** "manager’s private files", "manager’s and writer’s private files". */
export function privateFilesOf(agents: readonly string[]): string {
  return `${ownersOf(agents)} private files`;
}

/** A list of file_access paths: add, edit, remove, each with where it really leads or why it is refused. */
export function FileAccessEditor({ agent, title, entryLabel, help, entries, preview, onChange }: Props) {
  const id = useId();
  const setEntry = (index: number, value: string) =>
    onChange(entries.map((entry, at) => (at === index ? value : entry)));

  return (
    <fieldset className="file-access-editor">
      <legend>{title}</legend>
      <p className="help">{help}</p>
      {entries.length === 0 && <p className="muted">No paths yet. Add one with the button below.</p>}
      <ol className="path-list">
        {entries.map((entry, index) => {
          const entryPreview = preview.status === 'ready' ? preview.previews[index] : undefined;
          const inputId = `${id}-${index}`;
          const noteId = `${inputId}-note`;
          const label = `${entryLabel} ${index + 1}`;
          return (
            <li key={index}>
              <div className="path-row">
                <label htmlFor={inputId} className="visually-hidden">
                  {label}
                </label>
                <input
                  id={inputId}
                  value={entry}
                  spellCheck={false}
                  placeholder="shared/reports"
                  aria-invalid={entryPreview ? !entryPreview.ok : undefined}
                  aria-describedby={noteId}
                  onChange={(event) => setEntry(index, event.target.value)}
                />
                <button
                  type="button"
                  aria-label={`Remove ${label.toLowerCase()}`}
                  onClick={() => onChange(entries.filter((_, at) => at !== index))}
                >
                  Remove
                </button>
              </div>
              <div id={noteId} className="path-note" data-path-note={index}>
                {!entryPreview && <span className="muted">Checking…</span>}
                {entryPreview?.ok === true && (
                  <span className={entryPreview.writesOnlyInWorkspaces ? 'path-warn' : 'path-ok'}>
                    <span aria-hidden="true">{entryPreview.writesOnlyInWorkspaces ? '⚠ ' : '✓ '}</span>
                    Leads to{' '}
                    {entryPreview.display === '.' ? (
                      'the whole org folder'
                    ) : (
                      <code>{entryPreview.display}</code>
                    )}
                    {entryPreview.display !== entry.trim() && (
                      <>
                        {' '}
                        (saved as <code>{entryPreview.display}</code>)
                      </>
                    )}{' '}
                    <span className="muted">
                      (<code>{entryPreview.canonical}</code>
                      {entryPreview.exists ? '' : ', not there yet'})
                    </span>
                    {entryPreview.readOnly && (
                      <span className="path-read-only" data-read-only>
                        {' '}
                        {entryPreview.readOnly}.
                      </span>
                    )}
                    {entryPreview.writesOnlyInWorkspaces && (
                      <span data-writes-refused>
                        {' '}
                        Every other write here is refused, so give the workspace folder instead.
                      </span>
                    )}
                  </span>
                )}
                {entryPreview?.ok === true && entryPreview.otherAgents.length > 0 && (
                  <span className="path-warn" data-other-agents>
                    {' '}
                    <span aria-hidden="true">⚠ </span>
                    This lets {agent} change {privateFilesOf(entryPreview.otherAgents)}; you are asked before
                    it is saved.
                  </span>
                )}
                {entryPreview?.ok === false && (
                  <span className="path-refused">
                    <span aria-hidden="true">✗ </span>
                    Refused: {entryPreview.reason}
                  </span>
                )}
              </div>
            </li>
          );
        })}
      </ol>
      {preview.status === 'failed' && (
        <p className="path-refused" role="alert">
          Could not check these paths: {preview.error.message}
        </p>
      )}
      <button type="button" onClick={() => onChange([...entries, ''])}>
        Add {entryLabel.toLowerCase()}
      </button>
    </fieldset>
  );
}
