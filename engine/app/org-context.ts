import type { ApprovalRequest } from '../api/approval-schemas';
import type { OrgEngine } from '../run/org-engine';
import type { RunController } from '../run/run-controller';
import type { TurnStatusReader } from '../run/turn-status';
import type { SecretStore } from '../secrets/secret-store';
import type { TrustStore } from '../trust/trust-store';

/** The secret store a use-case may change, and who must hear that it changed. */
export interface SecretsAccess {
  readonly store: SecretStore;
  /** Called after a secret was set or deleted, so the engine and every redactor see it at once. */
  changed(): Promise<void>;
}

/**
 * What every use-case on an open org works with. The app's org session and the CLI's engine both
 * provide one, so `lemming tools` and the Tool Store run the same function on the same parts.
 */
export interface OrgContext {
  readonly orgPath: string;
  readonly engine: OrgEngine;
  readonly controller: RunController;
  readonly turnStatus: TurnStatusReader;
  readonly secrets: SecretsAccess;
  /** The person's trust decisions and grants (kept outside every org). */
  readonly trust: TrustStore;
  /** Whether the agent is taking its turn in the tick in progress. */
  isRunning(agent: string): boolean;
  /** The requests of the agent's turn waiting for the person, oldest first (none between CLI commands). */
  waitingRequests(agent: string): ApprovalRequest[];
}
