import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { callDeadline } from './call-deadline';

const activeTimers = () => process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;

describe('a model call deadline', () => {
  it('aborts with a TimeoutError when the time is up', async () => {
    const deadline = callDeadline(undefined, 10);
    await new Promise((resolve) => deadline.signal.addEventListener('abort', resolve));
    expect(deadline.signal.reason).toMatchObject({ name: 'TimeoutError' });
    deadline.dispose();
  });

  it("aborts with the run's reason when the run is cancelled", () => {
    const run = new AbortController();
    const deadline = callDeadline(run.signal, 60_000);
    run.abort(new Error('closing'));
    expect(deadline.signal.reason).toEqual(new Error('closing'));
    deadline.dispose();
  });

  it('leaves no timer and no listener on the run signal once the call is over', () => {
    const run = new AbortController();
    const before = activeTimers();
    const deadlines = Array.from({ length: 100 }, () => callDeadline(run.signal, 120_000));
    expect(activeTimers()).toBe(before + 100);
    expect(getEventListeners(run.signal, 'abort')).toHaveLength(100);
    for (const deadline of deadlines) deadline.dispose();
    expect(activeTimers()).toBe(before);
    expect(getEventListeners(run.signal, 'abort')).toHaveLength(0);
  });

  it('measures silence: each restart gives the call its whole time again', async () => {
    const deadline = callDeadline(undefined, 60);
    for (let piece = 0; piece < 4; piece += 1) {
      await new Promise((resolve) => setTimeout(resolve, 30));
      deadline.restart();
    }
    expect(deadline.signal.aborted).toBe(false);
    await new Promise((resolve) => deadline.signal.addEventListener('abort', resolve));
    expect(deadline.signal.reason).toMatchObject({ name: 'TimeoutError' });
    deadline.dispose();
  });
});
