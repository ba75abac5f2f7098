import { fail, ok, type IpcResult } from '../api/result';
import type { RunState, TickReport } from '../api/run-schemas';
import { ORG_CONFIG_FILE, readOrgConfig } from '../org/org-config-file';
import type { RunCommandResult } from '../run/run-controller';
import type { OrgContext } from './org-context';
import { invalidConfigFile } from './problems';

/**
 * Starts a run with the org's settings: base_turn_seconds between ticks and max_turns as the last tick.
 * An org not trusted as it is now is refused (OrgNotTrustedError, `not_trusted`) before anything starts.
 */
export async function startRun(
  context: OrgContext,
  input: { ticks?: number | undefined; intervalMs?: number | undefined },
): Promise<IpcResult<RunState>> {
  const config = await readOrgConfig(context.orgPath);
  if (!config.ok) return invalidConfigFile(ORG_CONFIG_FILE, config.error);
  await context.engine.requireTrust();
  return asResult(
    context.controller.start({
      tickLimit: input.ticks ?? null,
      lastTick: config.value.max_turns,
      intervalMs: input.intervalMs ?? Math.round(config.value.base_turn_seconds * 1000),
    }),
  );
}

/**
 * Starts a run as `startRun` does and waits for it to end (`lemming run`); a tick that failed is the
 * answer's failure. The run's ticks are reported to the controller's `onTick` as they finish.
 */
export async function runToEnd(
  context: OrgContext,
  input: { ticks?: number | undefined; intervalMs?: number | undefined },
): Promise<IpcResult<RunState>> {
  const started = await startRun(context, input);
  if (!started.ok) return started;
  await context.controller.whenIdle();
  const state = context.controller.state();
  return state.ended?.reason === 'error' ? tickFailed(state.ended.message) : ok(state);
}

/** Runs exactly one tick while no run is going or while it is paused (the app's Step, `lemming tick`). */
export async function stepRun(
  context: OrgContext,
): Promise<IpcResult<{ report: TickReport; state: RunState }>> {
  await context.engine.requireTrust();
  return asResult(await context.controller.step());
}

/** A controller's refusal: the run is in the wrong phase for the command, or the tick it ran failed. */
export function asResult<T>(result: RunCommandResult<T>): IpcResult<T> {
  if (result.ok) return ok(result.value);
  return result.error.tickFailed ? tickFailed(result.error.reason) : fail('busy', result.error.reason);
}

const tickFailed = (reason: string) => fail('org_unusable', `The tick failed: ${reason}`);
