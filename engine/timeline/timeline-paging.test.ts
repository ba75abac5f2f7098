import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TimelineEventInput } from '../api/timeline-events';
import type { TimelineFilter, TimelineQuery } from '../api/timeline-schemas';
import { searchTextOf } from './search-text';
import { tempTimelineDir } from './test-support/temp-timeline';
import type { TimelineStore } from './timeline-store';

const AGENTS = ['ada', 'bert', 'cleo', 'dmitri', 'eve'];
const KINDS = ['message', 'tool_call', 'credit', 'never_seen_before'];
const RUNS = ['run-a', 'run-b', 'run-c'];
const WORDS = ['invoice', 'budget', 'deploy', 'Invoices', 'meeting', 'coffee', 'report'];

function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
}

/**
 * Events with every filtered field varied independently. In engine order ticks grow with seq (some
 * events have none); scattered, they jump back and forth, as after importing another timeline.
 */
function dataset(count: number, ticks: 'engine order' | 'scattered'): TimelineEventInput[] {
  const next = random(11);
  const pick = <T>(values: readonly T[]): T => values[Math.floor(next() * values.length)]!;
  return Array.from({ length: count }, (_, index) => {
    const event: TimelineEventInput = {
      kind: pick(KINDS),
      n: index,
      text: `${pick(WORDS)} and ${pick(WORDS)}`,
    };
    if (next() > 0.1) event.agent = pick(AGENTS);
    const tick =
      ticks === 'engine order' ? Math.floor((index * 60) / count) - 5 : Math.floor(next() * 60) - 5;
    if (next() > 0.1) event.tick = tick;
    if (next() > 0.2) event.run = pick(RUNS);
    return event;
  });
}

function tokensOf(event: TimelineEventInput): string[] {
  return searchTextOf(event)
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

/** What a filter should select, computed from the events themselves rather than from SQL. */
function expectedSeqs(
  events: TimelineEventInput[],
  filter: TimelineFilter,
  direction: 'asc' | 'desc',
): number[] {
  const agents = filter.agents?.length ? filter.agents : null;
  const kinds = filter.kinds?.length ? filter.kinds : null;
  const words = filter.text?.toLowerCase().split(/\s+/).filter(Boolean) ?? [];
  const seqs = events.flatMap((event, index) => {
    if (agents && !agents.includes(event.agent ?? '\0')) return [];
    if (kinds && !kinds.includes(event.kind)) return [];
    if (filter.runId !== undefined && event.run !== filter.runId) return [];
    if (filter.tickFrom !== undefined && (event.tick == null || event.tick < filter.tickFrom)) return [];
    if (filter.tickTo !== undefined && (event.tick == null || event.tick > filter.tickTo)) return [];
    const tokens = tokensOf(event);
    const matchesWords = words.every((word) =>
      word.endsWith('*')
        ? tokens.some((token) => token.startsWith(word.slice(0, -1)))
        : tokens.includes(word),
    );
    return matchesWords ? [index + 1] : [];
  });
  return direction === 'asc' ? seqs : seqs.reverse();
}

function allPages(timeline: TimelineStore, query: TimelineQuery): { seqs: number[]; pages: number } {
  const seqs: number[] = [];
  let cursor: number | null = null;
  let pages = 0;
  do {
    const page = timeline.page({ ...query, cursor });
    pages += 1;
    seqs.push(...page.rows.map((row) => row.seq));
    cursor = page.nextCursor;
    if (pages > 1000) throw new Error('paging does not end');
  } while (cursor !== null);
  return { seqs, pages };
}

const FILTERS: Record<string, TimelineFilter> = {
  'no filter': {},
  'empty lists': { agents: [], kinds: [] },
  'one agent': { agents: ['cleo'] },
  'two agents': { agents: ['ada', 'eve'] },
  'one kind': { kinds: ['never_seen_before'] },
  'two kinds': { kinds: ['message', 'credit'] },
  'agent and kind': { agents: ['bert'], kinds: ['tool_call'] },
  'agents and kinds': { agents: ['ada', 'bert', 'ada'], kinds: ['message', 'tool_call', 'credit'] },
  'tick range': { tickFrom: 10, tickTo: 20 },
  'ticks from': { tickFrom: 50 },
  'ticks up to, negative ticks included': { tickTo: 0 },
  'single tick': { tickFrom: 7, tickTo: 7 },
  run: { runId: 'run-b' },
  'run nobody wrote': { runId: 'run-z' },
  'run and agent': { runId: 'run-c', agents: ['eve'] },
  'run, agents and ticks': { runId: 'run-a', agents: ['cleo', 'dmitri'], tickFrom: 0, tickTo: 30 },
  word: { text: 'invoice' },
  'word, case folded': { text: 'INVOICE' },
  prefix: { text: 'inv*' },
  'two words': { text: 'budget deploy' },
  'word and prefix': { text: 'budg* coffee' },
  'text with every other filter': {
    text: 'report',
    agents: ['ada', 'eve'],
    kinds: ['message', 'tool_call'],
    tickFrom: 5,
    runId: 'run-c',
  },
  'more agent × kind pairs than are merged': {
    agents: [...AGENTS.slice(0, 3), ...Array.from({ length: 70 }, (_, index) => `ghost-${index}`)],
    kinds: ['message', 'credit'],
  },
  'nobody matches': { agents: ['nobody'] },
  'no word matches': { text: 'zebra' },
};

describe.each(['engine order', 'scattered'] as const)('keyset paging, ticks in %s', (ticks) => {
  const events = dataset(1500, ticks);
  let temp: Awaited<ReturnType<typeof tempTimelineDir>>;
  let timeline: TimelineStore;
  beforeAll(async () => {
    temp = await tempTimelineDir();
    timeline = temp.open();
    timeline.appendMany(events.slice(0, 700));
    for (const event of events.slice(700)) timeline.append(event);
  });
  afterAll(async () => {
    await temp.cleanup();
  });

  for (const [name, filter] of Object.entries(FILTERS)) {
    for (const direction of ['desc', 'asc'] as const) {
      it(`${name}, ${direction}: every matching event once, in seq order, across pages`, () => {
        const expected = expectedSeqs(events, filter, direction);
        const { seqs, pages } = allPages(timeline, { ...filter, direction, limit: 37 });
        expect(seqs).toEqual(expected);
        expect(pages).toBe(Math.max(1, Math.ceil(expected.length / 37)));
      });
    }
  }

  for (const [name, filter] of Object.entries(FILTERS)) {
    it(`${name}: the total, and a page at any position, as the whole result lists them`, () => {
      const expected = expectedSeqs(events, filter, 'desc');
      const total = expected.length;
      expect(timeline.page({ ...filter, limit: 1, withTotal: true })).toMatchObject({ total, position: 0 });
      const positions = [
        0,
        1,
        Math.floor(total / 3),
        Math.floor(total / 2),
        total - 20,
        total - 1,
        total + 5,
      ];
      for (const position of positions.filter((value) => value >= 0)) {
        const page = timeline.page({ ...filter, position, limit: 20, withTotal: true });
        // Past the end, the page is the last rows.
        const start = Math.max(0, Math.min(position, total - 20));
        expect(
          page.rows.map((row) => row.seq),
          `position ${position}`,
        ).toEqual(expected.slice(start, start + 20));
        expect(page.total).toBe(total);
        expect(page.position).toBe(start);
      }
      // A page read from a cursor says where it is.
      for (const index of [5, Math.floor(total / 2), total - 3].filter(
        (value) => value > 0 && value < total,
      )) {
        const page = timeline.page({ ...filter, cursor: expected[index - 1]!, limit: 5, withTotal: true });
        expect(page.rows[0]?.seq).toBe(expected[index]);
        expect(page.position, `cursor before index ${index}`).toBe(index);
      }
    });
  }

  it('sanity: the filters above select something, and different things', () => {
    const sizes = Object.values(FILTERS).map((filter) => expectedSeqs(events, filter, 'desc').length);
    expect(sizes.filter((size) => size > 37).length).toBeGreaterThan(10);
    expect(new Set(sizes).size).toBeGreaterThan(12);
  });

  it('defaults to newest first, 200 per page, and ends with a null cursor exactly at the end', () => {
    const first = timeline.page();
    expect(first.rows).toHaveLength(200);
    expect(first.rows[0]!.seq).toBe(1500);
    expect(first.nextCursor).toBe(1301);
    const exact = timeline.page({ direction: 'asc', cursor: 1300, limit: 200 });
    expect(exact.rows).toHaveLength(200);
    expect(exact.nextCursor).toBeNull();
  });

  it('pages correctly when both lists are too long to merge', () => {
    const filter = {
      agents: [...AGENTS.slice(1), ...Array.from({ length: 70 }, (_, index) => `ghost-${index}`)],
      kinds: [...KINDS.slice(1), ...Array.from({ length: 70 }, (_, index) => `ghost-kind-${index}`)],
    };
    expect(allPages(timeline, { ...filter, limit: 37 }).seqs).toEqual(expectedSeqs(events, filter, 'desc'));
  });

  it('rejects a page size above 1000', () => {
    expect(() => timeline.page({ limit: 1001 })).toThrow(/1000/);
  });

  it('finds nothing, without a query, for a tick range no event has', () => {
    expect(timeline.page({ tickFrom: 1000, tickTo: 2000 })).toEqual({ rows: [], nextCursor: null });
    expect(timeline.explainPage({ tickFrom: 1000 })).toEqual([]);
  });

  for (const [name, filter] of Object.entries(FILTERS)) {
    it(`${name}: served by an index or a seq-bounded walk, never a full scan of events`, () => {
      for (const cursor of [null, 900]) {
        const plan = timeline.explainPage({ ...filter, cursor });
        const isFiltered = Object.values(filter).some((value) =>
          Array.isArray(value) ? value.length > 0 : value !== undefined,
        );
        if (isFiltered)
          expect(
            plan.filter((step) => /^SCAN (events|e)\b/.test(step)),
            plan.join('\n'),
          ).toEqual([]);
      }
    });
  }

  it('several agents and kinds page as a merge of index walks, not a sort', () => {
    const plan = timeline.explainPage({ agents: ['ada', 'eve'], kinds: ['message', 'credit'] });
    expect(plan).toContain('MERGE (UNION ALL)');
    expect(plan.some((step) => step.includes('TEMP B-TREE'))).toBe(false);
  });

  it(`a tick range is paged ${ticks === 'engine order' ? 'by walking its seq window' : 'through the tick index'}`, () => {
    const plan = timeline.explainPage({ tickFrom: 10, tickTo: 20 }).join('\n');
    if (ticks === 'engine order')
      expect(plan).toMatch(/SEARCH events USING INTEGER PRIMARY KEY \(rowid>\? AND rowid<\?\)/);
    else expect(plan).toContain('USING COVERING INDEX events_by_tick');
  });
});
