import { memo } from 'react';
import type { CreditHistoryEntry } from '../../../../engine/api';

const WIDTH = 240;
const HEIGHT = 56;
const PAD = 4;

/** The balance after each ledger entry, oldest to newest, as a small line chart. */
export const CreditChart = memo(function CreditChart({
  agent,
  entries,
}: {
  agent: string;
  entries: CreditHistoryEntry[];
}) {
  if (entries.length === 0) {
    return <p className="muted chart-empty">No credit history yet: it starts with {agent}’s first turn.</p>;
  }
  const balances = entries.map((entry) => entry.balance);
  // The chart spans the balances it shows: spending of a few credits out of a hundred must stay visible.
  const min = Math.min(...balances);
  const max = Math.max(...balances);
  const spread = max - min || Math.max(1, Math.abs(max));
  const low = max === min ? min - spread / 2 : min;
  const high = max === min ? max + spread / 2 : max;
  const x = (index: number) =>
    entries.length === 1 ? WIDTH / 2 : PAD + (index / (entries.length - 1)) * (WIDTH - 2 * PAD);
  const y = (balance: number) => HEIGHT - PAD - ((balance - low) / (high - low)) * (HEIGHT - 2 * PAD);
  const points = balances
    .map((balance, index) => `${x(index).toFixed(1)},${y(balance).toFixed(1)}`)
    .join(' ');
  const first = entries[0]!;
  const last = entries.at(-1)!;
  const label =
    `Balance of ${agent} over its last ${entries.length} ledger entries: ` +
    `from ${formatCredits(first.balance)} (tick ${first.tick ?? '–'}) to ${formatCredits(last.balance)} (tick ${last.tick ?? '–'}).`;

  return (
    <svg
      className="credit-chart"
      viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
      role="img"
      aria-label={label}
      data-points={entries.length}
      preserveAspectRatio="none"
    >
      <title>{label}</title>
      <line className="chart-axis" x1={PAD} x2={WIDTH - PAD} y1={HEIGHT - 1} y2={HEIGHT - 1} />
      <polyline className="chart-line" points={points} />
      {entries.length === 1 && <circle className="chart-dot" cx={x(0)} cy={y(first.balance)} r={3} />}
    </svg>
  );
});

export function formatCredits(value: number): string {
  return value.toLocaleString(undefined, { maximumFractionDigits: 4 });
}
