import { afterEach } from 'vitest';
import type { LoopbackServer } from '../../models/test-support/loopback-server';
import { OrgEngine } from '../org-engine';
import { tempOrgs } from './temp-org';
import { trustAsIs } from '../../trust/test-support/trust-as-is';

type EngineOptions = Parameters<typeof OrgEngine.open>[0];

/**
 * For one test file: temporary orgs, the engines opened on them and the loopback servers they talk to.
 * After each test its engines are closed, its servers stopped and its folders removed.
 */
export function engineWorld() {
  const orgs = tempOrgs();
  const servers: LoopbackServer[] = [];
  const engines: OrgEngine[] = [];
  afterEach(async () => {
    for (const engine of engines.splice(0)) engine.close();
    for (const server of servers.splice(0)) await server.close();
    orgs.cleanup();
  });
  return {
    orgs,
    /** An engine on `orgPath`, with no environment unless `options` gives one; closed after the test. */
    async open(orgPath: string, options: Partial<EngineOptions> = {}): Promise<OrgEngine> {
      const engine = await OrgEngine.open({
        trust: await trustAsIs(orgPath),
        orgPath,
        env: {},
        ...options,
      });
      engines.push(engine);
      return engine;
    },
    /** Closes `engine` now, before the test ends. */
    close(engine: OrgEngine): void {
      engines.splice(engines.indexOf(engine), 1);
      engine.close();
    },
    /** Keeps `server` running until the test ends. */
    serve<T extends LoopbackServer>(server: T): T {
      servers.push(server);
      return server;
    },
  };
}
