/** Where the events with one value of a column (a tick, a run) lie in a batch: first and last seq and how many. */
export interface SeqSpan {
  first: number;
  last: number;
  events: number;
}

/**
 * The span of each distinct non-null value of `values` in a batch whose seqs increase, one entry per
 * value in first-seen order: a batch usually spans a few ticks and one run, so the span tables get a
 * row per value per batch rather than per event.
 */
export function seqSpansOf<T>(values: readonly (T | null)[], seqs: readonly number[]): Map<T, SeqSpan> {
  const spans = new Map<T, SeqSpan>();
  values.forEach((value, index) => {
    if (value === null) return;
    const seq = seqs[index]!;
    const span = spans.get(value);
    if (span) {
      span.last = seq;
      span.events += 1;
    } else {
      spans.set(value, { first: seq, last: seq, events: 1 });
    }
  });
  return spans;
}
