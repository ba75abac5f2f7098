import { describe, expect, it } from 'vitest';
import type { TurnProgress } from '../../engine/api/model-event-schemas';
import { HostEvents } from './host-events';

const piece = (agent: string, round: number, text: string): TurnProgress => ({
  kind: 'turn_progress',
  run: 'r',
  tick: 1,
  agent,
  turn: `1:${agent}`,
  round,
  deltas: [{ type: 'text', text }],
});

describe('answer pieces on their way to the renderer', () => {
  it('travel in one push per interval, pieces of one model call merged, in order', async () => {
    const events = new HostEvents(20);
    const heard: unknown[] = [];
    events.on((name, payload) => heard.push({ name, payload }));
    events.turnProgress(piece('a', 1, 'He'));
    events.turnProgress(piece('a', 1, 'llo'));
    events.turnProgress(piece('b', 1, 'Hi'));
    events.turnProgress(piece('a', 2, 'Next'));
    expect(heard).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 40));
    expect(heard).toEqual([
      {
        name: 'turn.progress',
        payload: {
          progress: [
            {
              ...piece('a', 1, 'He'),
              deltas: [
                { type: 'text', text: 'He' },
                { type: 'text', text: 'llo' },
              ],
            },
            piece('b', 1, 'Hi'),
            piece('a', 2, 'Next'),
          ],
          ended: [],
        },
      },
    ]);
  });

  it('go out at once, with word of the end, when a turn commits', () => {
    const events = new HostEvents(10_000);
    const heard: unknown[] = [];
    events.on((name, payload) => heard.push({ name, payload }));
    events.turnProgress(piece('a', 1, 'last words'));
    events.turnEnded('a');
    expect(heard).toEqual([
      { name: 'turn.progress', payload: { progress: [piece('a', 1, 'last words')], ended: ['a'] } },
    ]);
  });

  it('say nothing when a turn that wrote nothing live ends', () => {
    const events = new HostEvents(10_000);
    const heard: unknown[] = [];
    events.on((name, payload) => heard.push({ name, payload }));
    events.turnEnded('scripted');
    expect(heard).toEqual([]);
  });
});
