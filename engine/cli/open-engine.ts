import type { TurnProgress } from '../api/model-event-schemas';
import { OrgEngine } from '../run/org-engine';
import { openHeadlessSecretStore } from '../secrets/headless-secret-store';
import { CliFailure, type CliIo } from './cli-io';

/**
 * The engine for a CLI command. Secrets (API keys, connector keys) come from the secrets file named
 * by LEMMING_SECRETS_FILE and from LEMMING_SECRET_* environment variables.
 */
export interface CliEngineOptions {
  concurrency?: number;
  onProgress?: (progress: TurnProgress) => void;
}

export async function openEngine(orgPath: string, io: CliIo, options: CliEngineOptions = {}): Promise<OrgEngine> {
  const secrets = await openHeadlessSecretStore({ env: io.env, orgPaths: [orgPath] });
  if (!secrets.ok) throw new CliFailure(secrets.message);
  for (const warning of secrets.warnings) io.stderr.write(`lemming: ${warning}\n`);
  return OrgEngine.open({
    orgPath,
    env: io.env,
    secrets: secrets.store,
    ...(options.concurrency ? { concurrency: options.concurrency } : {}),
    ...(options.onProgress ? { onProgress: options.onProgress } : {}),
  });
}

export async function withEngine<T>(orgPath: string, io: CliIo, fn: (engine: OrgEngine) => Promise<T>, options: CliEngineOptions = {}): Promise<T> {
  const engine = await openEngine(orgPath, io, options);
  try {
    return await fn(engine);
  } finally {
    engine.close();
  }
}
