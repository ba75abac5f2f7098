import { formatProblem } from '../api/problem';
import type { RunLockHolder } from '../api/run-schemas';
import type { AgentProblem } from '../api/schemas';
import type { OrgTrust } from '../api/trust-schemas';
import { notTrustedMessage } from '../trust/trust-words';

/** Another program holds the org's run lock. */
export class OrgBusyError extends Error {
  override name = 'OrgBusyError';
  constructor(
    message: string,
    readonly holder: RunLockHolder | null,
  ) {
    super(message);
  }
}

export class UnknownAgentError extends Error {
  override name = 'UnknownAgentError';
}

/** A config file the engine needs is invalid; its problems say where. */
export class EngineInputError extends Error {
  constructor(readonly problems: AgentProblem[]) {
    super(problems.map(formatProblem).join('\n'));
    this.name = 'EngineInputError';
  }
}

/**
 * The org would start a program, contact an address or use a secret, and its person has not trusted it
 * as it is now (docs/ARCHITECTURE.md, “Trust”): nothing was started or sent. The message lists what would be.
 */
export class OrgNotTrustedError extends Error {
  override name = 'OrgNotTrustedError';
  constructor(readonly trust: OrgTrust) {
    super(notTrustedMessage(trust));
  }
}

/** The org's timeline is damaged, newer, behind tick.json or missing: nothing ran and nothing was changed. */
export class TimelineUnusableError extends Error {
  override name = 'TimelineUnusableError';
  constructor(
    readonly fix: string,
    message: string,
  ) {
    super(message);
  }
}
