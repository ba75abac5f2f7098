import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { KnownTimelineEvent } from '../engine/api/timeline-events';
import { tickTurns, turnDetail } from '../engine/app/turn-inspector';
import { BULK_BATCH_SIZE, openTimeline } from '../engine/timeline/timeline-store';
import type { BenchSection } from './bench-section';

const EVENT_COUNT = Number(process.env.TURN_INSPECTOR_BENCH_EVENTS ?? 1_000_000);
const AGENT_COUNT = 20;
const RUNS = 60;
const TARGET_MS = 100;

/** A turn as the engine writes it: two model calls with their prompt, two tool calls and results, a message. */
function turnEvents(agent: string, tick: number): KnownTimelineEvent[] {
  const base = {
    agent,
    tick,
    run: 'bench-run',
    turn: `${tick}:${agent}`,
    time: new Date(Date.UTC(2026, 0, 1, 0, 0, tick)).toISOString(),
  };
  const prompt = [
    {
      role: 'system',
      content: `You are an agent in a multi-agent organization. ${'Answer with one JSON object. '.repeat(20)}`,
    },
    { role: 'system', content: `YOUR ROLE: ${agent}\n\nKeep the books for tick ${tick}.` },
    {
      role: 'user',
      content: `INCOMING MESSAGES:\nNEW MESSAGES since your last turn:\n[tick ${tick - 1}] From manager: ${'please check the ledger '.repeat(12)}`,
    },
    {
      role: 'user',
      content: `Current tick: ${tick}\nYou are: ${agent}\nAvailable tools: file_read, memory_write`,
    },
  ];
  const usage = { inputTokens: 900, outputTokens: 80 };
  const call = (round: number): KnownTimelineEvent => ({
    ...base,
    kind: 'model_call',
    round,
    model: 'bench',
    provider: 'scripted',
    prompt,
    response: { text: '{"notes": "done"}', toolCalls: [], finishReason: 'stop', stop: 'stop', raw: null },
    usage,
    latency_ms: 420 + round,
    cost: 0.00123,
  });
  const tool = (id: string, tool: string, success: boolean): KnownTimelineEvent[] => [
    { ...base, kind: 'tool_call', round: 1, call_id: id, tool, args: { path: `notes-${tick}.md` } },
    {
      ...base,
      kind: 'tool_result',
      round: 1,
      call_id: id,
      tool,
      result: { success, output: success ? 'ok' : null, error: success ? null : 'File not found' },
      duration_ms: 3,
    },
  ];
  return [
    {
      ...base,
      kind: 'turn_started',
      inbox: { fresh: [{ seq: tick, id: `m${tick}`, from: 'manager' }], earlier: 0, more_waiting: false },
    },
    call(1),
    { ...base, kind: 'credit', entry: 'model_call', amount: -0.00123, reason: 'model call 1' },
    ...tool('r1c1', 'memory_write', true),
    ...tool('r1c2', 'file_read', false),
    call(2),
    { ...base, kind: 'credit', entry: 'model_call', amount: -0.00123, reason: 'model call 2' },
    {
      ...base,
      kind: 'message',
      entry: { id: `x${tick}`, kind: 'report', payload: { text: 'Books kept.' }, recipients: ['human'] },
    },
    { ...base, kind: 'credit', entry: 'turn', amount: -0.01, reason: 'turn' },
    { ...base, kind: 'turn_completed', status: 'completed', spent: 0.01246, duration_ms: 870 },
  ];
}

const EVENTS_PER_TURN = turnEvents('a0', 1).length;
const agents = Array.from({ length: AGENT_COUNT }, (_, index) => `agent${String(index).padStart(2, '0')}`);

export default async function turnInspectorBench(): Promise<BenchSection> {
  const dir = mkdtempSync(join(tmpdir(), 'lemming-inspector-bench-'));
  try {
    const opened = openTimeline(join(dir, 'timeline.sqlite'));
    if (!opened.ok) throw new Error(opened.error.message);
    const timeline = opened.timeline;
    const ticks = Math.ceil(EVENT_COUNT / (EVENTS_PER_TURN * AGENT_COUNT));
    const ingestStart = performance.now();
    let batch: KnownTimelineEvent[] = [];
    for (let tick = 1; tick <= ticks; tick += 1) {
      for (const agent of agents) batch.push(...turnEvents(agent, tick));
      if (batch.length >= BULK_BATCH_SIZE) {
        timeline.appendMany(batch);
        batch = [];
      }
    }
    if (batch.length > 0) timeline.appendMany(batch);
    const ingestSeconds = (performance.now() - ingestStart) / 1000;
    const events = timeline.latestSeq();
    timeline.close();

    // As the app opens it: a fresh connection (cold statement cache), read-only like an org from another machine.
    const reopened = openTimeline(join(dir, 'timeline.sqlite'), { readonly: true });
    if (!reopened.ok) throw new Error(reopened.error.message);
    const store = reopened.timeline;
    try {
      let seed = 11;
      const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
      // The first open after the timeline is opened prepares the statements and warms the JIT: reported apart.
      let started = performance.now();
      turnDetail(store, agents[0]!, 1);
      const firstOpenMs = performance.now() - started;
      const turnTimes: number[] = [];
      const tickTimes: number[] = [];
      for (let run = 0; run < RUNS; run += 1) {
        const tick = 1 + Math.floor(random() * ticks);
        const agent = agents[Math.floor(random() * agents.length)]!;
        started = performance.now();
        const turn = turnDetail(store, agent, tick);
        turnTimes.push(performance.now() - started);
        if (!turn.ok || turn.value.steps.filter((step) => step.type === 'tool_call').length !== 2)
          throw new Error(`turn ${agent}@${tick} did not read back whole`);
        started = performance.now();
        const turns = tickTurns(store, tick);
        tickTimes.push(performance.now() - started);
        if (turns.turns.length !== AGENT_COUNT)
          throw new Error(`tick ${tick} has ${turns.turns.length} turns`);
      }
      const turnStats = stats(turnTimes);
      const tickStats = stats(tickTimes);
      const size = events.toLocaleString('en-US');
      return {
        title: 'Turn inspector (SQLite)',
        rows: [
          {
            metric: `open one turn (inspector.turn: its events read and built into the tree) at ${size} events (median, p95, worst of ${RUNS})`,
            value: `${turnStats.median.toFixed(2)} ms, ${turnStats.p95.toFixed(2)} ms, ${turnStats.max.toFixed(2)} ms`,
            target: `≤ ${TARGET_MS} ms`,
            met: turnStats.p95 <= TARGET_MS,
          },
          {
            metric:
              'the first turn opened after the timeline was opened (statements prepared, code not yet optimized)',
            value: `${firstOpenMs.toFixed(2)} ms`,
          },
          {
            metric: `one tick's turns for the waterfall (inspector.tick, ${AGENT_COUNT} turns) at ${size} events (median, p95 of ${RUNS})`,
            value: `${tickStats.median.toFixed(2)} ms, ${tickStats.p95.toFixed(2)} ms`,
          },
          {
            metric: `writing the ${size} events (appendMany, ${BULK_BATCH_SIZE} per transaction)`,
            value: `${ingestSeconds.toFixed(1)} s`,
          },
        ],
        notes: [
          `Events: ${AGENT_COUNT} agents, each with one turn per tick of ${EVENTS_PER_TURN} events as the engine writes them (turn_started, two model_call events with a 1.2 KB prompt, two tool calls with their results, credits, a message, turn_completed). Turns are picked at random over the whole timeline, on a read-only connection opened after the writes, so the first reads are cold. The target is held to the 95th percentile; the worst run is shown beside it (the machine is shared, so single runs are noisy).`,
        ],
      };
    } finally {
      store.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function stats(values: number[]): { median: number; p95: number; max: number } {
  const sorted = [...values].sort((a, b) => a - b);
  return {
    median: sorted[Math.floor(sorted.length / 2)]!,
    p95: sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.95))]!,
    max: sorted.at(-1)!,
  };
}
