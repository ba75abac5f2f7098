import { useCallback, useState } from 'react';
import {
  clockScheduleWords,
  type GraphNode,
  type IpcError,
  type OrgGraph,
  type TimelineRowSummary,
} from '../../../../engine/api';
import { AgentSwitch } from '../../shared/AgentSwitch';
import { serverState } from '../../server-state/instance';
import { useQuery } from '../../server-state/use-query';
import { RehearseTurn } from '../../shared/RehearseTurn';
import { ToolToggles } from '../../shared/ToolToggles';
import { useAgentDetail } from '../../shared/use-agent-detail';
import { AgentStateBadge } from '../../components/AgentStateBadge';
import { ErrorAlert } from '../../components/ErrorAlert';

interface Props {
  graph: OrgGraph;
  agent: GraphNode;
  onOpenAgent(name: string): void;
  /** Shows one turn of an agent (the turn inspector). */
  onOpenTurn(agent: string, tick: number): void;
  onClose(): void;
}

/** A schedule as a small clock: the fire point as a hand, the period in words. */
function ScheduleClock({ schedule }: { schedule: NonNullable<GraphNode['schedule']> }) {
  const angle = schedule.firePoint * 2 * Math.PI - Math.PI / 2;
  const every =
    schedule.clock !== null
      ? clockScheduleWords(schedule.clock).replace(/^./, (first) => first.toUpperCase())
      : schedule.runEveryNTicks === 1
        ? 'Every tick'
        : `Every ${schedule.runEveryNTicks} ticks`;
  return (
    <div className="card-clock">
      <svg width="40" height="40" viewBox="0 0 40 40" aria-hidden="true">
        <circle cx="20" cy="20" r="17" className="card-clock-face" />
        <line x1="20" y1="20" x2={20 + 13 * Math.cos(angle)} y2={20 + 13 * Math.sin(angle)} />
        <circle cx="20" cy="20" r="2" />
      </svg>
      <span>
        {every}
        {schedule.clock === null && schedule.runEveryNTicks > 1 && `, offset ${schedule.phaseOffset}`}
        {schedule.firesNextTick ? ' · fires next tick' : ''}
      </span>
    </div>
  );
}

function useLastTurn(agent: string): TimelineRowSummary | null {
  const { result } = useQuery('timeline.page', { agents: [agent], kinds: ['turn_completed'], limit: 1 });
  return result?.ok ? (result.value.rows[0] ?? null) : null;
}

/** The selected agent at a glance, beside the graph: who it is, what it may do, what it last did. */
export function BaseballCard({ graph, agent, onOpenAgent, onOpenTurn, onClose }: Props) {
  const { detail, error, replace } = useAgentDetail(agent.name);
  const { result: modelList } = useQuery('models.list', {});
  const models = modelList?.ok ? modelList.value.models.map((model) => model.key) : [];
  const [saveError, setSaveError] = useState<IpcError | null>(null);
  const lastTurn = useLastTurn(agent.name);

  const pickModel = useCallback(
    async (key: string) => {
      const result = await serverState().write('agent.update', {
        agent: agent.name,
        patch: { model: { key } },
      });
      if (result.ok) {
        replace(result.value);
        setSaveError(null);
      } else setSaveError(result.error);
    },
    [agent.name, replace],
  );

  const reads = graph.edges.filter((edge) => edge.kind === 'read' && edge.to === agent.name);
  const sendsTo = graph.edges.filter((edge) => edge.kind === 'send' && edge.from === agent.name);
  const resume = detail?.resume ?? null;
  const modelKeys = resume && !models.includes(resume.model.key) ? [resume.model.key, ...models] : models;

  return (
    <aside className="baseball-card" aria-labelledby="baseball-card-name">
      <header>
        <h3 id="baseball-card-name">{agent.name}</h3>
        <button type="button" aria-label="Close the agent card" onClick={onClose}>
          <span aria-hidden="true">×</span>
        </button>
      </header>
      {agent.title && <p className="card-title">{agent.title}</p>}
      <AgentStateBadge state={agent.state} />
      <p className="card-reason">{agent.state.words}</p>
      {agent.schedule && (
        <AgentSwitch agent={agent.name} switchedOff={agent.schedule.switchedOff} onChanged={replace} />
      )}
      {resume?.short_description && <p className="card-description">{resume.short_description}</p>}
      {error && <ErrorAlert error={error} title="Could not read its resume." />}
      {saveError && <ErrorAlert error={saveError} title="Could not change its model." />}

      <dl className="card-facts">
        <dt>Model</dt>
        <dd>
          {resume ? (
            <select
              aria-label={`Model of ${agent.name}`}
              value={resume.model.key}
              onChange={(event) => void pickModel(event.target.value)}
            >
              {modelKeys.map((key) => (
                <option key={key} value={key}>
                  {key}
                </option>
              ))}
            </select>
          ) : (
            '–'
          )}
        </dd>
        <dt>Schedule</dt>
        <dd>{agent.schedule ? <ScheduleClock schedule={agent.schedule} /> : '–'}</dd>
        <dt>Next turn</dt>
        <dd>{agent.schedule ? agent.schedule.nextDue.words : '–'}</dd>
        <dt>Reads</dt>
        <dd>
          {agent.readsAll
            ? 'Every outbox'
            : reads.length === 0
              ? 'No one'
              : reads.map((edge) => edge.from).join(', ')}
        </dd>
        <dt>May send to</dt>
        <dd>
          {agent.sendsAnywhere
            ? 'Anyone'
            : sendsTo.length === 0
              ? 'No one'
              : sendsTo.map((edge) => edge.to).join(', ')}
        </dd>
        <dt>Credits</dt>
        <dd>
          {agent.balance === null ? 'Not charged yet' : `${agent.balance} left`}
          {resume?.credits && ` of ${resume.credits.max_credits}`}
        </dd>
        <dt>Cost per turn</dt>
        <dd>
          {agent.costPerAction === null
            ? 'Unknown (the credits file cannot be read)'
            : `${agent.costPerAction} credits, plus what its model and tools use`}
        </dd>
        <dt>Last turn</dt>
        <dd>
          {lastTurn && lastTurn.tick !== null ? (
            <>
              <span className="card-last-turn">{lastTurn.summary}</span>{' '}
              <button
                type="button"
                className="link-button"
                onClick={() => onOpenTurn(agent.name, lastTurn.tick!)}
              >
                Open turn (tick {lastTurn.tick})
              </button>
            </>
          ) : (
            'Has not run yet'
          )}
        </dd>
      </dl>
      <details className="card-tools">
        <summary>Tools</summary>
        <ToolToggles agent={agent.name} />
      </details>
      <RehearseTurn agent={agent.name} />
      <button type="button" onClick={() => onOpenAgent(agent.name)}>
        Open the agent’s page
      </button>
    </aside>
  );
}
