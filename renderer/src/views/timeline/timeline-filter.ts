import type { TimelineFilter } from '../../../../engine/api';

/** The filter controls as the user typed them; empty means "any". */
export interface FilterFields {
  agent: string;
  /** A department chosen instead of one agent: the events of its agents. */
  department: string;
  departmentAgents: readonly string[];
  kind: string;
  tickFrom: string;
  tickTo: string;
  text: string;
}

export const NO_FILTER: FilterFields = {
  agent: '',
  department: '',
  departmentAgents: [],
  kind: '',
  tickFrom: '',
  tickTo: '',
  text: '',
};

/** The IPC filter for the fields; a tick field that is not a whole number is left out. */
export function toTimelineFilter(fields: FilterFields): TimelineFilter {
  const filter: TimelineFilter = {};
  if (fields.agent) filter.agents = [fields.agent];
  else if (fields.department && fields.departmentAgents.length > 0)
    filter.agents = [...fields.departmentAgents];
  if (fields.kind) filter.kinds = [fields.kind];
  const from = wholeNumber(fields.tickFrom);
  const to = wholeNumber(fields.tickTo);
  if (from !== null) filter.tickFrom = from;
  if (to !== null) filter.tickTo = to;
  if (fields.text.trim()) filter.text = fields.text.trim();
  return filter;
}

export function isFiltered(fields: FilterFields): boolean {
  return Object.keys(toTimelineFilter(fields)).length > 0;
}

function wholeNumber(text: string): number | null {
  const trimmed = text.trim();
  return /^-?\d{1,15}$/.test(trimmed) ? Number(trimmed) : null;
}
