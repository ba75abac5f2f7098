import { describe, expect, it } from 'vitest';
import { seqSpansOf } from './seq-spans';

describe('seqSpansOf', () => {
  it('gives each value its first and last seq and its count, skipping nulls', () => {
    const spans = seqSpansOf([3, 3, null, 4, 3], [10, 11, 12, 13, 14]);
    expect([...spans]).toEqual([
      [3, { first: 10, last: 14, events: 3 }],
      [4, { first: 13, last: 13, events: 1 }],
    ]);
  });

  it('is empty for a batch with no values', () => {
    expect(seqSpansOf<string>([null, null], [1, 2]).size).toBe(0);
  });
});
