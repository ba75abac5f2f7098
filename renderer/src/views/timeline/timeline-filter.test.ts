import { describe, expect, it } from 'vitest';
import { isFiltered, NO_FILTER, toTimelineFilter } from './timeline-filter';

describe('the timeline filter', () => {
  it('shows the events of a department’s agents when a department is chosen', () => {
    const fields = { ...NO_FILTER, department: 'desk', departmentAgents: ['writer', 'researcher'] };
    expect(toTimelineFilter(fields)).toEqual({ agents: ['writer', 'researcher'] });
    expect(isFiltered(fields)).toBe(true);
  });

  it('narrows to one agent when one is chosen', () => {
    expect(toTimelineFilter({ ...NO_FILTER, agent: 'writer' })).toEqual({ agents: ['writer'] });
  });

  it('filters nothing by default', () => {
    expect(toTimelineFilter(NO_FILTER)).toEqual({});
    expect(isFiltered(NO_FILTER)).toBe(false);
  });
});
