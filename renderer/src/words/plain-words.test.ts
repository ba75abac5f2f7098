import { describe, expect, it } from 'vitest';
import { countOf, duration, kindWords, localTime } from './plain-words';

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

  it('says a duration rounded, as a person reads it', () => {
    expect(duration(0.03200800000001891)).toBe('under 1 ms');
    expect(duration(0)).toBe('under 1 ms');
    expect(duration(12.6)).toBe('13 ms');
    expect(duration(999.4)).toBe('999 ms');
    expect(duration(1234)).toBe('1.2 s');
    expect(duration(65_000)).toBe('1 min 5 s');
    expect(duration(Number.NaN)).toBe('—');
  });
});
