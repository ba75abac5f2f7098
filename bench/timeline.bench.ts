import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { TimelineEventInput } from '../engine/api/timeline-events';
import type { TimelineQuery } from '../engine/api/timeline-schemas';
import { applyConnectionPragmas, openSqlite } from '../engine/timeline/sqlite';
import { BULK_BATCH_SIZE, openTimeline, type TimelineStore } from '../engine/timeline/timeline-store';
import type { BenchSection } from './bench-section';

const EVENT_COUNT = Number(process.env.TIMELINE_BENCH_EVENTS ?? 1_000_000);
const BATCH_SIZE = BULK_BATCH_SIZE;
const AGENT_COUNT = 20;
const EVENTS_PER_TICK = 40;
const PAGE_RUNS = 60;
const PAGE_SIZE = 200;
const TARGET_INGEST_RATIO = 0.5;
const TARGET_PAGE_MEDIAN_MS = 5;

export default async function timelineBench(): Promise<BenchSection> {
  const dir = mkdtempSync(join(tmpdir(), 'lemming-timeline-bench-'));
  try {
    const raw = ingestRaw(join(dir, 'raw.sqlite'));
    const opened = openTimeline(join(dir, 'timeline.sqlite'));
    if (!opened.ok) throw new Error(opened.error.message);
    const timeline = opened.timeline;
    try {
      const store = ingestThroughStore(timeline);
      const search = catchUpSearch(timeline);
      const pages = measurePages(timeline);
      const seeks = measureSeeks(timeline);
      return section(store, raw, search, pages, seeks);
    } finally {
      timeline.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

interface IngestResult {
  eventsPerSecond: number;
  seconds: number;
  cpuMicrosPerEvent: number;
}

function ingestThroughStore(timeline: TimelineStore): IngestResult {
  const clock = ingestClock();
  for (let start = 0; start < EVENT_COUNT; start += BATCH_SIZE) {
    const events = eventBatch(start);
    clock.time(() => timeline.appendMany(events));
  }
  return clock.result();
}

/** Indexes the text of every event the store ingested, as the engine does after each tick. */
function catchUpSearch(timeline: TimelineStore): IngestResult {
  const clock = ingestClock();
  clock.time(() => {
    const indexed = timeline.catchUpSearch();
    if (indexed !== EVENT_COUNT)
      throw new Error(`search catch-up indexed ${indexed} of ${EVENT_COUNT} events`);
  });
  return clock.result();
}

/** Wall and CPU time of the timed parts only; generating the events is left out of both. */
function ingestClock(): { time: (work: () => unknown) => void; result: () => IngestResult } {
  let wallMs = 0;
  let cpuMicros = 0;
  return {
    time(work) {
      const wallStart = performance.now();
      const cpuStart = process.cpuUsage();
      work();
      const cpu = process.cpuUsage(cpuStart);
      cpuMicros += cpu.user + cpu.system;
      wallMs += performance.now() - wallStart;
    },
    result: () => ({
      eventsPerSecond: EVENT_COUNT / (wallMs / 1000),
      seconds: wallMs / 1000,
      cpuMicrosPerEvent: cpuMicros / EVENT_COUNT,
    }),
  };
}

/**
 * The least any writer of these events must do: serialize each event and insert it with the same
 * columns into a table with no indexes and no search, from the same event objects and batches.
 */
function ingestRaw(file: string): IngestResult {
  const db = openSqlite(file);
  try {
    applyConnectionPragmas(db, { readonly: false });
    db.exec(
      'CREATE TABLE events (seq INTEGER PRIMARY KEY, kind TEXT NOT NULL, agent TEXT, tick INTEGER, run_id TEXT, time TEXT, json TEXT NOT NULL)',
    );
    const insert = db.prepare(
      'INSERT INTO events (kind, agent, tick, run_id, time, json) VALUES (?, ?, ?, ?, ?, ?)',
    );
    const insertBatch = db.transaction((events: TimelineEventInput[]) => {
      for (const event of events) {
        insert.run(
          event.kind,
          event.agent ?? null,
          event.tick ?? null,
          event.run ?? null,
          event.time ?? null,
          JSON.stringify(event),
        );
      }
    });
    const clock = ingestClock();
    for (let start = 0; start < EVENT_COUNT; start += BATCH_SIZE) {
      const events = eventBatch(start);
      clock.time(() => insertBatch(events));
    }
    return clock.result();
  } finally {
    db.close();
  }
}

interface PageTiming {
  label: string;
  /** The shapes the target names; the others are reported to show how the rest behaves. */
  hasTarget: boolean;
  medianMs: number;
  p95Ms: number;
}

function measurePages(timeline: TimelineStore): PageTiming[] {
  const lastTick = Math.floor((EVENT_COUNT - 1) / EVENTS_PER_TICK) + 1;
  const random = mulberry32(7);
  const pick = <T>(values: readonly T[]): T => values[Math.floor(random() * values.length)]!;
  const shapes: { label: string; hasTarget: boolean; query: () => TimelineQuery }[] = [
    { label: 'by agent', hasTarget: true, query: () => ({ agents: [pick(AGENTS)] }) },
    { label: 'by kind', hasTarget: true, query: () => ({ kinds: [pick(KINDS)] }) },
    {
      label: 'by agent + kind',
      hasTarget: true,
      query: () => ({ agents: [pick(AGENTS)], kinds: [pick(KINDS)] }),
    },
    {
      label: 'by tick range (100 ticks)',
      hasTarget: true,
      query: () => {
        const from = 1 + Math.floor(random() * (lastTick - 100));
        return { tickFrom: from, tickTo: from + 99 };
      },
    },
    { label: 'by text (one word)', hasTarget: true, query: () => ({ text: pick(SEARCH_WORDS) }) },
    {
      label: 'by 3 agents',
      hasTarget: false,
      query: () => ({ agents: [pick(AGENTS), pick(AGENTS), pick(AGENTS)] }),
    },
    {
      label: 'by tick range, first half of the run',
      hasTarget: false,
      query: () => ({ tickFrom: 1, tickTo: Math.floor(lastTick / 2) }),
    },
    {
      label: 'by text prefix (word*)',
      hasTarget: false,
      query: () => ({ text: `${pick(SEARCH_WORDS).slice(0, 3)}*` }),
    },
    {
      label: 'by text + agent',
      hasTarget: false,
      query: () => ({ text: pick(SEARCH_WORDS), agents: [pick(AGENTS)] }),
    },
  ];
  return shapes.map(({ label, hasTarget, query }) => {
    const timings: number[] = [];
    for (let run = 0; run < PAGE_RUNS; run++) {
      const base = { ...query(), limit: PAGE_SIZE };
      // Alternate first pages with second pages, so the keyset cursor path is measured too.
      const cursor = run % 2 === 1 ? timeline.page(base).nextCursor : null;
      const began = performance.now();
      timeline.page({ ...base, cursor });
      timings.push(performance.now() - began);
    }
    timings.sort((a, b) => a - b);
    return { label, hasTarget, medianMs: percentile(timings, 0.5), p95Ms: percentile(timings, 0.95) };
  });
}

interface SeekTiming {
  label: string;
  total: number;
  middleMs: number;
  endMs: number;
}

const SEEK_RUNS = 9;

/**
 * A page read at a position, with the filter's total, as the Timeline asks when its scrollbar is
 * dragged: the count comes from event_counts, the tick or run tables, or an index-only count; the
 * seek from the seq itself (no filter) or an index-only walk from the nearer end.
 */
function measureSeeks(timeline: TimelineStore): SeekTiming[] {
  const lastTick = Math.floor((EVENT_COUNT - 1) / EVENTS_PER_TICK) + 1;
  const shapes: { label: string; filter: TimelineQuery }[] = [
    { label: 'no filter', filter: {} },
    { label: 'by agent', filter: { agents: [AGENTS[3]!] } },
    { label: 'by kind', filter: { kinds: ['tool_call'] } },
    { label: 'by agent + kind', filter: { agents: [AGENTS[3]!], kinds: ['tool_call'] } },
    {
      label: 'by tick range, first half of the run',
      filter: { tickFrom: 1, tickTo: Math.floor(lastTick / 2) },
    },
    {
      label: 'by agent + tick range (first half)',
      filter: { agents: [AGENTS[3]!], tickFrom: 1, tickTo: Math.floor(lastTick / 2) },
    },
    { label: 'by text (one word)', filter: { text: SEARCH_WORDS[0]! } },
  ];
  return shapes.map(({ label, filter }) => {
    const total = timeline.page({ ...filter, limit: 1, withTotal: true }).total ?? 0;
    const timeAt = (position: number): number => {
      const timings: number[] = [];
      for (let run = 0; run < SEEK_RUNS; run++) {
        const began = performance.now();
        timeline.page({ ...filter, position, limit: PAGE_SIZE, withTotal: true });
        timings.push(performance.now() - began);
      }
      return percentile(
        timings.sort((a, b) => a - b),
        0.5,
      );
    };
    return {
      label,
      total,
      middleMs: timeAt(Math.floor(total / 2)),
      endMs: timeAt(Math.max(0, total - PAGE_SIZE)),
    };
  });
}

function section(
  store: IngestResult,
  raw: IngestResult,
  search: IngestResult,
  pages: PageTiming[],
  seeks: SeekTiming[],
): BenchSection {
  const ratio = store.eventsPerSecond / raw.eventsPerSecond;
  const withSearchRatio = raw.seconds / (store.seconds + search.seconds);
  const count = EVENT_COUNT.toLocaleString('en-US');
  return {
    title: 'Timeline (SQLite)',
    rows: [
      {
        metric: `store ingest, ${count} events (appendMany, ${BATCH_SIZE} per transaction)`,
        value: `${rate(store.eventsPerSecond)} events/s (${store.seconds.toFixed(1)} s)`,
      },
      {
        metric: `raw better-sqlite3 insert of the same events (JSON.stringify + INSERT), same batches`,
        value: `${rate(raw.eventsPerSecond)} events/s (${raw.seconds.toFixed(1)} s)`,
      },
      {
        metric: 'CPU time per event (user + system): store, raw',
        value: `${store.cpuMicrosPerEvent.toFixed(1)} µs, ${raw.cpuMicrosPerEvent.toFixed(1)} µs`,
      },
      {
        metric: 'store ingest rate / raw insert rate',
        value: ratio.toFixed(2),
        target: `≥ ${TARGET_INGEST_RATIO}`,
        met: ratio >= TARGET_INGEST_RATIO,
      },
      {
        metric: `search catch-up of the same ${count} events (catchUpSearch, ${BATCH_SIZE} per transaction)`,
        value: `${rate(search.eventsPerSecond)} events/s (${search.seconds.toFixed(1)} s), ${search.cpuMicrosPerEvent.toFixed(1)} µs CPU per event`,
      },
      {
        metric: 'store ingest + search catch-up rate / raw insert rate',
        value: withSearchRatio.toFixed(2),
      },
      ...pages.map((page) => ({
        metric: `${PAGE_SIZE}-event page at ${count} events, ${page.label} (median, p95 of ${PAGE_RUNS})`,
        value: `${page.medianMs.toFixed(2)} ms, ${page.p95Ms.toFixed(2)} ms`,
        ...(page.hasTarget
          ? { target: `median ≤ ${TARGET_PAGE_MEDIAN_MS} ms`, met: page.medianMs <= TARGET_PAGE_MEDIAN_MS }
          : {}),
      })),
      ...seeks.map((seek) => ({
        metric: `${PAGE_SIZE}-event page at a position, with the total (a dragged scrollbar), ${count} events, ${seek.label} (${seek.total.toLocaleString('en-US')} match; median of ${SEEK_RUNS}): middle, end`,
        value: `${seek.middleMs.toFixed(1)} ms, ${seek.endMs.toFixed(1)} ms`,
      })),
    ],
    notes: [
      'Both ingest rows start from the same event objects, generated outside the timed parts.',
      'Store ingest times appendMany: schema check, JSON.stringify, the indexed columns and their four indexes, and the tick and run tables. Search indexing is not on this path.',
      'Raw insert times JSON.stringify and a plain INSERT of the same columns into a table with no indexes and no search, in the same WAL mode and batch size.',
      'Search catch-up times catchUpSearch over all the ingested events: reading each stored JSON text, parsing it, extracting its search text and inserting it into the FTS5 index. The engine runs it after every tick; the ingest + catch-up row shows the whole cost of a searchable event.',
      `Events: deterministic mix of message, model_call (1–2 KB prompt excerpt), tool_call, tool_result, credit, skip, warning; ${AGENT_COUNT} agents; ${EVENTS_PER_TICK} events per tick.`,
      'Pages are measured after the catch-up. Odd page runs continue from the first page’s cursor, so the keyset path is measured as well as the first page.',
    ],
  };
}

function rate(perSecond: number): string {
  return Math.round(perSecond).toLocaleString('en-US');
}

function percentile(sorted: number[], fraction: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))]!;
}

const AGENTS = Array.from(
  { length: AGENT_COUNT },
  (_, index) => `agent_${String(index + 1).padStart(2, '0')}`,
);
const KINDS = ['message', 'model_call', 'tool_call', 'tool_result', 'credit', 'skip', 'warning'] as const;
const TOOLS = [
  'file_read',
  'file_write',
  'file_list',
  'shell',
  'memory_read',
  'memory_write',
  'http_request',
  'list_agents',
];
const SEARCH_WORDS = ['invoice', 'budget', 'deploy', 'customer', 'schedule', 'report'];

/** A vocabulary with a long tail, so the search index sees realistic term counts. */
const VOCABULARY = buildVocabulary();

function buildVocabulary(): string[] {
  const common = [
    'the',
    'agent',
    'please',
    'review',
    'file',
    'update',
    'summary',
    'task',
    'plan',
    'next',
    'tick',
    'team',
    'write',
    'read',
    'memory',
    'result',
    'error',
    'check',
    'draft',
    'send',
    'meeting',
    'notes',
    'status',
    ...SEARCH_WORDS,
  ];
  const random = mulberry32(1);
  const syllables = [
    'ka',
    'lo',
    'mi',
    're',
    'sun',
    'tor',
    'vel',
    'qua',
    'zen',
    'dri',
    'pol',
    'mar',
    'ten',
    'ix',
  ];
  const rare = Array.from({ length: 4000 }, () => {
    const length = 2 + Math.floor(random() * 3);
    return Array.from({ length }, () => syllables[Math.floor(random() * syllables.length)]!).join('');
  });
  return [...common, ...rare];
}

/** Ten-word phrases drawn once; events are stitched from them, which keeps generation cheap. */
const PHRASE_WORDS = 10;
const PHRASES = buildPhrases(4096);

function buildPhrases(count: number): string[] {
  const random = mulberry32(2);
  return Array.from({ length: count }, () => {
    const parts: string[] = [];
    for (let index = 0; index < PHRASE_WORDS; index++) {
      // Zipf-like: most words come from the small common head of the vocabulary.
      parts.push(VOCABULARY[Math.floor(VOCABULARY.length * random() ** 3)]!);
    }
    return parts.join(' ');
  });
}

function sentence(random: () => number, words: number): string {
  const parts: string[] = [];
  for (let remaining = words; remaining > 0; remaining -= PHRASE_WORDS) {
    const phrase = PHRASES[Math.floor(random() * PHRASES.length)]!;
    parts.push(remaining >= PHRASE_WORDS ? phrase : phrase.split(' ', remaining).join(' '));
  }
  return parts.join(' ');
}

/** Events [start, start + BATCH_SIZE), the same on every call: the content depends only on the index. */
function eventBatch(start: number): TimelineEventInput[] {
  const end = Math.min(EVENT_COUNT, start + BATCH_SIZE);
  const events: TimelineEventInput[] = [];
  for (let index = start; index < end; index++) events.push(eventAt(index));
  return events;
}

const BASE_TIME = Date.UTC(2026, 0, 5, 9, 0, 0);

export function eventAt(index: number): TimelineEventInput {
  const random = mulberry32(index + 1);
  const tick = Math.floor(index / EVENTS_PER_TICK) + 1;
  const agent = AGENTS[Math.floor(random() * AGENTS.length)]!;
  const common = {
    time: new Date(BASE_TIME + index * 250).toISOString(),
    run: `run-${1 + Math.floor(index / 250_000)}`,
    tick,
    agent,
    turn: `turn-${tick}-${agent}`,
  };
  const roll = random();
  if (roll < 0.2) {
    return {
      kind: 'message',
      ...common,
      entry: {
        id: `msg-${index}`,
        kind: 'message',
        payload: { text: sentence(random, 12 + Math.floor(random() * 30)) },
        recipients: [AGENTS[Math.floor(random() * AGENTS.length)]!],
        tags: ['work'],
      },
    };
  }
  if (roll < 0.35) {
    const promptWords = 130 + Math.floor(random() * 130);
    return {
      kind: 'model_call',
      ...common,
      model: 'gpt-4.1-mini',
      prompt_excerpt: sentence(random, promptWords),
      response: sentence(random, 20 + Math.floor(random() * 40)),
      usage: {
        input_tokens: 900 + Math.floor(random() * 1500),
        output_tokens: 40 + Math.floor(random() * 400),
      },
      latency_ms: 300 + Math.floor(random() * 4000),
    };
  }
  if (roll < 0.55) {
    return {
      kind: 'tool_call',
      ...common,
      tool: TOOLS[Math.floor(random() * TOOLS.length)]!,
      arguments: { path: `workspace/${sentence(random, 1)}.md`, content: sentence(random, 8) },
      call_id: `call-${index}`,
    };
  }
  if (roll < 0.75) {
    return {
      kind: 'tool_result',
      ...common,
      call_id: `call-${index - 1}`,
      result: {
        success: random() > 0.1,
        output: sentence(random, 10 + Math.floor(random() * 60)),
        error: null,
      },
      duration_ms: Math.floor(random() * 200),
    };
  }
  if (roll < 0.9) {
    return {
      kind: 'credit',
      ...common,
      delta: -Math.round(random() * 1000) / 1000,
      balance: Math.round(random() * 100_000) / 1000,
      reason: 'model_call',
    };
  }
  if (roll < 0.96) return { kind: 'skip', ...common, reason: random() > 0.5 ? 'no_credits' : 'paused' };
  return {
    kind: 'warning',
    ...common,
    message: `contract warning: ${sentence(random, 6)}`,
    snippet: sentence(random, 15),
  };
}

function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
}

// Lets the benchmark run alone: `npx tsx bench/timeline.bench.ts`.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const result = await timelineBench();
  console.log(JSON.stringify(result, null, 2));
}
