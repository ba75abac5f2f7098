import { z } from 'zod';

/** The long jobs the app reports progress of and lets the person cancel. */
export const JobKind = z.enum(['timeline_export', 'timeline_import']);
export type JobKind = z.infer<typeof JobKind>;

/**
 * How far a long job is: `done` of `total` in the job's own unit (events written for an export, bytes
 * read for an import). `ended` is the last word on the job, whether it finished, failed or was cancelled.
 */
export const JobProgress = z.object({
  id: z.string(),
  kind: JobKind,
  done: z.int().nonnegative(),
  total: z.int().nonnegative(),
  ended: z.boolean(),
});
export type JobProgress = z.infer<typeof JobProgress>;

export const CancelJobInput = z.strictObject({ id: z.string().min(1) });
export const CancelJobResult = z.object({
  /** False when no job of that id is going on (it ended already). */
  cancelled: z.boolean(),
});
