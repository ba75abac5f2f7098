/** Credits are stored as integers of a millionth, so that adding up a ledger is exact. */
export const MICROS_PER_CREDIT = 1_000_000;

export function toMicros(credits: number): number {
  return Math.round(credits * MICROS_PER_CREDIT);
}

export function fromMicros(micros: number): number {
  return micros / MICROS_PER_CREDIT;
}
