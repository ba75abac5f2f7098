import { describe, expect, it } from 'vitest';
import { AgentState } from '../api/agent-state-schemas';
import { agentStateOf, failureCause, type AgentFacts } from './agent-state';

const ready: AgentFacts = {
  invalidResume: null,
  switchedOff: false,
  waiting: null,
  running: false,
  runPaused: false,
  overBudget: null,
  balance: 10,
  willNotRun: [],
  lastTurn: { tick: 3, status: 'completed' },
  lastError: null,
  lastFailureFixed: false,
};
const noKey = {
  reason: 'its model gpt-4o (OpenAI) has no API key yet: paste one in Settings, under Models and providers',
  short: 'No API key for gpt-4o',
  detail: 'model "gpt-4o" (openai) needs an API key',
  fixIn: 'settings' as const,
};
const approval = { id: 'req-1', tool: 'shell', form: false, askedAt: '2026-11-28T01:00:00.000Z' };
const keyMissing = {
  reason: 'llm_call_failed',
  message: 'model "gpt-4o" (openai) needs an API key: set the secret OPENAI_API_KEY',
};
const overBudgetWords =
  'Paused: writer is over its budget of 1 credit a day. It goes on when you resume it, or when the day ends.';
const failed = { lastTurn: { tick: 4, status: 'failed' }, lastError: keyMissing };

describe('agentStateOf: the one place an agent’s state is decided', () => {
  it('says each state in words, in the shape every channel carries', () => {
    const states = [
      agentStateOf(ready),
      agentStateOf({ ...ready, lastTurn: null }),
      agentStateOf({ ...ready, willNotRun: [noKey] }),
      agentStateOf({ ...ready, running: true }),
      agentStateOf({ ...ready, waiting: approval }),
      agentStateOf({ ...ready, waiting: { ...approval, form: true } }),
      agentStateOf({ ...ready, ...failed }),
      agentStateOf({ ...ready, runPaused: true }),
      agentStateOf({ ...ready, balance: 0 }),
      agentStateOf({ ...ready, overBudget: overBudgetWords }),
      agentStateOf({
        ...ready,
        invalidResume: { file: 'agents/x/resume.json', line: 4, message: 'schedule is missing' },
      }),
    ];
    for (const state of states) expect(AgentState.parse(state)).toEqual(state);
    expect(states.map((state) => [state.kind, state.words])).toEqual([
      ['ready', 'Ready. Last ran at tick 3.'],
      ['ready', 'Ready. It has not run yet.'],
      ['will_not_run', `It will not run: ${noKey.reason}.`],
      ['running', 'Taking its turn in the tick in progress.'],
      ['needs_you', 'Its turn waits for you to allow or deny shell.'],
      ['needs_you', 'Its turn waits for you to fill in a form for shell.'],
      [
        'failing',
        'Its last turn (tick 4) failed. The model "gpt-4o" (openai) needs an API key: paste it in Settings, under Models and providers.',
      ],
      ['paused', 'The run is paused: it takes its turn when the run continues.'],
      ['out_of_credits', 'No credits left: it skips its turns until topped up.'],
      ['over_budget', overBudgetWords],
      ['invalid_resume', 'Its resume cannot be used: schedule is missing'],
    ]);
    expect(states[4]).toMatchObject({ waitingFor: 'approval', requestId: 'req-1', since: approval.askedAt });
    expect(states[10]).toMatchObject({ file: 'agents/x/resume.json', line: 4 });
    expect(states[6]).toMatchObject({ sinceTick: 4, technical: `llm_call_failed: ${keyMissing.message}` });
  });

  it('says a switched-off agent is switched off, unless a turn of it is still going or waits for the person', () => {
    expect(agentStateOf({ ...ready, switchedOff: true, balance: 0, runPaused: true })).toEqual({
      kind: 'switched_off',
      words: 'Switched off: it takes no turns until you switch it on.',
    });
    expect(agentStateOf({ ...ready, switchedOff: true, running: true }).kind).toBe('running');
    expect(agentStateOf({ ...ready, switchedOff: true, waiting: approval }).kind).toBe('needs_you');
  });

  it('puts "needs you" over running: a turn held up by the person is not just running', () => {
    expect(agentStateOf({ ...ready, running: true, waiting: approval }).kind).toBe('needs_you');
  });

  it('takes the first that applies: invalid, needs you, running, out of credits, over budget, will not run, failing, paused', () => {
    const invalidResume = { file: 'agents/x/resume.json', line: null, message: 'bad JSON' };
    const all: AgentFacts = {
      ...ready,
      ...failed,
      invalidResume,
      waiting: approval,
      running: true,
      balance: 0,
      overBudget: overBudgetWords,
      willNotRun: [noKey],
      runPaused: true,
    };
    const order = [];
    let facts = all;
    for (const next of [
      { invalidResume: null },
      { waiting: null },
      { running: false },
      { balance: 5 },
      { overBudget: null },
      { willNotRun: [] },
      { lastFailureFixed: true },
      { runPaused: false },
    ]) {
      order.push(agentStateOf(facts).kind);
      facts = { ...facts, ...next };
    }
    order.push(agentStateOf(facts).kind);
    expect(order).toEqual([
      'invalid_resume',
      'needs_you',
      'running',
      'out_of_credits',
      'over_budget',
      'will_not_run',
      'failing',
      'paused',
      'ready',
    ]);
  });

  it('a failure whose cause is fixed is history on a ready agent, not its state', () => {
    const state = agentStateOf({ ...ready, ...failed, lastFailureFixed: true });
    expect(state).toEqual({
      kind: 'ready',
      words: 'Ready: what made its last turn (tick 4) fail is fixed.',
      lastTurnFailed: {
        tick: 4,
        why: 'The model "gpt-4o" (openai) needs an API key: paste it in Settings, under Models and providers.',
        technical: `llm_call_failed: ${keyMissing.message}`,
      },
    });
  });
});

describe('failureCause: which failures the engine can see fixed before another turn', () => {
  it('a model not set up, a key not set or not allowed, and an unwritable folder; nothing else', () => {
    expect(failureCause(keyMissing)).toEqual({ kind: 'model_setup' });
    expect(
      failureCause({ reason: 'model_unavailable', message: 'The model "x" is not in models.json.' }),
    ).toEqual({ kind: 'model_setup' });
    expect(
      failureCause({
        reason: 'llm_call_failed',
        message:
          'model "gpt-4o" (openai) uses the secret OPENAI_API_KEY, but this org may not use the secret OPENAI_API_KEY',
      }),
    ).toEqual({ kind: 'model_setup' });
    expect(
      failureCause({
        reason: 'file_write_failed',
        message: 'could not write to agents/writer/outbox/1.json: the folder is read-only',
      }),
    ).toEqual({ kind: 'unwritable_folder', folder: 'agents/writer/outbox' });
    expect(
      failureCause({
        reason: 'llm_call_failed',
        message: 'OpenAI returned HTTP 401: Incorrect API key provided',
      }),
    ).toEqual({ kind: 'other' });
    expect(failureCause({ reason: 'engine_error', message: 'boom' })).toEqual({ kind: 'other' });
    expect(failureCause(null)).toEqual({ kind: 'other' });
  });
});
