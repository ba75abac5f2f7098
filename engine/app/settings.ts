import type { z } from 'zod';
import { fail, ok, type IpcResult } from '../api/result';
import type { Settings, SettingsUpdateInput } from '../api/settings-schemas';
import { ORG_CONFIG_FILE, readOrgConfig, updateOrgConfig } from '../org/org-config-file';
import {
  readScheduleSettings,
  SCHEDULE_SETTINGS_FILE,
  updateScheduleSettings,
} from '../org/schedule-settings-file';
import type { SecretStore } from '../secrets/secret-store';
import { invalidConfigFile, issuesFromProblems } from './problems';
import { PROVIDERS } from './providers';
import { secretStoreStatus } from './secrets';

/**
 * The run settings live in org_config.json (LeMMing reads them too), but for what follows missed ticks,
 * which is this app's (lemming/config/schedule.json); the rest is the app's.
 */
export async function readSettings(
  orgPath: string,
  secrets: SecretStore,
): Promise<IpcResult<z.output<typeof Settings>>> {
  const config = await readOrgConfig(orgPath);
  if (!config.ok) return invalidConfigFile(ORG_CONFIG_FILE, config.error);
  const schedule = await readScheduleSettings(orgPath);
  if (!schedule.ok) return invalidConfigFile(SCHEDULE_SETTINGS_FILE, schedule.error);
  return ok({
    run: {
      tickIntervalSeconds: config.value.base_turn_seconds,
      maxTurns: config.value.max_turns,
      catchUp: schedule.value.catch_up,
    },
    secretStore: await secretStoreStatus(secrets),
    providers: [...PROVIDERS],
  });
}

export async function updateSettings(
  orgPath: string,
  secrets: SecretStore,
  input: z.output<typeof SettingsUpdateInput>,
): Promise<IpcResult<z.output<typeof Settings>>> {
  const updated = await updateOrgConfig(orgPath, {
    ...(input.tickIntervalSeconds !== undefined ? { base_turn_seconds: input.tickIntervalSeconds } : {}),
    ...(input.maxTurns !== undefined ? { max_turns: input.maxTurns } : {}),
  });
  if (!updated.ok)
    return fail('invalid_change', 'The settings were not saved.', issuesFromProblems(updated.error));
  if (input.catchUp !== undefined) {
    const schedule = await updateScheduleSettings(orgPath, [{ path: ['catch_up'], value: input.catchUp }]);
    if (!schedule.ok)
      return fail('invalid_change', 'The settings were not saved.', issuesFromProblems(schedule.error));
  }
  return readSettings(orgPath, secrets);
}
