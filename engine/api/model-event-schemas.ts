import { z } from 'zod';

/**
 * What model calls add beside their timeline events (`model_call` and `model_refused` are in
 * timeline-events.ts): the warning codes a stop reason leaves, and the live progress stream, which is
 * never stored. The engine writes them; the app and the CLI read them.
 */

/**
 * Warnings a model call's stop reason leaves in the timeline (`kind: "warning"`, `code` one of these):
 * the answer was cut at max_tokens, the prompt filled the model's context, the provider's content
 * filter stopped it, or a paused turn was still paused after the continuations allowed.
 */
export const ModelWarningCode = z.enum([
  'model_output_truncated',
  'model_context_full',
  'model_content_filtered',
  'model_still_paused',
]);
export type ModelWarningCode = z.infer<typeof ModelWarningCode>;

/** One piece of a model's answer as it is being written. */
export const ProgressDelta = z.discriminatedUnion('type', [
  /** More of the answer's text. */
  z.object({ type: z.literal('text'), text: z.string() }),
  /** A tool call being formed: its name once known, then pieces of its JSON arguments. */
  z.object({
    type: z.literal('tool_call'),
    index: z.int().nonnegative(),
    name: z.string().optional(),
    arguments: z.string().optional(),
  }),
  /** The pieces so far are void: the call is tried again and its answer starts anew. */
  z.object({ type: z.literal('restart') }),
]);
export type ProgressDelta = z.infer<typeof ProgressDelta>;

/**
 * Live progress of a running turn, not stored in the timeline (only the final answer is, in its
 * `model_call` event). `round` restarts the text: a new model call begins.
 */
export const TurnProgress = z.object({
  kind: z.literal('turn_progress'),
  run: z.string(),
  tick: z.int(),
  agent: z.string(),
  turn: z.string(),
  round: z.int().positive(),
  deltas: z.array(ProgressDelta),
});
export type TurnProgress = z.infer<typeof TurnProgress>;
