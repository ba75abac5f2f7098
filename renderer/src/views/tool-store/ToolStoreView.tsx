import { useEffect, useState } from 'react';
import {
  KIND_WORDS,
  isHumanOperator,
  problemLocation,
  type CatalogTool,
  type Connector,
} from '../../../../engine/api';
import { Advanced } from '../../components/Advanced';
import { Badge } from '../../components/Badge';
import { ToolSearch } from '../../components/ToolSearch';
import { groupByServer, searchTools, SEARCH_FROM } from '../../words/tool-groups';
import { ApprovalSettingsSection } from '../../shared/ApprovalSettingsSection';
import { serverState } from '../../server-state/instance';
import { useQuery } from '../../server-state/use-query';
import { ConnectorDrawer } from './ConnectorDrawer';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { McpImport } from './McpImport';
import { McpServerDialog, type EditedServer } from './McpServerDialog';
import { McpServerDetails } from './McpServerDetails';
import { RestApiDrawer } from './RestApiDrawer';
import { useNavigation } from '../../stores/navigation-store';
import { removeMcpServer, setToolEnabled } from './tool-store-writes';
import './tool-store.css';
import { ErrorAlert } from '../../components/ErrorAlert';

/** Reads the Tool Store's files again (the person fixed one by hand). */
function checkAgain() {
  serverState().markStale('tools.catalog');
  serverState().markStale('connectors.list');
}

/** The drawer id of a REST API not yet added. */
const NEW_REST_API = 'rest:+new';

/** The tools agents can be given and the connectors behind them: what each needs, who has it, its settings. */
export function ToolStoreView() {
  const catalogAnswer = useQuery('tools.catalog', {}).result;
  const connectorsAnswer = useQuery('connectors.list', {}).result;
  const [drawer, setDrawer] = useState<string | null>(null);
  const [mcpDialog, setMcpDialog] = useState<EditedServer | 'new' | null>(null);
  const [removing, setRemoving] = useState<string | null>(null);
  useFocusAskedFor(catalogAnswer?.ok === true && connectorsAnswer?.ok === true);

  const refusal = [catalogAnswer, connectorsAnswer].find((answer) => answer && !answer.ok);
  if (refusal && !refusal.ok)
    return (
      <ErrorAlert error={refusal.error} title="The Tool Store could not be loaded.">
        <button type="button" onClick={checkAgain}>
          Try again
        </button>
      </ErrorAlert>
    );

  if (!catalogAnswer?.ok || !connectorsAnswer?.ok) return <p role="status">Loading the Tool Store…</p>;
  const catalog = catalogAnswer.value;
  const connectors = connectorsAnswer.value;
  const open = connectors.connectors.find((connector) => connector.id === drawer);
  return (
    <section className="tool-store" aria-labelledby="tool-store-heading">
      <h2 id="tool-store-heading">Tool Store</h2>
      <p className="muted">
        Connectors give agents abilities. Set one up here, then enable its tools for the agents that should
        use them.
      </p>
      {connectors.loadErrors.length > 0 && (
        <section className="inline-alert load-errors" role="alert" aria-labelledby="load-errors-heading">
          <h3 id="load-errors-heading">Some tool files could not be loaded</h3>
          <ul>
            {connectors.loadErrors.map((problem, index) => (
              <li key={`${problem.file}:${problem.field}:${index}`}>
                <code>{problemLocation(problem)}</code>
                {problem.field && (
                  <>
                    {' '}
                    field <code>{problem.field}</code>
                  </>
                )}
                : {problem.message}
              </li>
            ))}
          </ul>
          <p>
            Fix the file, then{' '}
            <button type="button" onClick={checkAgain}>
              Check again
            </button>{' '}
            The other tools keep working meanwhile.
          </p>
        </section>
      )}
      <div className="connectors-heading">
        <h3>Connectors</h3>
        <button type="button" onClick={() => setMcpDialog('new')}>
          Add a server…
        </button>
        <button type="button" onClick={() => setDrawer(NEW_REST_API)}>
          Add a REST API…
        </button>
      </div>
      {connectors.connectors.length === 0 ? (
        <p>No connectors yet. Add a tool file to the org&apos;s tools folder to create one.</p>
      ) : (
        <ul className="connector-list" aria-label="Connectors">
          {connectors.connectors.map((connector) => (
            <ConnectorCard
              key={connector.id}
              connector={connector}
              tools={catalog.tools}
              onOpen={() => setDrawer(connector.id)}
              onEdit={() =>
                connector.mcp &&
                connector.mcpEntry &&
                setMcpDialog({ name: connector.mcp.server, entry: connector.mcpEntry })
              }
              onRemove={() => connector.mcp && setRemoving(connector.mcp.server)}
            />
          ))}
        </ul>
      )}
      <McpImport />
      <ToolGrants tools={catalog.tools} grants={catalog.grants} />
      <ApprovalSettingsSection />
      {mcpDialog && (
        <McpServerDialog
          key={mcpDialog === 'new' ? 'new' : mcpDialog.name}
          server={mcpDialog === 'new' ? null : mcpDialog}
          onClose={() => setMcpDialog(null)}
        />
      )}
      <ConfirmDialog
        open={removing !== null}
        title={`Remove ${removing ?? ''}?`}
        confirmLabel={`Remove ${removing ?? ''}`}
        destructive
        onCancel={() => setRemoving(null)}
        onConfirm={() => {
          const name = removing;
          setRemoving(null);
          if (name) void removeMcpServer(name);
        }}
      >
        Agents lose its tools, and the secret values saved for it are deleted.
      </ConfirmDialog>
      {drawer === NEW_REST_API && <RestApiDrawer api={null} onClose={() => setDrawer(null)} />}
      {open?.restApi && <RestApiDrawer key={open.id} api={open.restApi} onClose={() => setDrawer(null)} />}
      {open && !open.restApi && (
        <ConnectorDrawer key={open.id} connector={open} onClose={() => setDrawer(null)} />
      )}
    </section>
  );
}

/** A notification led here for one MCP server: its card comes into view and takes the focus, once. */
function useFocusAskedFor(loaded: boolean) {
  const server = useNavigation((store) => store.toolStoreFocus);
  useEffect(() => {
    if (!loaded || server === null) return;
    useNavigation.setState({ toolStoreFocus: null });
    const card = document.querySelector<HTMLElement>(`[data-mcp-server="${CSS.escape(server)}"]`);
    card?.scrollIntoView({ block: 'start' });
    card?.focus({ preventScroll: true });
  }, [loaded, server]);
}

function ConnectorCard({
  connector,
  tools,
  onOpen,
  onEdit,
  onRemove,
}: {
  connector: Connector;
  tools: CatalogTool[];
  onOpen(): void;
  onEdit(): void;
  onRemove(): void;
}) {
  const titles = connector.tools.flatMap((name) => tools.find((tool) => tool.name === name)?.title ?? []);
  const hasSettings = Object.keys((connector.configSchema.properties as object | undefined) ?? {}).length > 0;
  return (
    <li
      className="connector-card"
      aria-label={connector.name}
      tabIndex={-1}
      {...(connector.mcp ? { 'data-mcp-server': connector.mcp.server } : {})}
    >
      <div className="connector-heading">
        <h4>{connector.name}</h4>
        {connector.usable.ready ? (
          <Badge tone="ok">Ready</Badge>
        ) : connector.readiness.ready ? (
          <Badge tone="warn">Not usable yet</Badge>
        ) : (
          <Badge tone="warn">Needs setup</Badge>
        )}
        <span className="muted">{connector.toolKinds.map((kind) => KIND_WORDS[kind]).join(', ')} tools</span>
      </div>
      {connector.mcp ? <McpServerDetails server={connector.mcp} /> : <p>{connector.description}</p>}
      {!connector.usable.ready && !connector.mcp && (
        <p className="readiness">
          Why: {connector.usable.plain?.reason ?? connector.usable.reason}.{' '}
          <strong>To fix: {connector.usable.plain?.fix ?? connector.usable.fix}</strong>
        </p>
      )}
      {connector.readiness.ready && connector.readiness.plainNote && !connector.mcp && (
        <p className="muted">{connector.readiness.plainNote}</p>
      )}
      <p className="muted">
        {connector.mcp
          ? connector.grantedTo.length > 0
            ? `Enabled for ${connector.grantedTo.join(', ')}`
            : 'No agent has it yet'
          : `${titles.length > 0 ? `Tools: ${titles.join(', ')}` : `${connector.tools.length} tools`}${
              connector.grantedTo.length > 0
                ? ` · enabled for ${connector.grantedTo.join(', ')}`
                : ' · no agent has it yet'
            }`}
      </p>
      {connector.permissions.length > 0 && (
        <ul className="permission-list" aria-label={`What ${connector.name} needs`}>
          {connector.permissions.map((permission) => (
            <li key={permission.requirement}>
              {permission.met === true ? '✓ ' : permission.met === false ? '✗ ' : ''}
              {permission.plain ??
                `${permission.requirement}${permission.scope === 'agent' ? ' (each agent)' : ''}`}
            </li>
          ))}
        </ul>
      )}
      {!connector.mcp && <ConnectorDetail connector={connector} />}
      {(hasSettings || connector.secrets.length > 0 || connector.restApi) && (
        <button type="button" onClick={onOpen}>
          Set up {connector.name}
        </button>
      )}
      {connector.mcp && (
        <div className="connector-actions">
          {connector.mcpEntry && (
            <button type="button" onClick={onEdit}>
              Change {connector.name}…
            </button>
          )}
          <button type="button" className="danger" onClick={onRemove}>
            Remove {connector.name}…
          </button>
        </div>
      )}
    </li>
  );
}

/** A connector as the engine and `lemming connectors` state it: tool names, the files and fields it needs. */
function ConnectorDetail({ connector }: { connector: Connector }) {
  const { usable, readiness } = connector;
  return (
    <Advanced>
      <div>
        Tool names: <code>{connector.tools.join(', ')}</code>
      </div>
      {!usable.ready && (
        <div>
          Why: {usable.reason}. Fix: {usable.fix}
        </div>
      )}
      {readiness.ready && readiness.note && <div>{readiness.note}</div>}
      {connector.permissions.length > 0 && (
        <ul>
          {connector.permissions.map((permission) => (
            <li key={permission.requirement}>{permission.requirement}</li>
          ))}
        </ul>
      )}
      {connector.source && (
        <div>
          Defined in <code>{connector.source.file}</code>
        </div>
      )}
    </Advanced>
  );
}

function ToolGrants({
  tools,
  grants,
}: {
  tools: CatalogTool[];
  grants: { agent: string; enabled: string[]; available: string[] }[];
}) {
  /** Toggles the user just flipped, shown at once while the resume is written (undone if it fails). */
  const [pending, setPending] = useState<Record<string, boolean>>({});
  const toggle = async (agentName: string, tool: string, enabled: boolean) => {
    const key = `${agentName}\u0000${tool}`;
    setPending((current) => ({ ...current, [key]: enabled }));
    await setToolEnabled(agentName, tool, enabled);
    setPending(({ [key]: _done, ...rest }) => rest);
  };
  // The human operator never takes a turn: it is not offered tools, nor chosen first.
  const agents = grants.filter((entry) => !isHumanOperator(entry.agent));
  const [agent, setAgent] = useState(agents[0]?.agent ?? '');
  const grant = agents.find((entry) => entry.agent === agent) ?? agents[0];
  const [query, setQuery] = useState('');

  const found = searchTools(tools, query, (tool) => [tool.title, tool.name, tool.description]);
  // Grouped when the org's tools come from more than one place, also while a search shows fewer.
  const grouped = groupByServer(tools, (tool) => tool.name).length > 1;
  const groups = groupByServer(found, (tool) => tool.name);
  const row = (tool: CatalogTool) => {
    const enabled =
      pending[`${grant?.agent}\u0000${tool.name}`] ?? grant?.enabled.includes(tool.name) ?? false;
    const available = grant?.available.includes(tool.name) ?? false;
    return (
      <li key={tool.name} className="tool-item">
        <div>
          <strong>{tool.title}</strong> <Badge tone="neutral">{KIND_WORDS[tool.kind]}</Badge>
          {tool.plainNeeds.length > 0 && <p className="muted">Needs: {tool.plainNeeds.join('; ')}</p>}
          <Advanced>
            <div>
              Tool name: <code>{tool.name}</code>
            </div>
            <div>What its model is told: {tool.description}</div>
            <div>Needs: {tool.requiredPermissions.join('; ')}</div>
          </Advanced>
        </div>
        {grant && (
          <div className="store-tool-toggle">
            <label>
              <input
                type="checkbox"
                checked={enabled}
                onChange={(event) => void toggle(grant.agent, tool.name, event.target.checked)}
              />
              Enabled for {grant.agent}
            </label>
            {enabled && !available && <Badge tone="warn">Not reaching the model</Badge>}
          </div>
        )}
      </li>
    );
  };

  return (
    <section aria-labelledby="tool-grants-heading">
      <div className="tool-grants-heading">
        <h3 id="tool-grants-heading">Tools</h3>
        {agents.length > 0 && (
          <label>
            Show tools for agent{' '}
            <select value={grant?.agent ?? ''} onChange={(event) => setAgent(event.target.value)}>
              {agents.map((entry) => (
                <option key={entry.agent} value={entry.agent}>
                  {entry.agent}
                </option>
              ))}
            </select>
          </label>
        )}
      </div>
      {agents.length === 0 && (
        <p>No valid agents yet: create or fix an agent in the Org view to give it tools.</p>
      )}
      {tools.length >= SEARCH_FROM && (
        <ToolSearch
          label="Search the tools"
          query={query}
          onChange={setQuery}
          shown={found.length}
          total={tools.length}
        />
      )}
      <ul className="store-tool-list" aria-label="Tools">
        {grouped
          ? groups.map((group) => (
              <li key={group.label} className="tool-group">
                <h4 className="tool-group-heading">{group.label}</h4>
                <ul className="store-tool-list" aria-label={group.label}>
                  {group.tools.map(row)}
                </ul>
              </li>
            ))
          : found.map(row)}
      </ul>
    </section>
  );
}
