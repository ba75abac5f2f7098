import { z } from 'zod';
import { TurnDetail } from './inspector-schemas';
import { TurnStatus } from './run-schemas';
import { WouldDo } from './timeline-events';

/** Which agent to rehearse a turn of. */
export const RehearseInput = z.object({ agent: z.string().min(1).max(256) }).strict();

/** A rehearsal record of the timeline, by its seq. */
export const RehearsalRef = z.object({ seq: z.int().positive() }).strict();
export type RehearsalRef = z.infer<typeof RehearsalRef>;

/** What a rehearsal answers: its record, and what the turn would have done. */
export const RehearsalSummary = z.object({
  seq: z.int().positive(),
  agent: z.string(),
  asTick: z.int(),
  status: TurnStatus,
  wouldDo: z.array(WouldDo),
  costWords: z.string(),
  /** Why the turn was skipped or failed, in the engine's words; null when it completed. */
  problem: z.string().nullable(),
});
export type RehearsalSummary = z.infer<typeof RehearsalSummary>;

/**
 * A rehearsal as the inspector shows it: the turn as it played (its steps point at the rehearsal
 * record, the one event stored), with what it would have done and what that would have cost.
 */
export const RehearsalDetail = TurnDetail.extend({
  seq: z.int().positive(),
  status: TurnStatus,
  wouldDo: z.array(WouldDo),
  costWords: z.string(),
});
export type RehearsalDetail = z.infer<typeof RehearsalDetail>;
