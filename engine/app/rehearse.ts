import { fail, ok, type IpcResult } from '../api/result';
import type { RehearsalSummary } from '../api/rehearsal-schemas';
import type { OrgContext } from './org-context';
import { rehearsalDetail } from './rehearsal-inspector';

/**
 * Rehearses one turn of `agent` (OrgEngine.rehearse): nothing it would do is done, only its rehearsal
 * record is committed. Answers what it would have done as stored, so secret values are already redacted.
 */
export async function rehearse(
  context: OrgContext,
  input: { agent: string },
): Promise<IpcResult<RehearsalSummary>> {
  const { seq } = await context.engine.rehearse(input.agent);
  const stored = rehearsalDetail(context.engine.timeline, seq);
  if (!stored.ok) return fail('not_found', stored.error.message);
  const { agent, tick, status, wouldDo, costWords } = stored.value;
  return ok({ seq, agent, asTick: tick, status, wouldDo, costWords });
}
