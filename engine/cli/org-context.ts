import type { OrgContext } from '../app/org-context';
import { engineRefusals } from '../app/org';
import type { IpcResult } from '../api/result';
import { OrgBusyError, OrgEngine } from '../run/org-engine';
import { RunController } from '../run/run-controller';
import { TurnStatusReader } from '../run/turn-status';
import { CliFailure, type CliIo } from './cli-io';
import type { ParsedCommandArgs } from './command';
import { cliSecretStore } from './commands/secrets';
import { formatFailure } from './format-failure';

/**
 * Opens the org's engine for one command and gives the use-cases the same context the app's session
 * gives them. Secrets come from --secrets-file (or LEMMING_SECRETS_FILE) over LEMMING_SECRET_*
 * variables; nothing runs, so no agent is ever "running".
 */
export async function withOrgContext<T>(
  orgPath: string,
  io: CliIo,
  values: ParsedCommandArgs['values'],
  work: (context: OrgContext) => Promise<T>,
): Promise<T> {
  const { store } = await cliSecretStore(io, values, [orgPath]);
  const engine = await OrgEngine.open({ orgPath, env: io.env, secrets: store, program: 'lemming' }).catch(
    (error: unknown) => Promise.reject(error instanceof OrgBusyError ? new CliFailure(error.message) : error),
  );
  try {
    return await work({
      orgPath,
      engine,
      controller: new RunController(engine),
      turnStatus: new TurnStatusReader(engine.timeline.db),
      secrets: { store, changed: async () => undefined },
      isRunning: () => false,
    });
  } finally {
    engine.close();
  }
}

/** A use-case's answer, or the command's failure (exit 1) with its message and where each problem is. */
export async function answerOf<T>(result: Promise<IpcResult<T>>): Promise<T> {
  const settled = await engineRefusals(() => result);
  if (!settled.ok) throw new CliFailure(formatFailure(settled.error));
  return settled.value;
}

export const secretsFileOption = { 'secrets-file': { type: 'string' } } as const;
