import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import {
  guardConnections,
  startLoopbackNetwork,
  type ConnectionGuard,
  type LoopbackNetwork,
} from './loopback-network';

export interface GuardedLoopbackNetwork {
  network: LoopbackNetwork;
  guard: ConnectionGuard;
}

/**
 * For one test file: the loopback network and a guard on every connection, started before the first
 * test and stopped after the last. After each test, no connection has left loopback, and the servers'
 * records and the guard's attempts start afresh.
 */
export function guardedLoopbackNetwork(): GuardedLoopbackNetwork {
  const loopback = {} as GuardedLoopbackNetwork;
  beforeAll(async () => {
    loopback.network = await startLoopbackNetwork();
    loopback.guard = guardConnections();
  });
  afterAll(async () => {
    loopback.guard.restore();
    await loopback.network.close();
  });
  afterEach(() => {
    expect(loopback.guard.violations).toEqual([]);
    loopback.network.reset();
    loopback.guard.attempts.length = 0;
  });
  return loopback;
}
