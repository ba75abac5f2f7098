import { OrgEngine } from '../run/org-engine';
import type { CliIo } from './cli-io';

/** The engine for a CLI command: API keys come from the environment (`lemming` has no secret store of its own yet). */
export async function openEngine(orgPath: string, io: CliIo, options: { concurrency?: number } = {}): Promise<OrgEngine> {
  return OrgEngine.open({
    orgPath,
    env: io.env,
    resolveSecret: (name) => io.env[name],
    ...(options.concurrency ? { concurrency: options.concurrency } : {}),
  });
}

export async function withEngine<T>(orgPath: string, io: CliIo, fn: (engine: OrgEngine) => Promise<T>, options: { concurrency?: number } = {}): Promise<T> {
  const engine = await openEngine(orgPath, io, options);
  try {
    return await fn(engine);
  } finally {
    engine.close();
  }
}
