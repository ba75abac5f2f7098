import { describe, expect, it } from 'vitest';
import { countOf, kindWords, localTime } from './plain-words';

describe('plain words', () => {
  it('counts with the right form of the noun', () => {
    expect(countOf(1, 'event')).toBe('1 event');
    expect(countOf(0, 'event')).toBe('0 events');
    expect(countOf(1234, 'event')).toBe(`${(1234).toLocaleString()} events`);
    expect(countOf(2, 'agent', 'agents')).toBe('2 agents');
  });

  it('reads a kind as words and keeps an unknown one', () => {
    expect(kindWords('model_call')).toBe('model call');
    expect(kindWords('telescope_reading')).toBe('telescope reading');
    expect(kindWords('_')).toBe('_');
    expect(kindWords('message:status_report')).toBe('message (status report)');
  });

  it('says how long ago a time was, and refuses what is not a time', () => {
    const now = Date.parse('2026-01-10T12:00:00Z');
    expect(localTime('2026-01-10T10:00:00Z', now)?.relative).toBe('2 hours ago');
    expect(localTime('2026-01-07T12:00:00Z', now)?.relative).toBe('3 days ago');
    expect(localTime('2026-01-10T12:00:00Z', now)?.relative).toBe('just now');
    expect(localTime('not a time', now)).toBeNull();
  });
});
