import { describe, expect, it } from 'vitest';
import { agentStateOf } from './agent-state';
import { permissionEdges } from './org-graph';

describe('permissionEdges', () => {
  it('draws a read edge from each outbox to its reader, and a send edge to each allowed recipient', () => {
    const { edges, unknownNames } = permissionEdges([
      { name: 'manager', readOutboxes: ['human', 'writer'], sendOutboxes: null },
      { name: 'writer', readOutboxes: ['manager'], sendOutboxes: ['manager', 'ghost'] },
      { name: 'human', readOutboxes: ['*'], sendOutboxes: null },
    ]);
    expect(edges).toEqual([
      { from: 'human', to: 'manager', kind: 'read', viaWildcard: false },
      { from: 'writer', to: 'manager', kind: 'read', viaWildcard: false },
      { from: 'manager', to: 'writer', kind: 'read', viaWildcard: false },
      { from: 'writer', to: 'manager', kind: 'send', viaWildcard: false },
      { from: 'manager', to: 'human', kind: 'read', viaWildcard: true },
      { from: 'writer', to: 'human', kind: 'read', viaWildcard: true },
    ]);
    expect(unknownNames).toEqual(new Map([['writer', ['ghost']]]));
  });

  it('an agent whose resume cannot be read has no edges of its own, and reading itself is no edge', () => {
    const { edges } = permissionEdges([
      { name: 'broken', readOutboxes: null, sendOutboxes: null },
      { name: 'solo', readOutboxes: ['solo', 'broken'], sendOutboxes: null },
    ]);
    expect(edges).toEqual([{ from: 'broken', to: 'solo', kind: 'read', viaWildcard: false }]);
  });
});

describe('agentStateOf', () => {
  const base = {
    invalidBecause: null,
    running: false,
    balance: 10,
    lastTurn: { tick: 3, status: 'completed' },
  };

  it('takes the first state that applies: invalid, running, out of credits, failing, idle', () => {
    expect(agentStateOf({ ...base, invalidBecause: 'bad JSON', running: true }).state).toBe('invalid');
    expect(agentStateOf({ ...base, running: true, balance: 0 }).state).toBe('running');
    expect(agentStateOf({ ...base, balance: 0, lastTurn: { tick: 3, status: 'failed' } }).state).toBe(
      'out_of_credits',
    );
    expect(agentStateOf({ ...base, lastTurn: { tick: 3, status: 'failed' } })).toEqual({
      state: 'failing',
      reason: 'Its last turn (tick 3) failed; the timeline says why.',
      technical: null,
    });
    expect(agentStateOf(base)).toEqual({ state: 'idle', reason: 'Last ran at tick 3.', technical: null });
    expect(agentStateOf({ ...base, balance: null, lastTurn: null })).toEqual({
      state: 'idle',
      reason: 'Has not run yet.',
      technical: null,
    });
  });

  it('says why a turn failed in plain words and keeps the engine’s own words apart', () => {
    const lastError = {
      reason: 'llm_call_failed',
      message: 'OpenAI returned HTTP 401: Incorrect API key provided: sk-[redacted]',
    };
    expect(agentStateOf({ ...base, lastTurn: { tick: 3, status: 'failed' }, lastError })).toEqual({
      state: 'failing',
      reason:
        'Its last turn (tick 3) failed. The model could not be reached (the server answered 401: the API key was refused).',
      technical: 'llm_call_failed: OpenAI returned HTTP 401: Incorrect API key provided: sk-[redacted]',
    });
  });
});
