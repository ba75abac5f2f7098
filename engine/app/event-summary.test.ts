import { describe, expect, it } from 'vitest';
import { SUMMARY_LIMIT, summarizeEvent } from './event-summary';

const summary = (event: Record<string, unknown>) => summarizeEvent(String(event.kind), JSON.stringify(event));

describe('summarizeEvent', () => {
  it('phrases the kinds the engine writes from their key fields', () => {
    expect(
      summary({
        kind: 'message',
        entry: { kind: 'request', recipients: ['researcher'], payload: { text: 'Find three facts.' } },
      }),
    ).toBe('request to researcher: Find three facts.');
    expect(
      summary({
        kind: 'model_call',
        model: 'demo',
        usage: { inputTokens: 120, outputTokens: 30 },
        response: { text: 'Done.' },
      }),
    ).toBe('demo (120 in, 30 out): Done.');
    expect(summary({ kind: 'model_call', model: 'gpt', error: { message: 'HTTP 401: bad key' } })).toBe(
      'gpt failed: HTTP 401: bad key',
    );
    expect(summary({ kind: 'tool_call', tool: 'memory_write', args: { key: 'plan' } })).toBe(
      'memory_write({"key":"plan"})',
    );
    expect(
      summary({ kind: 'tool_result', tool: 'file_read', result: { success: false, error: 'no such file' } }),
    ).toBe('file_read → failed: no such file');
    expect(summary({ kind: 'credit', entry: 'top_up', amount: 10, reason: 'top-up' })).toBe(
      'top_up 10 credits: top-up',
    );
    expect(summary({ kind: 'skip', reason: 'no_credits', message: 'manager has no credits left.' })).toBe(
      'no_credits: manager has no credits left.',
    );
    expect(summary({ kind: 'tick_completed', tick: 4, turns: [{}, {}] })).toBe('tick 4 completed: 2 turns');
    expect(summary({ kind: 'turn_completed', status: 'completed', spent: 0.5 })).toBe(
      'turn completed, spent 0.5 credits',
    );
  });

  it('shows an unknown kind by its own text, else by its JSON', () => {
    expect(summary({ kind: 'vote', text: 'I vote yes', weight: 2 })).toBe('I vote yes');
    expect(summary({ kind: 'ping', n: 1 })).toBe('{"kind":"ping","n":1}');
  });

  it('is one line, cut to the limit, whatever the event holds', () => {
    const long = summary({ kind: 'notes', text: `line one\n\nline two ${'x'.repeat(1000)}` });
    expect(long).toMatch(/^line one line two x+…$/);
    expect(long).toHaveLength(SUMMARY_LIMIT);
    expect(summarizeEvent('message', '{"entry": 42}')).toBe('{"entry": 42}');
    expect(summarizeEvent('message', 'not json')).toBe('not json');
  });
});
