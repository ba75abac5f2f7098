import { useState } from 'react';
import type { McpImportResult, McpImportSource } from '../../../../engine/api';
import { useActivity } from '../../components/activity-store';
import { lemming } from '../../lemming';

const SOURCES: { from: McpImportSource; label: string }[] = [
  { from: 'claude', label: 'Claude Desktop' },
  { from: 'cursor', label: 'Cursor' },
];

type Outcome = { ok: true; result: McpImportResult } | { ok: false; message: string };

/** Adds the MCP servers another app on this computer already uses, then reloads the Tool Store. */
export function McpImport({ onImported }: { onImported(): void }) {
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);

  async function importFrom(from: McpImportSource) {
    setBusy(true);
    const activity = useActivity.getState();
    const id = activity.begin('Importing tool servers…');
    const answer = await lemming().connectors.importMcp({ from });
    activity.end(id, answer.ok);
    setBusy(false);
    setOutcome(answer.ok ? { ok: true, result: answer.value } : { ok: false, message: answer.error.message });
    if (answer.ok && answer.value.imported.length > 0) onImported();
  }

  return (
    <div className="mcp-import">
      <p className="muted">
        Already use tool servers (MCP) in another app? Add them here; their keys go to the secret store, never
        into a file.
      </p>
      {SOURCES.map(({ from, label }) => (
        <button key={from} type="button" disabled={busy} onClick={() => void importFrom(from)}>
          Import from {label}
        </button>
      ))}
      {outcome && (
        <p role="status" className={outcome.ok ? 'mcp-import-outcome' : 'mcp-error'}>
          {outcome.ok ? describe(outcome.result) : outcome.message}
        </p>
      )}
    </div>
  );
}

function describe({ imported, secrets, skipped }: McpImportResult): string {
  const added =
    imported.length === 0
      ? 'No server was added.'
      : `Added ${imported.length === 1 ? 'one server' : `${imported.length} servers`}: ${imported.join(', ')}.`;
  const keys =
    secrets.length === 0
      ? ''
      : ` ${secrets.length === 1 ? 'One value was' : `${secrets.length} values were`} saved in the secret store.`;
  const left =
    skipped.length === 0
      ? ''
      : ` Left out: ${skipped.map((server) => `${server.name} (${server.reason})`).join('; ')}.`;
  return added + keys + left;
}
