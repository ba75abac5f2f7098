import type { OrgEngine } from '../../run/org-engine';
import { RunController } from '../../run/run-controller';
import { TurnStatusReader } from '../../run/turn-status';
import { envSecretStore } from '../../secrets/env-secret-store';
import type { TrustStore } from '../../trust/trust-store';
import type { OrgContext } from '../org-context';

/** The context the app's session gives the use-cases, on an engine a test opened (no secrets, no run going). */
export function orgContextOf(engine: OrgEngine, trust: TrustStore): OrgContext {
  return {
    orgPath: engine.orgPath,
    engine,
    trust,
    controller: new RunController(engine),
    turnStatus: new TurnStatusReader(engine.timeline.db),
    secrets: { store: envSecretStore({}), changed: async () => undefined },
    isRunning: () => false,
    waitingRequests: () => [],
  };
}
