import type { TimelineFilter } from '../api/timeline-schemas';
import { searchQueryOf } from './search-query';

export interface PageSqlOptions {
  direction: 'asc' | 'desc';
  /** Only events after this seq (in paging direction). */
  cursor: number | null;
  /** Only events with seq at most this (export: a stable end point). */
  upTo?: number;
  /** Rows to fetch; -1 for all of them. */
  limit: number;
  /** Matching rows to skip before the first one fetched (seek by position). */
  offset?: number;
  /**
   * `seq` fetches only the seqs, so a count or an offset walks the indexes without reading events
   * (the unfiltered walk uses events_by_seq_agent, which is far smaller than the table).
   */
  columns?: 'row' | 'seq';
  /**
   * Seqs that every event of the filter's tick range lies between, so index walks stay short. When
   * `exact`, every seq in it is one of those events, so the tick and run conditions are left out and
   * the walk stays inside an index that has neither (an agent and kind filter: events_by_agent_kind).
   */
  seqWindow?: { from: number; to: number; exact?: boolean };
  /** Page a tick-range-only filter through the tick index, for a range whose events are scattered. */
  viaTickIndex?: boolean;
  /**
   * Every kind in the timeline, for a filter by agent without kinds or text: no index leads with
   * the agent alone, so the agents' events are merged from one events_by_agent_kind arm per kind.
   * Left out when there are too many kinds to merge.
   */
  everyKind?: string[];
}

export interface PageSql {
  sql: string;
  params: (string | number)[];
}

/**
 * Most arms merged in one page query. Each arm is an index seek, so more arms cost more setup than
 * they save; beyond this, a list is checked on each row of fewer arms instead.
 */
export const MAX_MERGED_ARMS = 64;

const COLUMNS = 'seq, kind, agent, tick, run_id AS runId, time, json';
const SEARCH_COLUMNS = 'e.seq, e.kind, e.agent, e.tick, e.run_id AS runId, e.time, e.json';

interface Condition {
  sql: string;
  params: (string | number)[];
}

/**
 * The SQL for one keyset page. Every shape is driven by an index whose order is seq order: the
 * rowid ends every index entry, so `agent = ? AND kind = ? ORDER BY seq` walks events_by_agent_kind
 * without sorting. Several agents or kinds become one arm per value (an agent alone: one arm per kind
 * of the timeline) combined with UNION ALL under one ORDER BY, which SQLite runs as a merge of
 * already-ordered arms that stops after `limit` rows. Text search is driven by the FTS index in seq
 * order, with the other filters checked on each hit. A tick range or a run narrows the walk to the seq
 * window its events lie in; when a tick range's window is mostly other ticks, the tick index picks the
 * seqs instead (covering, so only the matching seqs are sorted, not their rows).
 */
export function buildPageSql(filter: TimelineFilter, options: PageSqlOptions): PageSql {
  const order = options.direction === 'asc' ? 'ASC' : 'DESC';
  const agents = distinct(filter.agents);
  const kinds = distinct(filter.kinds);
  const search = filter.text === undefined ? null : searchQueryOf(filter.text);
  const seqOnly = options.columns === 'seq';
  const limit = limitOf(options);

  if (search !== null) {
    const byIndex = agentKindIndex(agents, kinds);
    const rowConditions = shared(filter, 'e.', options);
    const conditions = [
      { sql: 'events_search MATCH ?', params: [search] },
      ...seqConditions('s.rowid', options),
      byIndex ? { sql: 'f.seq = s.rowid', params: [] } : null,
      inList('f.agent', agents),
      inList('f.kind', kinds),
      ...rowConditions,
    ];
    // Agents and kinds are checked in their small covering index before the event row is read; a
    // count or a seek by position that checks nothing else never reads the event rows.
    const filterJoin = byIndex ? ` CROSS JOIN events f INDEXED BY ${byIndex}` : '';
    const rowJoin = seqOnly && rowConditions.length === 0 ? '' : ' CROSS JOIN events e ON e.seq = s.rowid';
    return finish(
      `SELECT ${seqOnly ? 's.rowid AS seq' : SEARCH_COLUMNS} FROM events_search s${filterJoin}${rowJoin}` +
        where(conditions) +
        ` ORDER BY s.rowid ${order}${limit.sql}`,
      conditions,
      limit.params,
    );
  }

  if (options.viaTickIndex && agents.length === 0 && kinds.length === 0 && filter.runId === undefined) {
    const conditions = [
      ...shared(filter, '', options),
      ...seqConditions('seq', { ...options, seqWindow: undefined }),
    ];
    return finish(
      `SELECT ${seqOnly ? 'seq' : COLUMNS} FROM events WHERE seq IN (SELECT seq FROM events INDEXED BY events_by_tick${where(conditions)} ` +
        `ORDER BY seq ${order}${limit.sql}) ORDER BY seq ${order}`,
      conditions,
      limit.params,
    );
  }

  const base = [...seqConditions('seq', options), ...shared(filter, '', options)];
  const armKinds = agents.length > 0 && kinds.length === 0 ? (options.everyKind ?? []) : kinds;
  const arms = mergedArms(agents, armKinds).map((arm) => [...base, ...arm]);
  const pairArms = agents.length * armKinds.length > 0 && agents.length * armKinds.length <= MAX_MERGED_ARMS;
  // One agent and kind per arm, within an exact seq window: the pair's index walks only the rows it
  // returns (left to itself, SQLite may walk the kind's index and check each row's agent).
  const source =
    seqOnly && arms.length === 1 && agents.length === 0 && armKinds.length === 0
      ? 'events INDEXED BY events_by_seq_agent'
      : pairArms && options.seqWindow?.exact
        ? 'events INDEXED BY events_by_agent_kind'
        : 'events';
  const select = (conditions: (Condition | null)[]): string =>
    `SELECT ${seqOnly ? 'seq' : COLUMNS} FROM ${source}${where(conditions)}`;
  return {
    sql: `${arms.map(select).join(' UNION ALL ')} ORDER BY seq ${order}${limit.sql}`,
    params: [...arms.flatMap(paramsOf), ...limit.params],
  };
}

/**
 * The equality conditions of each merged arm: one arm per agent × kind pair while that stays small,
 * else one per value of the shorter list with the other list checked on each row, else a single arm.
 */
function mergedArms(agents: string[], kinds: string[]): (Condition | null)[][] {
  if (Math.max(agents.length, 1) * Math.max(kinds.length, 1) <= MAX_MERGED_ARMS) {
    const agentValues = agents.length ? agents.map((agent) => inList('agent', [agent])) : [null];
    const kindValues = kinds.length ? kinds.map((kind) => inList('kind', [kind])) : [null];
    return agentValues.flatMap((agent) => kindValues.map((kind) => [agent, kind]));
  }
  const [shorter, longer] =
    agents.length <= kinds.length ? (['agent', 'kind'] as const) : (['kind', 'agent'] as const);
  const values = { agent: agents, kind: kinds };
  if (values[shorter].length <= MAX_MERGED_ARMS) {
    return values[shorter].map((value) => [inList(shorter, [value]), inList(longer, values[longer])]);
  }
  return [[inList('agent', agents), inList('kind', kinds)]];
}

/** The small covering index that checks a search hit's agent and kind, found by the hit's seq. */
function agentKindIndex(agents: string[], kinds: string[]): string | null {
  if (agents.length) return kinds.length ? 'events_by_agent_kind' : 'events_by_seq_agent';
  return kinds.length ? 'events_by_kind' : null;
}

function seqConditions(column: string, options: PageSqlOptions): Condition[] {
  const conditions: Condition[] = [];
  if (options.cursor !== null) {
    conditions.push({
      sql: `${column} ${options.direction === 'asc' ? '>' : '<'} ?`,
      params: [options.cursor],
    });
  }
  if (options.upTo !== undefined) conditions.push({ sql: `${column} <= ?`, params: [options.upTo] });
  if (options.seqWindow) {
    conditions.push(
      { sql: `${column} >= ?`, params: [options.seqWindow.from] },
      { sql: `${column} <= ?`, params: [options.seqWindow.to] },
    );
  }
  return conditions;
}

function shared(filter: TimelineFilter, prefix: string, options: PageSqlOptions): Condition[] {
  const conditions: Condition[] = [];
  if (options.seqWindow?.exact) return conditions;
  if (filter.runId !== undefined) conditions.push({ sql: `${prefix}run_id = ?`, params: [filter.runId] });
  if (filter.tickFrom !== undefined)
    conditions.push({ sql: `${prefix}tick >= ?`, params: [filter.tickFrom] });
  if (filter.tickTo !== undefined) conditions.push({ sql: `${prefix}tick <= ?`, params: [filter.tickTo] });
  return conditions;
}

function inList(column: string, values: string[]): Condition | null {
  if (values.length === 0) return null;
  if (values.length === 1) return { sql: `${column} = ?`, params: values };
  return { sql: `${column} IN (${values.map(() => '?').join(', ')})`, params: values };
}

function where(conditions: (Condition | null)[]): string {
  const present = conditions.filter((condition) => condition !== null);
  return present.length === 0 ? '' : ` WHERE ${present.map((condition) => condition.sql).join(' AND ')}`;
}

function paramsOf(conditions: (Condition | null)[]): (string | number)[] {
  return conditions.flatMap((condition) => condition?.params ?? []);
}

function finish(sql: string, conditions: (Condition | null)[], limitParams: number[]): PageSql {
  return { sql, params: [...paramsOf(conditions), ...limitParams] };
}

function limitOf(options: PageSqlOptions): { sql: string; params: number[] } {
  return options.offset
    ? { sql: ' LIMIT ? OFFSET ?', params: [options.limit, options.offset] }
    : { sql: ' LIMIT ?', params: [options.limit] };
}

function distinct(values: string[] | undefined): string[] {
  return [...new Set(values ?? [])];
}
