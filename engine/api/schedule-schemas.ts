import { z } from 'zod';

/**
 * Why an agent that was due at a tick did not take its turn: every due turn is recorded once, as run,
 * failed or skipped with one of these (docs/ARCHITECTURE.md, “Due turns”).
 */
export const SkipReason = z.enum([
  'switched_off',
  'out_of_credits',
  'over_budget',
  'invalid_resume',
  'waiting_for_person',
  'model_not_set_up',
  'org_not_trusted',
]);
export type SkipReason = z.infer<typeof SkipReason>;

/** Each skip reason in plain words, the one place they are worded ("skipped: switched off"). */
export const SKIP_REASON_WORDS: Record<SkipReason, string> = {
  switched_off: 'switched off',
  out_of_credits: 'out of credits',
  over_budget: 'over budget',
  invalid_resume: 'its resume cannot be used',
  waiting_for_person: 'waiting for you',
  model_not_set_up: 'its model is not set up',
  org_not_trusted: 'the org is not trusted',
};

/**
 * A skip event's reason in words. Timelines written before the reasons were one list say
 * `no_credits`, `insufficient_credits` or `resume_unreadable`; they read as the reason they became.
 */
export function skipReasonWords(reason: string): string {
  const known = SkipReason.safeParse(LEGACY_SKIP_REASONS[reason] ?? reason);
  return known.success ? SKIP_REASON_WORDS[known.data] : reason.replaceAll('_', ' ');
}

const LEGACY_SKIP_REASONS: Record<string, SkipReason> = {
  no_credits: 'out_of_credits',
  insufficient_credits: 'out_of_credits',
  resume_unreadable: 'invalid_resume',
};

/**
 * After ticks that did not run (the app was closed, the computer slept): `once` runs each agent that
 * was due in them one turn at the next tick; `next_slot` lets it wait for its next turn as usual.
 */
export const CatchUp = z.enum(['once', 'next_slot']);
export type CatchUp = z.infer<typeof CatchUp>;

export const CATCH_UP_WORDS: Record<CatchUp, string> = {
  once: 'Catch up once: an agent that missed its turn takes one turn at the next tick',
  next_slot: 'Wait: an agent that missed its turn waits for its next turn as usual',
};

/** This app's scheduling settings for an org (lemming/config/schedule.json; LeMMing ignores the file). */
export const ScheduleSettings = z.looseObject({
  catch_up: CatchUp.default('next_slot'),
});
export type ScheduleSettings = z.output<typeof ScheduleSettings>;

/** Why ticks did not run: the app (or `lemming run`) was not running them, or the computer slept during a run. */
export const MissedCause = z.enum(['app_closed', 'asleep']);
export type MissedCause = z.infer<typeof MissedCause>;

export const MISSED_CAUSE_WORDS: Record<MissedCause, string> = {
  app_closed: 'the app was closed',
  asleep: 'the computer was asleep or busy',
};

/** When an agent next takes its turn, for `lemming status` and the graph card. */
export const NextDue = z.object({
  /** The tick it runs at; null for an agent that runs by the clock, or does not run. */
  tick: z.int().nullable(),
  /** When, as an ISO time; null when unknown (no interval between ticks) or never. */
  at: z.string().nullable(),
  /** "in 3 ticks, about 2 minutes", "today at 09:00", "switched off". */
  words: z.string(),
});
export type NextDue = z.infer<typeof NextDue>;
