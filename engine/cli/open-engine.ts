import type { TurnProgress } from '../api/model-event-schemas';
import type { ApprovalAsker } from '../tools/approval-gate';
import { OrgBusyError, OrgEngine } from '../run/org-engine';
import { openHeadlessSecretStore } from '../secrets/headless-secret-store';
import { CliFailure, type CliIo } from './cli-io';

export interface CliEngineOptions {
  concurrency?: number;
  onProgress?: (progress: TurnProgress) => void;
  /** How a program refused by this one's run lock sees it: `lemming run`. */
  program?: string;
  /** A run: take the org's run lock before anything else, and fail at once when another program has it. */
  claimRun?: boolean;
  /** Who answers "ask me first" requests during the run. */
  approvals?: ApprovalAsker;
}

/**
 * The engine for a CLI command. Secrets (API keys, connector keys) come from the secrets file named
 * by LEMMING_SECRETS_FILE and from LEMMING_SECRET_* environment variables.
 */
export async function openEngine(
  orgPath: string,
  io: CliIo,
  options: CliEngineOptions = {},
): Promise<OrgEngine> {
  const secrets = await openHeadlessSecretStore({ env: io.env, orgPaths: [orgPath] });
  if (!secrets.ok) throw new CliFailure(secrets.message);
  for (const warning of secrets.warnings) io.stderr.write(`lemming: ${warning}\n`);
  const open = OrgEngine.open({
    orgPath,
    env: io.env,
    secrets: secrets.store,
    program: options.program ?? 'lemming',
    claimRun: options.claimRun ?? false,
    ...(options.concurrency ? { concurrency: options.concurrency } : {}),
    ...(options.onProgress ? { onProgress: options.onProgress } : {}),
    ...(options.approvals ? { approvals: options.approvals } : {}),
  });
  return open.catch((error: unknown) =>
    Promise.reject(error instanceof OrgBusyError ? new CliFailure(error.message) : error),
  );
}

export async function withEngine<T>(
  orgPath: string,
  io: CliIo,
  fn: (engine: OrgEngine) => Promise<T>,
  options: CliEngineOptions = {},
): Promise<T> {
  const engine = await openEngine(orgPath, io, options);
  try {
    return await fn(engine);
  } finally {
    engine.close();
  }
}
