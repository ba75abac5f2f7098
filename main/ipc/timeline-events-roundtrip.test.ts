import { afterEach, describe, expect, it } from 'vitest';
import {
  KNOWN_EVENT_KINDS,
  knownEvent,
  OtherTimelineEvent,
  TimelineEventInput,
} from '../../engine/api/timeline-events';
import { EVENT_SAMPLES } from '../../engine/app/test-support/timeline-event-samples';
import { indexedKind } from '../../engine/timeline/event-record';
import { DEMO_ORG, ipcHarnesses, valueOf } from './test-support/ipc-harness';

const harnesses = ipcHarnesses();
afterEach(() => harnesses.cleanup());

describe('timeline events through IPC', () => {
  it('one event of every kind the engine writes, and an unknown kind with fields of its own, come back intact and typed', async () => {
    expect(Object.keys(EVENT_SAMPLES).sort()).toEqual([...KNOWN_EVENT_KINDS].sort());
    const harness = await harnesses.create();
    valueOf(await harness.dispatch('org.open', { path: harness.copy(DEMO_ORG) }));
    const timeline = harness.host.current()!.engine.timeline;

    const unknown = {
      kind: 'vote_cast',
      time: '2026-01-01T00:00:00.000Z',
      agent: 'manager',
      tick: 4,
      ballot: { choice: 'yes', weights: [1, 2.5, null] },
      'odd key': true,
    };
    const withExtra = { ...EVENT_SAMPLES.message, from_a_newer_engine: { nested: ['kept'] } };
    const appended = [...KNOWN_EVENT_KINDS.map((kind) => EVENT_SAMPLES[kind]), withExtra, unknown];
    const seqs = appended.map((event) => timeline.append(event));

    const page = valueOf<{ rows: { seq: number; kind: string; summary: string }[] }>(
      await harness.dispatch('timeline.page', { direction: 'asc', cursor: seqs[0]! - 1, limit: 1000 }),
    );
    // Listed by their own kind; a message by its entry's kind when that is not "message".
    expect(page.rows.map((row) => row.kind)).toEqual(appended.map((event) => indexedKind(event)));
    expect(page.rows.find((row) => row.seq === seqs[KNOWN_EVENT_KINDS.indexOf('message')])?.kind).toBe(
      'message:request',
    );

    for (const [index, event] of appended.entries()) {
      const stored = valueOf<{ kind: string; json: string }>(
        await harness.dispatch('timeline.get', { seq: seqs[index] }),
      );
      expect(stored.json).toBe(JSON.stringify(event));
      const value: unknown = JSON.parse(stored.json);
      expect(value).toEqual(event);
      expect(TimelineEventInput.safeParse(value).success).toBe(true);
      const typed = knownEvent(value);
      if (event === unknown) {
        expect(typed).toBeNull();
        expect(OtherTimelineEvent.parse(value)).toEqual(unknown);
      } else {
        expect(typed?.kind).toBe(event.kind);
      }
    }
    expect(page.rows.at(-1)!.summary).toBe(JSON.stringify(unknown));
  });

  it(
    'every event a real run of the demo org writes is of a known kind and matches its schema',
    { timeout: 60_000 },
    async () => {
      const harness = await harnesses.create();
      valueOf(await harness.dispatch('org.open', { path: harness.copy(DEMO_ORG) }));
      valueOf(await harness.dispatch('messages.send', { text: 'Please start.', importance: 'high' }));
      for (let tick = 0; tick < 3; tick += 1) valueOf(await harness.dispatch('run.step', {}));
      valueOf(await harness.dispatch('credits.topUp', { agent: 'writer', amount: 2 }));
      const rows = harness.host.current()!.engine.timeline.page({ direction: 'asc', limit: 1000 }).rows;
      const kinds = new Set(rows.map((row) => (JSON.parse(row.json) as { kind: string }).kind));
      expect([...kinds].filter((kind) => !(KNOWN_EVENT_KINDS as readonly string[]).includes(kind))).toEqual(
        [],
      );
      for (const row of rows) expect(knownEvent(JSON.parse(row.json)), row.json).not.toBeNull();
      expect([...kinds]).toEqual(expect.arrayContaining(['tick_started', 'model_call', 'message', 'credit']));
    },
  );
});
