import { describe, expect, it } from 'vitest';
import { KNOWN_EVENT_KINDS } from '../api/timeline-events';
import { SUMMARY_LIMIT, summarizeEvent } from './event-summary';
import { EVENT_SAMPLES } from './test-support/timeline-event-samples';

const summary = (event: { kind: string; [field: string]: unknown }) =>
  summarizeEvent(event.kind, JSON.stringify(event));

describe('summarizeEvent', () => {
  it('says what a memory update changed, in the older whole-value shape and in the change shape', () => {
    const memory = { kind: 'memory_update', agent: 'w1', key: 'seen' };
    expect(summary({ ...memory, op: 'append', value: ['a', 'b'] })).toBe('memory append seen: now ["a","b"]');
    expect(summary({ ...memory, op: 'append', appended: ['b'] })).toBe('memory append seen: added "b"');
    expect(summary({ ...memory, op: 'merge', merged: [{ done: true }] })).toBe(
      'memory merge seen: merged in {"done":true}',
    );
    expect(summary({ ...memory, op: 'set', value: 3 })).toBe('memory set seen: now 3');
    expect(summary({ ...memory, op: 'delete' })).toBe('memory delete seen');
    expect(summary({ ...memory, op: 'set', value: 4, by: 'human' })).toBe('you: memory set seen: now 4');
  });

  it('phrases the kinds the engine writes from their key fields', () => {
    expect(summary(EVENT_SAMPLES.message)).toBe('request to researcher: Find three facts.');
    expect(summary(EVENT_SAMPLES.model_call)).toBe('demo (120 in, 30 out): Done.');
    expect(summary(EVENT_SAMPLES.rehearsal)).toBe(
      'rehearsed a turn (completed): would write a file notes.md (5 characters); nothing was done',
    );
    const failed = {
      ...EVENT_SAMPLES.model_call,
      response: undefined,
      usage: undefined,
      error: { error_kind: 'http', status: 401, attempts: 1, message: 'HTTP 401: bad key' },
    };
    expect(summary(failed)).toBe('demo: The call to the model failed.');
    expect(
      summary({ ...failed, error: { ...failed.error, message: 'OpenAI returned HTTP 401: bad key' } }),
    ).toBe('demo: The model could not be reached (the server answered 401: the API key was refused).');
    expect(summary(EVENT_SAMPLES.error)).toBe('The call to the model failed.');
    expect(
      summary({
        ...EVENT_SAMPLES.error,
        message: 'model "gpt-4o" (OpenAI) needs an API key: set provider_config.api_key_secret',
      }),
    ).toBe('The model "gpt-4o" (OpenAI) needs an API key: paste it in Settings, under Models and providers.');
    expect(summary(EVENT_SAMPLES.tool_call)).toBe('Save a memory with {"key":"plan"}');
    expect(summary(EVENT_SAMPLES.tool_result)).toBe('Read a file → failed: no such file');
    expect(summary(EVENT_SAMPLES.tool_intent)).toBe(
      'about to use Run a shell command with {"command":"make"}',
    );
    expect(summary({ ...EVENT_SAMPLES.tool_result, started_before_stop: 'c1' })).toBe(
      'Read a file not run again: it was started before the app stopped, and whether it finished is not known',
    );
    expect(summary(EVENT_SAMPLES.credit)).toBe('top_up 10 credits: top-up');
    expect(summary(EVENT_SAMPLES.skip)).toBe('manager has no credits left.');
    expect(summary(EVENT_SAMPLES.tick_completed)).toBe('tick 4 completed: 2 turns');
    expect(summary(EVENT_SAMPLES.turn_completed)).toBe('turn completed, spent 0.5 credits');
    expect(summary(EVENT_SAMPLES.approval_requested)).toBe(
      'asks to use Run a shell command with {"command":"ls"}: It runs a command on this computer with your rights.',
    );
    expect(summary(EVENT_SAMPLES.approval_answered)).toBe('Run a shell command denied (person): not now');
    const form = { server: 'everything', message: 'Who are you?', fields: [] };
    expect(
      summary({ ...EVENT_SAMPLES.approval_requested, tool: 'mcp__everything__ask', args: {}, form }),
    ).toBe('everything asks the person to fill in a form while Ask (everything) runs: “Who are you?”');
    expect(
      summary({
        ...EVENT_SAMPLES.approval_answered,
        tool: 'mcp__everything__ask',
        answer: 'approve_once',
        values: {},
      }),
    ).toBe('the form of Ask (everything) was sent (person)');
    expect(
      summary({ ...EVENT_SAMPLES.approval_answered, answer: 'deny', source: 'timeout', dismissed: true }),
    ).toBe('the form of Run a shell command was closed unanswered (timeout)');
    expect(
      summary({
        ...EVENT_SAMPLES.approval_requested,
        tool: 'mcp__notes__erase_notes',
        args: {},
        reason: 'It changed since you chose how it runs, so it asks first until you choose again.',
        changes: ['It now claims it only reads.'],
      }),
    ).toBe(
      'asks to use Erase notes (notes): It changed since you chose how it runs, so it asks first until you choose again. What changed: It now claims it only reads.',
    );
  });

  it('has a phrase for every kind the engine writes', () => {
    for (const kind of KNOWN_EVENT_KINDS) {
      const event = EVENT_SAMPLES[kind];
      expect(summary(event), kind).not.toBe(JSON.stringify(event));
    }
  });

  it('shows an unknown kind by its own text, else by its JSON', () => {
    expect(summary({ kind: 'vote', text: 'I vote yes', weight: 2 })).toBe('I vote yes');
    expect(summary({ kind: 'ping', n: 1 })).toBe('{"kind":"ping","n":1}');
  });

  it('is one line, cut to the limit, whatever the event holds', () => {
    const long = summary({ ...EVENT_SAMPLES.notes, text: `line one\n\nline two ${'x'.repeat(1000)}` });
    expect(long).toMatch(/^line one line two x+…$/);
    expect(long).toHaveLength(SUMMARY_LIMIT);
    expect(summarizeEvent('message', '{"entry": 42}')).toBe('{"entry": 42}');
    expect(summarizeEvent('message', 'not json')).toBe('not json');
  });
});
