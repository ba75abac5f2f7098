import { formatProblem } from '../api/problem';
import type { RunLockHolder } from '../api/run-schemas';
import type { AgentProblem } from '../api/schemas';

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
