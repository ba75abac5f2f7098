import { randomUUID } from 'node:crypto';
import type { JobKind, JobProgress } from '../api/job-schemas';

/** What a long job is handed: the signal that says the person cancelled it, and where it says how far it is. */
export interface JobControl {
  signal: AbortSignal;
  progress(done: number, total: number): void;
}

/** Runs a long job with its progress told and a way to cancel it; the CLI runs its jobs without one. */
export interface JobRunner {
  run<T>(kind: JobKind, work: (job: JobControl) => Promise<T>): Promise<T>;
}

/** How often a job's progress is told at most: often enough for a bar that moves, not a flood of pings. */
const PROGRESS_INTERVAL_MS = 100;

/**
 * The long jobs going on (exports, imports): each gets an id, its progress is told at most every
 * PROGRESS_INTERVAL_MS (the first and the last always), and `cancel` aborts its signal. The last word
 * on every job, however it ended, has `ended: true`.
 */
export class Jobs implements JobRunner {
  private readonly going = new Map<string, AbortController>();

  constructor(private readonly tell: (progress: JobProgress) => void) {}

  async run<T>(kind: JobKind, work: (job: JobControl) => Promise<T>): Promise<T> {
    const id = randomUUID();
    const controller = new AbortController();
    this.going.set(id, controller);
    let latest = { done: 0, total: 0 };
    let toldAt: number | null = null;
    const progress = (done: number, total: number) => {
      latest = { done: Math.min(done, total), total };
      const now = Date.now();
      if (toldAt !== null && now - toldAt < PROGRESS_INTERVAL_MS) return;
      toldAt = now;
      this.tell({ id, kind, ...latest, ended: false });
    };
    try {
      return await work({ signal: controller.signal, progress });
    } finally {
      this.going.delete(id);
      this.tell({ id, kind, ...latest, ended: true });
    }
  }

  /** Cancels the job; false when none of that id is going on. */
  cancel(id: string): boolean {
    const controller = this.going.get(id);
    if (!controller) return false;
    controller.abort();
    return true;
  }
}
