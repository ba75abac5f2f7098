import { describe, expect, it } from 'vitest';
import { MAX_SEARCH_TEXT_CHARS, searchTextOf, searchTextOfJson } from './search-text';

describe('searchTextOf', () => {
  it('collects string values at every depth, in document order, and never keys', () => {
    const text = searchTextOf({
      kind: 'tool_result',
      agent: 'alice',
      outcome: { output: 'invoice sent', nested: [{ deeper: 'to bob' }, 42, true, null] },
      secretKeyName: 'value only',
    });
    expect(text.split('\n')).toEqual(['tool_result', 'alice', 'invoice sent', 'to bob', 'value only']);
    expect(text).not.toContain('outcome');
    expect(text).not.toContain('secretKeyName');
  });

  it('leaves out the time, run and turn ids every event carries', () => {
    const text = searchTextOf({
      kind: 'skip',
      time: '2026-01-01T00:00:00Z',
      run: 'run-7',
      turn: 'turn-9',
      note: 'paused',
    });
    expect(text).toBe('skip\npaused');
  });

  it('keeps nested keys named time or run: only the top-level conventional ones are left out', () => {
    expect(searchTextOf({ kind: 'x', meta: { time: 'yesterday', run: 'marathon' } })).toBe(
      'x\nyesterday\nmarathon',
    );
  });

  it('caps the indexed text of one event', () => {
    const text = searchTextOf({
      kind: 'model_call',
      prompt: 'word '.repeat(10_000),
      response: 'after the cap',
    });
    expect(text.length).toBeLessThanOrEqual(MAX_SEARCH_TEXT_CHARS);
    expect(text).not.toContain('after the cap');
  });

  it('walks nesting deeper than the call stack', () => {
    let value: unknown = 'bottom';
    for (let depth = 0; depth < 200_000; depth++) value = [value];
    expect(searchTextOf({ kind: 'deep', value })).toBe('deep\nbottom');
  });
});

describe('searchTextOfJson', () => {
  it('reads the stored JSON text of an event', () => {
    expect(searchTextOfJson('{"kind":"message","time":"t","entry":{"text":"hi"}}')).toBe('message\nhi');
  });

  it('gives nothing to index for text that is not a JSON object', () => {
    for (const json of ['{not json', '', '[1,"a"]', '"just a string"', 'null', '42']) {
      expect(searchTextOfJson(json), json).toBe('');
    }
  });
});
