import { useState } from 'react';
import { KIND_WORDS, orgWideChange, type IpcError, type ToolVerdict } from '../../../engine/api';
import { Advanced } from '../components/Advanced';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { ToolSearch } from '../components/ToolSearch';
import { serverState } from '../server-state/instance';
import { useQuery } from '../server-state/use-query';
import { groupByServer, searchTools, SEARCH_FROM } from '../words/tool-groups';
import { ErrorAlert } from '../components/ErrorAlert';

function granted(tool: ToolVerdict): boolean {
  return tool.layers.find((layer) => layer.layer === 'allowlist')?.passed ?? false;
}

/** A tool's verdict as the engine and `lemming tools` state it: its id, each check with the files and fields behind it. */
function ToolDetail({ tool, needsUser }: { tool: ToolVerdict; needsUser: { summary: string }[] }) {
  return (
    <>
      <div>
        Tool name: <code>{tool.name}</code>
      </div>
      <ul className="tool-layers">
        {tool.layers.map((layer) => (
          <li key={layer.layer}>
            {layer.passed ? '✓' : '✗'} {layer.layer}: {layer.reason}
          </li>
        ))}
      </ul>
      {tool.fix && <div>Fix: {tool.fix.summary}</div>}
      {tool.note && tool.note !== tool.plainNote && <div>{tool.note}</div>}
      {needsUser.map(({ summary }) => (
        <div key={summary}>Still up to you: {summary}</div>
      ))}
    </>
  );
}

/** Each tool the agent could have: on or off, and for an unavailable one why, with the fix one click away. */
export function ToolToggles({ agent }: { agent: string }) {
  const [actionError, setError] = useState<{ title: string; error: IpcError } | null>(null);
  const [needsUser, setNeedsUser] = useState<Record<string, { plain: string; summary: string }[]>>({});
  const [busy, setBusy] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<{ tool: ToolVerdict; orgWide: string[] } | null>(null);
  const [query, setQuery] = useState('');

  const { result, replace } = useQuery('tools.explain', { agent });
  const tools = result?.ok ? result.value.tools : null;
  const error =
    actionError ??
    (result && !result.ok ? { title: 'Could not read which tools it has.', error: result.error } : null);

  const replaceTool = (verdict: ToolVerdict) => {
    if (tools) replace({ agent, tools: tools.map((tool) => (tool.name === verdict.name ? verdict : tool)) });
  };

  async function toggle(tool: ToolVerdict, enabled: boolean) {
    setBusy(tool.name);
    const result = await serverState().write('tools.setEnabled', { agent, tool: tool.name, enabled });
    setBusy(null);
    if (!result.ok)
      return setError({
        title: `Could not ${enabled ? 'give' : 'take away'} ${tool.title}.`,
        error: result.error,
      });
    setError(null);
    replaceTool(result.value.tool);
  }

  function askThenApplyFix(tool: ToolVerdict) {
    const orgWide = (tool.fix?.changes ?? []).flatMap((change) => orgWideChange(change) ?? []);
    if (orgWide.length > 0) setConfirming({ tool, orgWide });
    else void applyFix(tool, false);
  }

  async function applyFix(tool: ToolVerdict, confirmOrgWide: boolean) {
    setConfirming(null);
    setBusy(tool.name);
    const result = await serverState().write('tools.applyFix', { agent, tool: tool.name, confirmOrgWide });
    setBusy(null);
    if (!result.ok)
      return setError({ title: `Could not apply the fix for ${tool.title}.`, error: result.error });
    setError(null);
    replaceTool(result.value.tool);
    setNeedsUser((current) => ({
      ...current,
      [tool.name]: result.value.needsUser.map(({ plain, summary }) => ({ plain, summary })),
    }));
  }

  if (tools === null)
    return error ? (
      <ErrorAlert error={error.error} title={error.title} />
    ) : (
      <p role="status">Reading its tools…</p>
    );

  const found = searchTools(tools, query, (tool) => [tool.title, tool.name, KIND_WORDS[tool.kind]]);
  // Grouped when the org's tools come from more than one place, also while a search shows fewer.
  const grouped = groupByServer(tools, (tool) => tool.name).length > 1;
  const groups = groupByServer(found, (tool) => tool.name);
  const row = (tool: ToolVerdict) => {
    const failing = tool.layers.filter((layer) => !layer.passed);
    // A tool only not given to the agent is off, not broken: its switch turns it on.
    const simplyOff = failing.length > 0 && failing.every((layer) => layer.layer === 'allowlist');
    const noteId = `tool-note-${tool.name}`;
    return (
      <li key={tool.name} className="tool-row" data-tool={tool.name}>
        <label className="tool-toggle">
          <input
            type="checkbox"
            role="switch"
            checked={granted(tool)}
            disabled={busy === tool.name}
            aria-describedby={noteId}
            onChange={(event) => void toggle(tool, event.target.checked)}
          />
          <span className="tool-name">{tool.title}</span>
        </label>
        <div id={noteId} className="tool-note">
          {tool.available ? (
            <span className="tool-available">
              <span aria-hidden="true">✓ </span>Available to the agent
            </span>
          ) : simplyOff ? (
            <span className="tool-off">Off: this agent does not have it</span>
          ) : (
            <>
              <span className="tool-unavailable">
                <span aria-hidden="true">✗ </span>Not available:{' '}
              </span>
              <span className="tool-reason">{failing.map((layer) => layer.plain).join('; ')}</span>
              {tool.fix && (
                <div className="tool-fix">
                  To fix: {tool.fix.plain}{' '}
                  <button
                    type="button"
                    disabled={busy === tool.name}
                    aria-label={`Apply fix for ${tool.title}`}
                    onClick={() => askThenApplyFix(tool)}
                  >
                    Apply fix
                  </button>
                </div>
              )}
              {!tool.fix && <div className="muted">No setting can make it available.</div>}
            </>
          )}
          {tool.plainNote && <div className="muted">{tool.plainNote}</div>}
          {needsUser[tool.name]?.map(({ plain }) => (
            <div key={plain} className="warning-text">
              Still up to you: {plain}
            </div>
          ))}
          <Advanced>
            <ToolDetail tool={tool} needsUser={needsUser[tool.name] ?? []} />
          </Advanced>
        </div>
      </li>
    );
  };

  return (
    <section className="tool-toggles" aria-labelledby="tool-toggles-heading">
      <h3 id="tool-toggles-heading">Tools</h3>
      {error && <ErrorAlert error={error.error} title={error.title} />}
      {tools.length === 0 && (
        <p className="muted">No tools are known to this org. Add connectors in the Tool Store.</p>
      )}
      {tools.length >= SEARCH_FROM && (
        <ToolSearch
          label={`Search ${agent}’s tools`}
          query={query}
          onChange={setQuery}
          shown={found.length}
          total={tools.length}
        />
      )}
      {grouped ? (
        <ul className="tool-list">
          {groups.map((group) => (
            <li key={group.label} className="tool-group">
              <h4 className="tool-group-heading">{group.label}</h4>
              <ul className="tool-list" aria-label={group.label}>
                {group.tools.map(row)}
              </ul>
            </li>
          ))}
        </ul>
      ) : (
        <ul className="tool-list">{found.map(row)}</ul>
      )}
      <ConfirmDialog
        open={confirming !== null}
        title={`Change the whole org for ${confirming?.tool.title ?? ''}?`}
        confirmLabel="Change the whole org"
        onConfirm={() => confirming && void applyFix(confirming.tool, true)}
        onCancel={() => setConfirming(null)}
      >
        <p>
          Giving {agent} {confirming?.tool.title} needs a change that is not only {agent}&apos;s. It:
        </p>
        <ul>
          {confirming?.orgWide.map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
      </ConfirmDialog>
    </section>
  );
}
