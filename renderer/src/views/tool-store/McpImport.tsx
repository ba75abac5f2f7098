import { useState } from 'react';
import type { McpImportResult, McpImportSource } from '../../../../engine/api';
import { useActivity } from '../../components/activity-store';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { serverState } from '../../server-state/instance';

const SOURCES: { from: McpImportSource; label: string }[] = [
  { from: 'claude', label: 'Claude Desktop' },
  { from: 'cursor', label: 'Cursor' },
];

type Outcome = { ok: true; result: McpImportResult } | { ok: false; message: string };

/** Adds the MCP servers another app on this computer already uses, then reloads the Tool Store. */
export function McpImport() {
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  /** Keys the import would replace in the secret store, waiting for the person's yes. */
  const [replacing, setReplacing] = useState<{ from: McpImportSource; names: string[] } | null>(null);

  async function importFrom(from: McpImportSource, replaceSecrets: string[] = []) {
    setBusy(true);
    const activity = useActivity.getState();
    const id = activity.begin('Importing tool servers…');
    const answer = await serverState().write('connectors.importMcp', { from, replaceSecrets });
    activity.end(id, answer.ok || answer.error.code === 'needs_confirmation');
    setBusy(false);
    if (!answer.ok && answer.error.code === 'needs_confirmation') {
      setOutcome(null);
      setReplacing({ from, names: (answer.error.issues ?? []).map((issue) => issue.path) });
      return;
    }
    setOutcome(answer.ok ? { ok: true, result: answer.value } : { ok: false, message: answer.error.message });
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
      <ConfirmDialog
        open={replacing !== null}
        title="Replace saved keys?"
        confirmLabel="Replace them and import"
        destructive
        onCancel={() => {
          setReplacing(null);
          setOutcome({ ok: false, message: 'Nothing was imported: your saved keys were kept.' });
        }}
        onConfirm={() => {
          const agreed = replacing;
          setReplacing(null);
          if (agreed) void importFrom(agreed.from, agreed.names);
        }}
      >
        The secret store already has {replacing?.names.join(', ')}. Importing replaces{' '}
        {replacing?.names.length === 1 ? 'its value' : 'their values'} with the one from the other app, and
        the old value cannot be recovered.
      </ConfirmDialog>
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
