import { useEffect, useState } from 'react';
import { useQuery } from '../../server-state/use-query';
import { kindWords } from '../../words/plain-words';
import { isFiltered, NO_FILTER } from './timeline-filter';
import { useTimeline } from './timeline-store';

/** How long typing pauses before the text filter is applied. */
const TEXT_DEBOUNCE_MS = 250;

export function TimelineFilters() {
  const fields = useTimeline((store) => store.fields);
  const facets = useTimeline((store) => store.facets);
  const setFields = useTimeline((store) => store.setFields);
  const jumpToTick = useTimeline((store) => store.jumpToTick);
  const [text, setText] = useState(fields.text);
  const [jumpTick, setJumpTick] = useState('');
  const departmentList = useQuery('departments.list', {}).result;
  const departments = departmentList?.ok ? departmentList.value.departments : [];
  const [appliedText, setAppliedText] = useState(fields.text);
  if (fields.text !== appliedText) {
    setAppliedText(fields.text);
    setText(fields.text);
  }

  useEffect(() => {
    if (text === useTimeline.getState().fields.text) return;
    const timer = setTimeout(() => void setFields({ text }), TEXT_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text, setFields]);

  const tickHint =
    facets?.firstTick != null
      ? `Ticks ${facets.firstTick}–${facets.lastTick ?? facets.firstTick}`
      : 'No ticks yet';

  return (
    <form
      className="timeline-filters"
      aria-label="Filter events"
      onSubmit={(event) => event.preventDefault()}
    >
      <label>
        Agent
        <select
          value={fields.agent}
          onChange={(event) =>
            void setFields({ agent: event.target.value, department: '', departmentAgents: [] })
          }
        >
          <option value="">All agents</option>
          {facets?.agents.map((agent) => (
            <option key={agent} value={agent}>
              {agent}
            </option>
          ))}
        </select>
      </label>
      {departments.length > 0 && (
        <label>
          Department
          <select
            value={fields.department}
            onChange={(event) => {
              const chosen = departments.find((department) => department.name === event.target.value);
              void setFields({
                department: chosen?.name ?? '',
                departmentAgents: chosen?.agents ?? [],
                agent: '',
              });
            }}
          >
            <option value="">All departments</option>
            {departments.map((department) => (
              <option key={department.name} value={department.name} disabled={department.agents.length === 0}>
                {department.name}
                {department.agents.length === 0 ? ' (no agents yet)' : ''}
              </option>
            ))}
          </select>
        </label>
      )}
      <label>
        Kind
        <select value={fields.kind} onChange={(event) => void setFields({ kind: event.target.value })}>
          <option value="">All kinds</option>
          {facets?.kinds.map((kind) => (
            <option key={kind} value={kind}>
              {kindWords(kind)}
            </option>
          ))}
        </select>
      </label>
      <fieldset className="tick-range">
        <legend>Ticks</legend>
        <label>
          From tick
          <input
            type="number"
            inputMode="numeric"
            value={fields.tickFrom}
            placeholder={facets?.firstTick != null ? String(facets.firstTick) : ''}
            onChange={(event) => void setFields({ tickFrom: event.target.value })}
          />
        </label>
        <label>
          To tick
          <input
            type="number"
            inputMode="numeric"
            value={fields.tickTo}
            placeholder={facets?.lastTick != null ? String(facets.lastTick) : ''}
            onChange={(event) => void setFields({ tickTo: event.target.value })}
          />
        </label>
        <span className="muted">{tickHint}</span>
      </fieldset>
      <label className="grow">
        Search text
        <input
          type="search"
          value={text}
          placeholder="Words in the events"
          onChange={(event) => setText(event.target.value)}
        />
      </label>
      <label>
        Jump to tick
        <input
          type="number"
          inputMode="numeric"
          value={jumpTick}
          onChange={(event) => setJumpTick(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === 'Enter' && /^\d+$/.test(jumpTick)) void jumpToTick(Number(jumpTick));
          }}
        />
      </label>
      <button
        type="button"
        disabled={!/^\d+$/.test(jumpTick)}
        onClick={() => void jumpToTick(Number(jumpTick))}
      >
        Go
      </button>
      {isFiltered(fields) && (
        <button type="button" onClick={() => void setFields(NO_FILTER)}>
          Clear filters
        </button>
      )}
    </form>
  );
}
