import { describe, expect, it } from 'vitest';
import { isClearlyValidEvent } from './event-record';
import { TimelineEventInput } from '../api/timeline-events';

const KIND_VALUES: unknown[] = [undefined, null, '', 'message', 7, ['message'], { kind: 'x' }];
const STRING_FIELD_VALUES: unknown[] = [undefined, null, '', 'ada', 0, false, [], {}, 1n];
const TICK_VALUES: unknown[] = [
  undefined,
  null,
  0,
  -3,
  7,
  1.5,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  Number.MAX_SAFE_INTEGER,
  Number.MAX_SAFE_INTEGER + 2,
  '7',
  7n,
];

describe('isClearlyValidEvent', () => {
  it('agrees with the schema on every mix of right and wrong conventional keys', () => {
    let accepted = 0;
    for (const kind of KIND_VALUES)
      for (const agent of STRING_FIELD_VALUES)
        for (const run of STRING_FIELD_VALUES)
          for (const tick of TICK_VALUES) {
            const event = {
              kind,
              agent,
              run,
              tick,
              time: '2026-01-05T09:00:00.000Z',
              turn: 't-1',
              extra: [1],
            };
            const clearlyValid = isClearlyValidEvent(event);
            const label = JSON.stringify(event, (_, value: unknown) => String(value));
            expect(clearlyValid, label).toBe(TimelineEventInput.safeParse(event).success);
            if (clearlyValid) accepted += 1;
          }
    expect(accepted).toBe(1 * 4 * 4 * 6);
  });

  it('leaves values that are not objects, and wrongly typed time or turn, to the schema', () => {
    for (const value of [
      null,
      undefined,
      'message',
      42,
      [],
      [{ kind: 'x' }],
      { time: 5, kind: 'x' },
      { turn: {}, kind: 'x' },
    ])
      expect(isClearlyValidEvent(value)).toBe(false);
  });
});
