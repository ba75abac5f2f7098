import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { knownEvent, type TimelineEventInput } from '../api/timeline-events';
import { migrate } from './migrate';
import { timelineMigrations } from './migrations';
import { openSqlite } from './sqlite';
import { tempTimelineDir } from './test-support/temp-timeline';

const outboxEvent = (entryKind: unknown, agent = 'ada'): TimelineEventInput => ({
  kind: 'message',
  agent,
  tick: 3,
  file: 'agents/ada/outbox/x.json',
  entry: {
    id: 'e1',
    kind: entryKind,
    payload: { text: 'All green.' },
    tags: [],
    unknown_field: { kept: true },
  },
});

describe('outbox entries filed by their own kind', () => {
  let temp: Awaited<ReturnType<typeof tempTimelineDir>>;
  beforeEach(async () => {
    temp = await tempTimelineDir();
  });
  afterEach(async () => {
    await temp.cleanup();
  });

  it('an entry of kind "status_report" is found and listed under message:status_report, its JSON untouched', () => {
    const timeline = temp.open();
    const event = outboxEvent('status_report');
    const seq = timeline.append(event);
    timeline.append(outboxEvent('message'));
    const stored = timeline.get(seq)!;
    expect(stored.kind).toBe('message:status_report');
    expect(stored.json).toBe(JSON.stringify(event));
    expect(knownEvent(JSON.parse(stored.json))?.kind).toBe('message');
    expect(timeline.page({ kinds: ['message:status_report'] }).rows.map((row) => row.seq)).toEqual([seq]);
    // "message" is the whole family: every message, whatever its entry's kind.
    expect(timeline.page({ kinds: ['message'] }).rows.map((row) => row.seq)).toEqual([seq + 1, seq]);
    expect(timeline.page({ kinds: ['message'], limit: 1, withTotal: true }).total).toBe(2);
  });

  it('an entry kind that names an engine event cannot pass for one', () => {
    const timeline = temp.open();
    timeline.append(outboxEvent('error'));
    expect(timeline.page({ kinds: ['error'] }).rows).toEqual([]);
    expect(timeline.page({ kinds: ['message:error'] }).rows).toHaveLength(1);
  });

  it('a missing, empty or non-text entry kind stays "message"', () => {
    const timeline = temp.open();
    for (const kind of [undefined, '', 5, null]) timeline.append(outboxEvent(kind));
    expect(timeline.page({ kinds: ['message'] }).rows).toHaveLength(4);
  });

  it('a timeline written before the change is refiled and counted when it opens', () => {
    const file = join(temp.dir, 'old.sqlite');
    const db = openSqlite(file);
    migrate(db, timelineMigrations.slice(0, 5));
    const insert = db.prepare('INSERT INTO events (kind, agent, json) VALUES (?, ?, ?)');
    insert.run('message', 'ada', JSON.stringify(outboxEvent('report')));
    insert.run('message', 'ada', JSON.stringify(outboxEvent('message')));
    insert.run('message', null, '{"kind":"message","entry":{"kind":["not", "text"]}}');
    insert.run('tool_call', 'bert', '{"kind":"tool_call"}');
    db.close();

    const timeline = temp.open('old.sqlite');
    expect(timeline.page({ direction: 'asc' }).rows.map((row) => row.kind)).toEqual([
      'message:report',
      'message',
      'message',
      'tool_call',
    ]);
    expect(timeline.page({ limit: 1, withTotal: true }).total).toBe(4);
    expect(timeline.page({ kinds: ['message'], limit: 1, withTotal: true }).total).toBe(3);
    expect(timeline.page({ kinds: ['message:report'], limit: 1, withTotal: true }).total).toBe(1);
    expect(timeline.page({ agents: ['ada'], limit: 1, withTotal: true }).total).toBe(2);
  });
});

describe('the count of a filter', () => {
  it('follows appends, one by one and in batches, events without an agent included', async () => {
    const temp = await tempTimelineDir();
    try {
      const timeline = temp.open();
      timeline.appendMany([
        { kind: 'credit', agent: 'ada' },
        { kind: 'credit', agent: 'ada' },
        { kind: 'credit' },
        { kind: 'tick_done' },
      ]);
      timeline.append({ kind: 'credit' });
      timeline.append({ kind: 'credit', agent: 'bert' });
      const total = (filter: object) => timeline.page({ ...filter, limit: 1, withTotal: true }).total;
      expect(total({})).toBe(6);
      expect(total({ kinds: ['credit'] })).toBe(5);
      expect(total({ agents: ['ada', 'bert'] })).toBe(3);
      expect(total({ agents: ['ada'], kinds: ['credit', 'tick_done'] })).toBe(2);
      const counted = timeline.db
        .prepare('SELECT agent, kind, events FROM event_counts ORDER BY kind, agent')
        .all();
      expect(counted).toEqual([
        { agent: null, kind: 'credit', events: 2 },
        { agent: 'ada', kind: 'credit', events: 2 },
        { agent: 'bert', kind: 'credit', events: 1 },
        { agent: null, kind: 'tick_done', events: 1 },
      ]);
    } finally {
      await temp.cleanup();
    }
  });
});

describe('pages by position when a tick range or run is written together (an exact seq window)', () => {
  it('match what paging from the newest lists, with the tick and run checks left out', async () => {
    const temp = await tempTimelineDir();
    try {
      const timeline = temp.open();
      const agents = ['ada', 'bert', 'cleo'];
      const kinds = ['credit', 'tool_call'];
      timeline.appendMany(
        Array.from({ length: 900 }, (_, index) => ({
          kind: kinds[index % 2]!,
          agent: agents[index % 3]!,
          tick: Math.floor(index / 9) + 1,
          run: `run-${Math.floor(index / 300)}`,
        })),
      );
      const filters = [
        { tickFrom: 20, tickTo: 60 },
        { runId: 'run-1' },
        { runId: 'run-1', tickFrom: 30, tickTo: 70 },
        { agents: ['bert'], tickFrom: 20, tickTo: 60 },
        { agents: ['bert'], kinds: ['credit'], runId: 'run-2' },
      ];
      for (const filter of filters) {
        const all: number[] = [];
        for (let cursor: number | null = null; ;) {
          const page = timeline.page({ ...filter, cursor, limit: 100 });
          all.push(...page.rows.map((row) => row.seq));
          if ((cursor = page.nextCursor) === null) break;
        }
        expect(timeline.page({ ...filter, limit: 1, withTotal: true }).total).toBe(all.length);
        for (const position of [0, 7, Math.floor(all.length / 2), all.length - 10]) {
          const page = timeline.page({ ...filter, position, limit: 10, withTotal: true });
          expect(
            page.rows.map((row) => row.seq),
            JSON.stringify({ filter, position }),
          ).toEqual(all.slice(position, position + 10));
          const fromCursor = timeline.page({
            ...filter,
            cursor: all[position]! + 1,
            limit: 1,
            withTotal: true,
          });
          expect(fromCursor.position).toBe(position);
        }
      }
    } finally {
      await temp.cleanup();
    }
  });
});
