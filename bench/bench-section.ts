/** One block of docs/BENCHMARKS.md: what was measured, the result, and the target it is held to. */
export interface BenchRow {
  metric: string;
  value: string;
  target?: string;
  /** Whether the value meets the target; absent when there is no target. */
  met?: boolean;
}

export interface BenchSection {
  title: string;
  rows: BenchRow[];
  notes?: string[];
}

export type Bench = () => Promise<BenchSection>;
