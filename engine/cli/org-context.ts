import type { TurnProgress } from '../api/model-event-schemas';
import type { TickReport } from '../api/run-schemas';
import type { OrgContext } from '../app/org-context';
import { engineRefusals } from '../app/org';
import { OrgBusyError, TimelineUnusableError } from '../run/engine-errors';
import { openTimelineToRead, type OrgReader } from '../app/org-reader';
import type { IpcResult } from '../api/result';
import type { ApprovalAsker } from '../tools/approval-gate';
import { CliFailure, type CliIo, type CommandIo } from './cli-io';
import type { ParsedCommandArgs } from './command';
import { formatFailure } from './format-failure';
import { TrustStore } from '../trust/trust-store';
import { cliTrustFile } from '../trust/trust-file-location';
import { closeOnLastResort } from './last-resort';

/** The person's trust record for this command (LEMMING_CONFIG_DIR, else the OS's config folder). */
export const cliTrustStore = (io: CliIo): TrustStore => new TrustStore(cliTrustFile(io.env));

export interface CliEngineOptions {
  concurrency?: number;
  onProgress?: (progress: TurnProgress) => void;
  /** Each tick's report as the run finishes it. */
  onTick?: (report: TickReport) => void;
  /** How a program refused by this one's run lock sees it: `lemming run`. */
  program?: string;
  /** A run: take the org's run lock before anything else, and fail at once when another program has it. */
  claimRun?: boolean;
  /** Who answers "ask me first" requests during the run. */
  approvals?: ApprovalAsker;
}

/**
 * Opens the org's engine for one command and gives the use-cases the same context the app's session
 * gives them. Secrets come from --secrets-file (or LEMMING_SECRETS_FILE) over LEMMING_SECRET_*
 * variables. Only a run (`claimRun`) takes the run lock; no agent is ever "running" between commands.
 */
export async function withOrgContext<T>(
  orgPath: string,
  io: CommandIo,
  values: ParsedCommandArgs['values'],
  work: (context: OrgContext) => Promise<T>,
  options: CliEngineOptions = {},
): Promise<T> {
  // The engine and the secret stores are loaded here, not with this module: the commands that only look
  // (status, inbox, timeline…) share this module and never load the engine, its tools and their packages.
  const [{ OrgEngine }, { RunController }, { TurnStatusReader }, { cliSecretsAccess, cliSecretStore }] =
    await Promise.all([
      import('../run/org-engine'),
      import('../run/run-controller'),
      import('../run/turn-status'),
      import('./commands/secrets'),
    ]);
  const { store } = await cliSecretStore(io, values, [orgPath]);
  const trust = cliTrustStore(io);
  const engine = await OrgEngine.open({
    orgPath,
    trust,
    env: io.env,
    secrets: store,
    program: options.program ?? 'lemming',
    claimRun: options.claimRun ?? false,
    ...(options.concurrency ? { concurrency: options.concurrency } : {}),
    ...(options.onProgress ? { onProgress: options.onProgress } : {}),
    ...(options.approvals ? { approvals: options.approvals } : {}),
  }).catch((error: unknown) =>
    Promise.reject(
      error instanceof OrgBusyError
        ? new CliFailure(error.message)
        : error instanceof TimelineUnusableError
          ? new CliFailure(`${error.message}\n${error.fix}`)
          : error,
    ),
  );
  const forget = closeOnLastResort(engine);
  try {
    return await work({
      orgPath,
      engine,
      trust,
      controller: new RunController(engine, options.onTick ? { onTick: options.onTick } : {}),
      turnStatus: new TurnStatusReader(engine.timeline.db),
      secrets: cliSecretsAccess(store, io),
      isRunning: () => false,
      waitingRequests: (agent) => engine.parked.requests().filter((request) => request.agent === agent),
    });
  } finally {
    engine.close();
    forget();
  }
}

/**
 * The org with its timeline opened read-only, for the commands that only look (status, inbox,
 * timeline, export): they never take the run lock and never write to the org. A timeline that cannot
 * be read without recovery is noted on stderr and read as none.
 */
export async function withOrgReader<T>(
  orgPath: string,
  io: CliIo,
  work: (reader: OrgReader) => Promise<T>,
): Promise<T> {
  const { timeline, note } = await openTimelineToRead(orgPath);
  if (note) io.stderr.write(`note: ${note}\n`);
  try {
    return await work({ orgPath, timeline });
  } finally {
    timeline?.close();
  }
}

/** A use-case's answer, or the command's failure (exit 1) with its message and where each problem is. */
export async function answerOf<T>(result: Promise<IpcResult<T>>): Promise<T> {
  const settled = await engineRefusals(() => result);
  if (!settled.ok) throw new CliFailure(formatFailure(settled.error));
  return settled.value;
}

export const secretsFileOption = { 'secrets-file': { type: 'string' } } as const;
