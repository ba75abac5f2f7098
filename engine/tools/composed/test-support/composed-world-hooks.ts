import { afterAll, afterEach, beforeAll, beforeEach, expect } from 'vitest';
import { guardConnections, type ConnectionGuard } from '../../../net/test-support/loopback-network';
import { startServiceServer, tempOrg, type ServiceServer, type TempOrg } from './composed-world';

export interface ComposedWorld {
  /** The service the tools call, on loopback; its record and tables start empty for each test. */
  server: ServiceServer;
  /** A fresh org for each test. */
  org: TempOrg;
}

/**
 * For one test file of composed tools: the service server and a guard on every connection for the whole
 * file, and a fresh org for each test. After each test, no connection has left loopback.
 */
export function composedWorld(): ComposedWorld {
  const world = {} as ComposedWorld;
  let guard: ConnectionGuard;
  beforeAll(async () => {
    world.server = await startServiceServer();
    guard = guardConnections();
  });
  afterAll(async () => {
    guard.restore();
    await world.server.close();
  });
  beforeEach(async () => {
    world.org = await tempOrg();
  });
  afterEach(async () => {
    expect(guard.violations).toEqual([]);
    world.server.received.length = 0;
    world.server.tables.clear();
    await world.org.cleanup();
  });
  return world;
}
