import { describe, expect, it } from 'vitest';
import {
  buildLemmingApi,
  channels,
  createEventHub,
  events,
  type EventName,
  type IpcResult,
  type RunState,
} from '../../../engine/api';
import { createServerState, KEPT_UNSHOWN } from './server-state';
import { READS, staleAfterEvent, staleAfterWrite } from './stale-map';
import { placeProblems } from './write';

const COALESCE_MS = 10;

/** A main that answers every call with what `answer` says, after `delayMs`, and counts the calls by channel and input. */
function mainThatCounts(
  answer: (channel: string, input: unknown) => IpcResult<unknown> | Error = () => ({
    ok: true,
    value: { asked: true },
  }),
) {
  const calls: string[] = [];
  const hub = createEventHub();
  const api = buildLemmingApi(async (channel, input) => {
    calls.push(`${channel} ${JSON.stringify(input)}`);
    // Main answers as things are when the call arrives; the answer takes a moment to come back.
    const answered = answer(channel, input);
    await settle(5);
    if (answered instanceof Error) throw answered;
    return answered;
  }, hub.subscribe);
  const push = <E extends EventName>(name: E, payload: unknown) => hub.deliver({ name, payload });
  return { calls, push, state: createServerState(api, COALESCE_MS) };
}

const settle = (ms = COALESCE_MS * 4) => new Promise((resolve) => setTimeout(resolve, ms));

const runState = (phase: RunState['phase']): RunState => ({
  phase,
  tickInProgress: null,
  nextTick: 3,
  ticksRun: 0,
  tickLimit: null,
  lastTick: null,
  intervalMs: 1000,
  ended: null,
  heldElsewhere: null,
});

describe('the server-state layer', () => {
  it('keeps a view that comes back while its old answer waits to be asked again: it is shown and stays fresh', async () => {
    let version = 1;
    const { calls, push, state } = mainThatCounts(() => ({ ok: true, value: { version } }));
    const away = state.watch('org.graph', {}, () => undefined);
    await settle();
    // A push makes it stale and its refetch waits for the burst to end; the view is left meanwhile.
    push('approvals.changed', { pending: 1 });
    away();
    const back = state.watch('org.graph', {}, () => undefined);
    await settle();
    expect(state.peek('org.graph', {})).toEqual({ ok: true, value: { version: 1 } });
    version = 2;
    push('approvals.changed', { pending: 0 });
    await settle();
    expect(state.peek('org.graph', {})).toEqual({ ok: true, value: { version: 2 } });
    back();
    expect(calls.filter((call) => call.startsWith('org.graph'))).toHaveLength(3);
  });

  it('shares one call among everyone who asks the same read while it is on its way', async () => {
    const { calls, state } = mainThatCounts();
    const answers = await Promise.all([
      state.read('agent.get', { agent: 'ana' }),
      state.read('agent.get', { agent: 'ana' }),
      state.read('org.graph', {}),
    ]);
    expect(calls).toEqual(['agent.get {"agent":"ana"}', 'org.graph {}']);
    expect(answers[0]).toBe(answers[1]);
  });

  it('asks main again when told to, even for a fresh answer, after the one on its way', async () => {
    const { calls, state } = mainThatCounts();
    state.watch('trust.state', {}, () => undefined);
    await state.refetch('trust.state', {});
    expect(calls).toEqual(['trust.state {}', 'trust.state {}']);
  });

  it('answers who asks after a push with a call sent after it, not the one on its way from before', async () => {
    let events = 1;
    const { calls, push, state } = mainThatCounts(() => ({ ok: true, value: { events } }));
    const before = state.read('timeline.page', { limit: 1 });
    events = 2;
    push('timeline.appended', { lastSeq: 2 });
    const after = await state.read('timeline.page', { limit: 1 });
    expect(await before).toEqual({ ok: true, value: { events: 1 } });
    expect(after).toEqual({ ok: true, value: { events: 2 } });
    expect(calls).toHaveLength(2);
  });

  it('keeps only the newest answers nobody shows any more', async () => {
    const { state } = mainThatCounts();
    for (let tick = 0; tick < KEPT_UNSHOWN + 10; tick += 1) {
      const stop = state.watch('inspector.tick', { tick }, () => undefined);
      await state.read('inspector.tick', { tick });
      stop();
    }
    expect(state.peek('inspector.tick', { tick: 0 })).toBeNull();
    expect(state.peek('inspector.tick', { tick: KEPT_UNSHOWN + 9 })).not.toBeNull();
  });

  it('keeps an answer that is shown until a push makes it stale, and none that nobody shows', async () => {
    const { calls, state } = mainThatCounts();
    state.watch('org.graph', {}, () => undefined)();
    await settle();
    await state.read('org.graph', {});
    await state.read('timeline.page', { limit: 1 });
    await state.read('timeline.page', { limit: 1 });
    expect(calls).toEqual(['org.graph {}', 'timeline.page {"limit":1}', 'timeline.page {"limit":1}']);
  });

  it('asks a watched read once more after a burst of pushes, however many there were', async () => {
    const { calls, push, state } = mainThatCounts();
    let heard = 0;
    state.watch('run.readiness', {}, () => (heard += 1));
    state.watch('run.readiness', {}, () => undefined);
    await settle();
    for (let index = 0; index < 6; index += 1) push('agents.changed', { names: [] });
    await settle();
    expect(calls).toEqual(['run.readiness {}', 'run.readiness {}']);
    expect(heard).toBe(2);
  });

  it('waits for a burst to be quiet: pushes closer together than the wait make one refetch', async () => {
    const { calls, push, state } = mainThatCounts();
    state.watch('org.graph', {}, () => undefined);
    await settle();
    for (let index = 0; index < 8; index += 1) {
      push('agents.changed', { names: ['ana'] });
      await settle(COALESCE_MS / 2);
    }
    await settle();
    expect(calls).toEqual(['org.graph {}', 'org.graph {}']);
  });

  it('asks the reads of how the org is set up again once the tick in progress is over, not after every turn', async () => {
    const { calls, push, state } = mainThatCounts((channel) =>
      channel === 'run.state' ? { ok: true, value: runState('idle') } : { ok: true, value: {} },
    );
    state.watch('run.state', {}, () => undefined);
    state.watch('run.readiness', {}, () => undefined);
    await settle();
    push('run.state', { ...runState('stepping'), tickInProgress: 3 });
    for (const name of ['ana', 'bo', 'cy']) {
      push('agents.changed', { names: [name] });
      await settle();
    }
    expect(calls.filter((call) => call.startsWith('run.readiness'))).toHaveLength(1);
    push('run.state', runState('idle'));
    await settle();
    expect(calls.filter((call) => call.startsWith('run.readiness'))).toHaveLength(2);
  });

  it('asks once more after an answer that was on its way when a push made it stale', async () => {
    const { calls, push, state } = mainThatCounts();
    state.watch('approvals.pending', {}, () => undefined);
    push('approvals.changed', { pending: 1 });
    push('approvals.changed', { pending: 2 });
    await settle();
    expect(calls).toEqual(['approvals.pending {}', 'approvals.pending {}']);
  });

  it('forgets a stale read nobody watches, and asks it afresh on its next use', async () => {
    const { calls, push, state } = mainThatCounts();
    const stop = state.watch('memory.get', { agent: 'ana' }, () => undefined);
    await settle();
    stop();
    push('timeline.appended', { lastSeq: 9 });
    await settle();
    expect(calls).toHaveLength(1);
    expect(state.peek('memory.get', { agent: 'ana' })).toBeNull();
    await state.read('memory.get', { agent: 'ana' });
    expect(calls).toHaveLength(2);
  });

  it("makes stale only the named agents' reads when a push names agents", async () => {
    const { calls, push, state } = mainThatCounts();
    state.watch('agent.get', { agent: 'ana' }, () => undefined);
    state.watch('agent.get', { agent: 'bo' }, () => undefined);
    await settle();
    push('agents.changed', { names: ['bo'] });
    await settle();
    expect(calls.filter((call) => call.includes('"ana"'))).toHaveLength(1);
    expect(calls.filter((call) => call.includes('"bo"'))).toHaveLength(2);
  });

  it("takes the run state a push carries as run.state's answer, and asks the readiness again only when the run settles", async () => {
    const { calls, push, state } = mainThatCounts();
    state.watch('run.state', {}, () => undefined);
    state.watch('run.readiness', {}, () => undefined);
    await settle();
    push('run.state', runState('stepping'));
    await settle();
    expect(state.peek('run.state', {})).toEqual({ ok: true, value: runState('stepping') });
    expect(calls).toEqual(['run.state {}', 'run.readiness {}']);
    push('run.state', runState('idle'));
    await settle();
    expect(calls).toEqual(['run.state {}', 'run.readiness {}', 'run.readiness {}']);
  });

  it('keeps a pushed answer over an older one that was on its way', async () => {
    const { state, push } = mainThatCounts(() => ({ ok: true, value: runState('idle') }));
    state.watch('run.state', {}, () => undefined);
    push('run.state', runState('running'));
    await settle();
    expect(state.peek('run.state', {})).toEqual({ ok: true, value: runState('running') });
  });

  it('keeps a refusal as the answer, and turns a call that throws into an internal error', async () => {
    const { state } = mainThatCounts((channel) =>
      channel === 'org.graph'
        ? new Error('the bridge is gone')
        : { ok: false, error: { code: 'no_org_open', message: 'No org is open.' } },
    );
    expect(await state.read('org.agents', {})).toEqual({
      ok: false,
      error: { code: 'no_org_open', message: 'No org is open.' },
    });
    expect(await state.read('org.graph', {})).toEqual({
      ok: false,
      error: { code: 'internal', message: 'Error: the bridge is gone' },
    });
  });

  it('makes stale what a write changed once it succeeds, and nothing when it is refused', async () => {
    let refuse = false;
    const { calls, state } = mainThatCounts(() =>
      refuse ? { ok: false, error: { code: 'invalid_input', message: 'No.' } } : { ok: true, value: {} },
    );
    state.watch('run.readiness', {}, () => undefined);
    await settle();
    await state.write('models.setKey', { model: 'gpt', value: 'sk-x' } as never);
    await settle();
    expect(calls.filter((call) => call.startsWith('run.readiness'))).toHaveLength(2);
    refuse = true;
    await state.write('models.setKey', { model: 'gpt', value: 'sk-x' } as never);
    await settle();
    expect(calls.filter((call) => call.startsWith('run.readiness'))).toHaveLength(2);
  });

  it('hands a push that carries its payload to who listens through the layer', () => {
    const { push, state } = mainThatCounts();
    const heard: unknown[] = [];
    const stop = state.on('app.navigate', (place) => heard.push(place));
    push('app.navigate', { view: 'settings' });
    stop();
    push('app.navigate', { view: 'org' });
    expect(heard).toEqual([{ view: 'settings' }]);
  });
});

describe('the stale map', () => {
  it('puts every channel on one side: a read that is cached, or a write that says what it makes stale', () => {
    const writes = Object.keys(staleAfterWrite);
    expect([...READS, ...writes].sort()).toEqual([...channels].sort());
    expect(READS.filter((read) => writes.includes(read))).toEqual([]);
  });

  it('says for every push what it makes stale', () => {
    expect(Object.keys(staleAfterEvent).sort()).toEqual(Object.keys(events).sort());
  });
});

describe('placing a refusal on form fields', () => {
  it('puts each issue on the field its path names, and says the others with where they are', () => {
    const placed = placeProblems(
      {
        code: 'invalid_change',
        message: 'The settings are not valid.',
        issues: [
          { path: 'values.port', message: 'Too big.' },
          { path: 'values.port', message: 'Not a whole number.' },
          { path: 'servers.notes', message: 'Has no command.' },
        ],
      },
      (path) => (path.startsWith('values.') ? path.slice('values.'.length) : null),
    );
    expect(placed).toEqual({
      byField: { port: ['Too big.', 'Not a whole number.'] },
      elsewhere: ['servers.notes: Has no command.'],
    });
  });
});
