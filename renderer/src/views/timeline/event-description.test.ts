import { describe, expect, it } from 'vitest';
import { describeEvent } from './event-description';

/** A tick_completed as the engine writes it, before issue 34's fields. */
const TICK = {
  time: '2026-01-01T00:00:00.000Z',
  run: 'run-1',
  tick: 4,
  agent: null,
  turn: null,
  kind: 'tick_completed',
  turns: [
    { agent: 'manager', status: 'completed' },
    { agent: 'writer', status: 'failed' },
  ],
};

describe("a tick's record", () => {
  it('says how long its turns waited for the model server and how many calls at once it allowed', () => {
    const tick = {
      ...TICK,
      server_wait: { turns: 12, total_ms: 30_500, longest_ms: 4_200 },
      server_limits: [{ server: 'ollama http://127.0.0.1:11434/', limit: 9, learned: true }],
    };
    expect(describeEvent('tick_completed', JSON.stringify(tick)).facts).toEqual([
      { label: 'Turns', value: '2' },
      { label: 'Waited for the model', value: '12 turns, the longest 4.2 s' },
      { label: 'Calls at once', value: 'ollama http://127.0.0.1:11434/: up to 9, learned from its answers' },
    ]);
  });

  it('says nothing of waiting when no turn waited (a record from before, or a tick on programs only)', () => {
    expect(describeEvent('tick_completed', JSON.stringify(TICK)).facts).toEqual([
      { label: 'Turns', value: '2' },
    ]);
  });
});
