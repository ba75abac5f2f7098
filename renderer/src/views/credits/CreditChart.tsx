import { memo } from 'react';
import type { CreditHistoryEntry } from '../../../../engine/api';
import { countOf } from '../../words/plain-words';

const WIDTH = 320;
const HEIGHT = 120;
/** Room for the value labels left of the chart and the tick labels under it. */
const LEFT = 52;
const BOTTOM = 18;
const TOP = 8;
const RIGHT = 8;

/** Credits spent in each tick, oldest tick first: the bars under the balance line. */
export function spendPerTick(entries: CreditHistoryEntry[]): { tick: number; spent: number }[] {
  const spent = new Map<number, number>();
  for (const entry of entries)
    if (entry.tick !== null && entry.amount < 0)
      spent.set(entry.tick, (spent.get(entry.tick) ?? 0) - entry.amount);
  return [...spent].sort(([a], [b]) => a - b).map(([tick, amount]) => ({ tick, spent: amount }));
}

/**
 * The balance after each ledger entry, oldest to newest, on an axis from 0 to the budget (so spending 0.2%
 * looks like 0.2%), with its values written on the axes, and bars for what each tick spent.
 */
export const CreditChart = memo(function CreditChart({
  agent,
  entries,
  budget,
}: {
  agent: string;
  entries: CreditHistoryEntry[];
  /** The agent's max_credits, the top of the axis; the highest balance when it has none. */
  budget: number | null;
}) {
  if (entries.length === 0) {
    return <p className="muted chart-empty">No credit history yet: it starts with {agent}’s first turn.</p>;
  }
  const balances = entries.map((entry) => entry.balance);
  const high = Math.max(budget ?? 0, ...balances, 1e-9);
  const low = Math.min(0, ...balances);
  const plotWidth = WIDTH - LEFT - RIGHT;
  const plotHeight = HEIGHT - TOP - BOTTOM;
  const x = (index: number) =>
    entries.length === 1 ? LEFT + plotWidth / 2 : LEFT + (index / (entries.length - 1)) * plotWidth;
  const y = (value: number) => TOP + plotHeight - ((value - low) / (high - low)) * plotHeight;
  const points = balances
    .map((balance, index) => `${x(index).toFixed(1)},${y(balance).toFixed(1)}`)
    .join(' ');

  const spending = spendPerTick(entries);
  const firstTick = entries.find((entry) => entry.tick !== null)?.tick ?? null;
  const lastTick = entries.findLast((entry) => entry.tick !== null)?.tick ?? null;
  const totalSpent = spending.reduce((sum, tick) => sum + tick.spent, 0);
  const mostSpent = Math.max(0, ...spending.map((tick) => tick.spent));
  const ticks = firstTick !== null && lastTick !== null ? lastTick - firstTick + 1 : 0;
  const barWidth = ticks > 0 ? Math.max(2, Math.min(24, plotWidth / ticks - 2)) : 0;
  const barX = (tick: number) =>
    ticks <= 1
      ? LEFT + plotWidth / 2 - barWidth / 2
      : LEFT + ((tick - firstTick!) / (ticks - 1)) * (plotWidth - barWidth);
  /** The bars share the bottom quarter of the plot, scaled to the tick that spent most. */
  const barHeight = (spent: number) => (mostSpent > 0 ? (spent / mostSpent) * plotHeight * 0.25 : 0);

  const first = entries[0]!;
  const last = entries.at(-1)!;
  const label =
    `Balance of ${agent} over its last ${countOf(entries.length, 'ledger entry', 'ledger entries')}: ` +
    `from ${formatCredits(first.balance)} (tick ${first.tick ?? '–'}) to ${formatCredits(last.balance)} (tick ${last.tick ?? '–'})` +
    (budget !== null ? ` of a budget of ${formatCredits(budget)}` : '') +
    `; spent ${formatCredits(totalSpent)} in ${countOf(spending.length, 'tick')}.`;

  return (
    <figure className="credit-figure">
      <svg
        className="credit-chart"
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        role="img"
        aria-label={label}
        data-points={entries.length}
      >
        <title>{label}</title>
        {spending.map((tick) => (
          <rect
            key={tick.tick}
            className="chart-bar"
            data-tick={tick.tick}
            data-spent={tick.spent}
            x={barX(tick.tick)}
            y={TOP + plotHeight - barHeight(tick.spent)}
            width={barWidth}
            height={barHeight(tick.spent)}
          >
            <title>{`Tick ${tick.tick}: spent ${formatCredits(tick.spent)} credits`}</title>
          </rect>
        ))}
        <line className="chart-axis" x1={LEFT} x2={LEFT} y1={TOP} y2={TOP + plotHeight} />
        <line className="chart-axis" x1={LEFT} x2={WIDTH - RIGHT} y1={y(low)} y2={y(low)} />
        <line className="chart-grid" x1={LEFT} x2={WIDTH - RIGHT} y1={y(high)} y2={y(high)} />
        <text className="chart-label" x={LEFT - 4} y={y(high) + 4} textAnchor="end">
          {formatCompact(high)}
        </text>
        <text className="chart-label" x={LEFT - 4} y={y(low)} textAnchor="end">
          {formatCompact(low)}
        </text>
        {firstTick !== null && (
          <text className="chart-label" x={LEFT} y={HEIGHT - 4} textAnchor="start">
            tick {firstTick}
          </text>
        )}
        {lastTick !== null && lastTick !== firstTick && (
          <text className="chart-label" x={WIDTH - RIGHT} y={HEIGHT - 4} textAnchor="end">
            tick {lastTick}
          </text>
        )}
        <polyline className="chart-line" points={points} />
        {entries.length === 1 && <circle className="chart-dot" cx={x(0)} cy={y(first.balance)} r={3} />}
      </svg>
      <figcaption className="muted small" data-testid="credit-spend">
        {totalSpent > 0
          ? `Spent ${formatCredits(totalSpent)} credits in ${countOf(spending.length, 'tick')}` +
            (budget ? ` (${formatShare(totalSpent / budget)} of the budget)` : '') +
            `; most in one tick: ${formatCredits(mostSpent)}.`
          : 'Nothing spent yet.'}
      </figcaption>
    </figure>
  );
});

export function formatCredits(value: number): string {
  return value.toLocaleString(undefined, { maximumFractionDigits: 4 });
}

function formatCompact(value: number): string {
  return value.toLocaleString(undefined, { notation: 'compact', maximumFractionDigits: 2 });
}

function formatShare(share: number): string {
  return share.toLocaleString(undefined, { style: 'percent', maximumSignificantDigits: 2 });
}
