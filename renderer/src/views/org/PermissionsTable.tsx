import { useMemo } from 'react';
import type { OrgGraph } from '../../../../engine/api';
import { AgentStateBadge } from '../../shared/agent-state-badge';

interface Props {
  graph: OrgGraph;
  onOpen(name: string): void;
  onRemove(name: string): void;
}

interface Row {
  name: string;
  reads: string[];
  sendsTo: string[];
  readBy: string[];
}

function permissionRows(graph: OrgGraph): Row[] {
  return graph.nodes.map((node) => ({
    name: node.name,
    reads: graph.edges.filter((e) => e.kind === 'read' && e.to === node.name).map((e) => e.from),
    sendsTo: graph.edges.filter((e) => e.kind === 'send' && e.from === node.name).map((e) => e.to),
    readBy: graph.edges.filter((e) => e.kind === 'read' && e.from === node.name).map((e) => e.to),
  }));
}

function Names({ names, none }: { names: string[]; none: string }) {
  return names.length === 0 ? <span className="muted">{none}</span> : <>{names.join(', ')}</>;
}

/** The graph's permissions as a table: the same facts, for keyboard and screen-reader users. */
export function PermissionsTable({ graph, onOpen, onRemove }: Props) {
  const rows = useMemo(() => permissionRows(graph), [graph]);
  const nodes = useMemo(() => new Map(graph.nodes.map((node) => [node.name, node])), [graph.nodes]);
  return (
    <table className="permissions-table" aria-label="Agents and their permissions">
      <thead>
        <tr>
          <th scope="col">Agent</th>
          <th scope="col">State</th>
          <th scope="col">Reads the outboxes of</th>
          <th scope="col">May send to</th>
          <th scope="col">Read by</th>
          <th scope="col">
            <span className="visually-hidden">Actions</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => {
          const node = nodes.get(row.name)!;
          return (
            <tr key={row.name} data-agent-row={row.name}>
              <th scope="row">
                <button type="button" className="link-button" onClick={() => onOpen(row.name)}>
                  {row.name}
                </button>
                {node.title && <div className="muted">{node.title}</div>}
              </th>
              <td>
                <AgentStateBadge state={node.state} reason={node.stateReason} />
                <div className="muted">{node.stateReason}</div>
              </td>
              <td>
                {node.readsAll && <div>Every outbox (*)</div>}
                <Names names={row.reads} none="No one" />
                {node.unknownNames.length > 0 && (
                  <div className="warning-text">No agent named: {node.unknownNames.join(', ')}</div>
                )}
              </td>
              <td>
                <Names names={row.sendsTo} none="Anyone it reads (no limit set)" />
              </td>
              <td>
                <Names names={row.readBy} none="No one" />
              </td>
              <td>
                <button
                  type="button"
                  className="danger-button"
                  aria-label={`Remove agent ${row.name}`}
                  onClick={() => onRemove(row.name)}
                >
                  Remove
                </button>
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
