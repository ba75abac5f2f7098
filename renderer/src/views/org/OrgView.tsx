import { useCallback, useMemo, useState } from 'react';
import type { IpcError, Position, RemovedAgent } from '../../../../engine/api';
import { serverState } from '../../server-state/instance';
import { useQuery } from '../../server-state/use-query';
import { useNavigation } from '../../stores/navigation-store';
import { openTurn } from '../../stores/open-turn';
import { BaseballCard } from './BaseballCard';
import { CreateAgentForm } from './CreateAgentForm';
import { DepartmentsDialog } from './DepartmentsDialog';
import { UpdateReview } from './UpdateReview';
import { ErrorAlert } from '../../components/ErrorAlert';
import { OrgGraphCanvas } from './OrgGraphCanvas';
import { PermissionsTable } from './PermissionsTable';
import { UndoToast } from './UndoToast';
import './org-view.css';

type Layout = 'graph' | 'table';

type Notice =
  | { removed: RemovedAgent & { name: string } }
  | { granted: { reader: string; source: string; before: string[] } };

/** The org: its agents as a graph (or a table) of who reads and who may send to whom. */
export function OrgView() {
  const { result } = useQuery('org.graph', {});
  const graph = result?.ok ? result.value : null;
  const error = result && !result.ok ? result.error : null;
  const openAgent = useNavigation((store) => store.openAgent);
  const [selected, setSelected] = useState<string | null>(null);
  const [layout, setLayout] = useState<Layout>('graph');
  const [tidyRequest, setTidyRequest] = useState(0);
  const [creating, setCreating] = useState(false);
  const [dialog, setDialog] = useState<'departments' | 'update' | null>(null);
  const departments = useQuery('departments.list', {}).result;
  // Null until the departments are read, so the first layout already groups their agents.
  const groups = useMemo(
    () =>
      departments === null
        ? null
        : departments.ok
          ? departments.value.departments.map((department) => ({
              name: department.name,
              members: department.agents,
            }))
          : [],
    [departments],
  );
  const [notice, setNotice] = useState<Notice | null>(null);
  const [actionError, setActionError] = useState<{ title: string; error: IpcError } | null>(null);

  const remove = useCallback(async (name: string) => {
    const result = await serverState().write('org.removeAgent', { agent: name });
    if (!result.ok) return setActionError({ title: `Could not remove ${name}.`, error: result.error });
    setActionError(null);
    setNotice({ removed: { ...result.value, name } });
  }, []);

  const grantRead = useCallback(async (reader: string, source: string) => {
    const detail = await serverState().read('agent.get', { agent: reader });
    if (!detail.ok)
      return setActionError({ title: `Could not read ${reader}'s resume.`, error: detail.error });
    const before = detail.value.resume?.permissions.read_outboxes ?? [];
    if (before.includes(source) || before.includes('*')) return;
    const result = await serverState().write('agent.update', {
      agent: reader,
      patch: { permissions: { read_outboxes: [...before, source] } },
    });
    if (!result.ok)
      return setActionError({
        title: `Could not let ${reader} read ${source}'s outbox.`,
        error: result.error,
      });
    setActionError(null);
    setNotice({ granted: { reader, source, before } });
  }, []);

  async function undoGrant(granted: Extract<Notice, { granted: unknown }>['granted']) {
    setNotice(null);
    const result = await serverState().write('agent.update', {
      agent: granted.reader,
      patch: { permissions: { read_outboxes: granted.before } },
    });
    if (!result.ok)
      setActionError({ title: `Could not undo the change to ${granted.reader}.`, error: result.error });
  }

  async function undo(removed: Extract<Notice, { removed: unknown }>['removed']) {
    setNotice(null);
    const result = await serverState().write('org.restoreAgent', { removedId: removed.removedId });
    if (!result.ok) setActionError({ title: `Could not bring ${removed.name} back.`, error: result.error });
  }

  const dismiss = useCallback(() => setNotice(null), []);
  const save = useCallback((positions: Record<string, Position>) => {
    if (Object.keys(positions).length === 0) return;
    void serverState()
      .write('org.savePositions', { positions })
      .then((saved) => {
        if (!saved.ok) setActionError({ title: 'Could not save where the agents are.', error: saved.error });
      });
  }, []);

  const selectedNode = graph?.nodes.find((node) => node.name === selected) ?? null;

  return (
    <section className="org-view" aria-labelledby="org-view-heading">
      <div className="view-toolbar">
        <h2 id="org-view-heading">Org</h2>
        <div role="group" aria-label="Show the org as" className="segmented">
          <button type="button" aria-pressed={layout === 'graph'} onClick={() => setLayout('graph')}>
            Graph
          </button>
          <button type="button" aria-pressed={layout === 'table'} onClick={() => setLayout('table')}>
            Table
          </button>
        </div>
        {layout === 'graph' && (
          <button type="button" onClick={() => setTidyRequest((count) => count + 1)}>
            Tidy up
          </button>
        )}
        <button type="button" onClick={() => setDialog('departments')}>
          Departments…
        </button>
        <button type="button" onClick={() => setDialog('update')}>
          Update from…
        </button>
        <button type="button" className="primary-button" onClick={() => setCreating(true)}>
          New agent…
        </button>
      </div>

      {dialog === 'departments' && (
        <DepartmentsDialog
          agents={graph?.nodes.map((node) => node.name) ?? []}
          onClose={() => setDialog(null)}
        />
      )}
      {dialog === 'update' && <UpdateReview onClose={() => setDialog(null)} />}

      {creating && (
        <CreateAgentForm onCancel={() => setCreating(false)} onCreated={() => setCreating(false)} />
      )}
      {error && <ErrorAlert error={error} title="Could not load the org." />}
      {actionError && <ErrorAlert error={actionError.error} title={actionError.title} />}
      {notice && 'granted' in notice && (
        <UndoToast
          message={`${notice.granted.reader} now reads ${notice.granted.source}'s outbox.`}
          onUndo={() => void undoGrant(notice.granted)}
          onDismiss={dismiss}
        />
      )}
      {notice && 'removed' in notice && (
        <UndoToast
          message={`Removed ${notice.removed.name}; its folder was moved to ${notice.removed.movedTo}.`}
          onUndo={() => void undo(notice.removed)}
          onDismiss={dismiss}
        />
      )}

      {graph === null && !error && <p role="status">Loading the org…</p>}
      {graph && graph.nodes.length === 0 && (
        <div className="empty-state">
          <h3>This org has no agents yet</h3>
          <p>
            Create the first one with <strong>New agent…</strong>: give it a name and a title, then set its
            instructions in the agent’s page.
          </p>
        </div>
      )}
      {graph && groups && graph.nodes.length > 0 && layout === 'graph' && (
        <>
          <div className="org-graph-with-card">
            <OrgGraphCanvas
              graph={graph}
              groups={groups}
              tidyRequest={tidyRequest}
              selected={selectedNode ? selectedNode.name : null}
              onSelect={setSelected}
              onOpen={openAgent}
              onRemove={(name) => void remove(name)}
              onGrantRead={(reader, source) => void grantRead(reader, source)}
              onSavePositions={save}
            />
            {selectedNode && (
              <BaseballCard
                graph={graph}
                agent={selectedNode}
                onOpenAgent={openAgent}
                onOpenTurn={openTurn}
                onClose={() => setSelected(null)}
              />
            )}
          </div>
          <GraphLegend />
        </>
      )}
      {graph && graph.nodes.length > 0 && layout === 'table' && (
        <PermissionsTable graph={graph} onOpen={openAgent} onRemove={(name) => void remove(name)} />
      )}
    </section>
  );
}

function GraphLegend() {
  return (
    <ul className="graph-legend" aria-label="Legend">
      <li>
        <span className="legend-line legend-read" aria-hidden="true" /> Solid blue arrow: the agent at the
        arrow’s head reads the other’s outbox; the number on it counts messages in the last few ticks
      </li>
      <li>
        <span className="legend-line legend-send" aria-hidden="true" /> Dashed orange arrow: the agent at the
        tail may send to the agent at the head
      </li>
      <li>
        Click an agent to see its card; drag the dot on a card’s right side onto another agent to let that
        agent read its outbox. The <strong>Table</strong> view lists the same permissions.
      </li>
    </ul>
  );
}
