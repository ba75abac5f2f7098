import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { z } from 'zod';
import { fail, ok, type IpcResult } from '../api/result';
import type { ConnectionTest } from '../api/settings-schemas';
import { createProvider } from '../models/create-provider';
import { findModelEntry, readModelsFile } from '../models/models-file';
import type { OrgEngine } from '../run/org-engine';
import { askForOk, type SetupDeps } from './model-setup';

/**
 * Sends the model one tiny request and reports in words whether it answered, how fast, and what it
 * said; a failure's message is the provider's own, which says what to fix (a key the org may not use
 * is refused before anything is sent). The answer passes through the host's redactor like every other.
 * Nothing is started or sent unless the org is trusted as it is now (the engine's gate refuses with
 * `not_trusted`).
 */
export async function testConnection(
  key: string,
  deps: SetupDeps & { engine: Pick<OrgEngine, 'requireTrust'> },
): Promise<IpcResult<z.output<typeof ConnectionTest>>> {
  const models = await readModelsFile(deps.orgPath);
  const entry = findModelEntry(models, key);
  if (!entry) {
    const problem = models.problems.find((candidate) => candidate.field.split('.')[0] === key);
    return problem
      ? ok({ ok: false, message: `The model "${key}" is not usable: ${problem.message}`, latencyMs: null })
      : fail('not_found', `There is no model "${key}" in lemming/config/models.json.`);
  }
  if (entry.provider === 'scripted') {
    const script = entry.provider_config.script;
    const found = script ? await stat(resolve(deps.orgPath, script)).catch(() => null) : null;
    return ok(
      found
        ? {
            ok: true,
            message: `Scripted model: its answers come from ${script}, nothing to connect to.`,
            latencyMs: null,
          }
        : {
            ok: false,
            message: `Scripted model: its script ${script ?? '(provider_config.script)'} is missing.`,
            latencyMs: null,
          },
    );
  }
  await deps.engine.requireTrust();
  try {
    const { message, latencyMs } = await askForOk(createProvider(entry, deps), entry.model_name);
    return ok({ ok: true, message, latencyMs });
  } catch (error) {
    return ok({
      ok: false,
      message: error instanceof Error ? error.message : String(error),
      latencyMs: null,
    });
  }
}
