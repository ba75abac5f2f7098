import { fail, ok, type IpcResult } from '../api/result';
import type { RehearsalSummary } from '../api/rehearsal-schemas';
import { OrgBusyError } from '../run/engine-errors';
import type { OrgContext } from './org-context';
import { rehearsalDetail } from './rehearsal-inspector';

/**
 * Rehearses one turn of `agent` (OrgEngine.rehearse): nothing it would do is done, only its rehearsal
 * record is committed. Answers what it would have done as stored, so secret values are already redacted.
 * Refused in words while another program runs the org: its record could not be kept beside that run.
 */
export async function rehearse(
  context: OrgContext,
  input: { agent: string },
): Promise<IpcResult<RehearsalSummary>> {
  let seq: number;
  try {
    ({ seq } = await context.engine.rehearse(input.agent));
  } catch (error) {
    if (error instanceof OrgBusyError)
      return fail('busy', `${error.message} ${input.agent}’s turn can be rehearsed once that run ends.`);
    throw error;
  }
  const stored = rehearsalDetail(context.engine.timeline, seq);
  if (!stored.ok) return fail('not_found', stored.error.message);
  const { agent, tick, status, wouldDo, costWords, steps } = stored.value;
  const stopped = steps.find(
    (step) => step.type === 'other' && (step.kind === 'skip' || step.kind === 'error'),
  );
  const problem = status !== 'completed' && stopped?.type === 'other' ? stopped.text : null;
  return ok({ seq, agent, asTick: tick, status, wouldDo, costWords, problem });
}
