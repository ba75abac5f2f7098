import { afterEach, expect } from 'vitest';
import { refusesNothing } from '../../api/grant-refusal';
import type { ProviderDeps } from '../create-provider';
import { ModelCallError } from '../model-call-error';
import type { ModelEntry, ProviderConfig } from '../models-file';
import { startLoopbackServer, type LoopbackHandler, type LoopbackServer } from './loopback-server';

/** Starts loopback servers for a test file and closes them after each test. */
export function useLoopbackServers(): (handler: LoopbackHandler) => Promise<LoopbackServer> {
  const servers: LoopbackServer[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => server.close()));
  });
  return async (handler) => {
    const server = await startLoopbackServer(handler);
    servers.push(server);
    return server;
  };
}

export function modelEntry(
  provider: string,
  provider_config: ProviderConfig,
  key = 'test-model',
): ModelEntry {
  return { key, provider, model_name: 'test-model-name', provider_config };
}

/** Deps with no secrets, no environment and no grant refused, whose backoff records each wait instead of sleeping. */
export function testDeps(sleeps: number[] = [], overrides: Partial<ProviderDeps> = {}): ProviderDeps {
  return {
    orgPath: '/org',
    resolveSecret: () => undefined,
    env: {},
    refusal: refusesNothing,
    programEnv: {},
    retryTiming: { random: () => 0, sleep: async (ms) => void sleeps.push(ms) },
    ...overrides,
  };
}

/** The ModelCallError a call rejects with; fails the test if it resolves or rejects with anything else. */
export async function callError(promise: Promise<unknown>): Promise<ModelCallError> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ModelCallError);
  return error as ModelCallError;
}
