import { z } from 'zod';
import { SecretName } from '../../api/secret-name';
import type { JsonEdit } from '../../files/json-edit';
import {
  readConfigFile,
  updateConfigFile,
  type ConfigFileSpec,
  type ConfigRead,
} from '../../org/config-file';

/**
 * Composed tools' settings that are not secrets (the base URL a tool's `{{env.BASE_URL}}` stands
 * for), by name, as the Tool Store saves them. Secrets never go here: they live in the secret store.
 */
export const TOOL_SETTINGS_FILE = 'lemming/config/tool-settings.json';

export const ToolSettingsSchema = z.looseObject({
  settings: z
    .record(
      SecretName,
      z.string({ error: 'a setting is text' }).max(2000, 'a setting has at most 2000 characters'),
    )
    .default({}),
});
export type ToolSettings = z.output<typeof ToolSettingsSchema>;

export const TOOL_SETTINGS_SPEC: ConfigFileSpec<typeof ToolSettingsSchema> = {
  file: TOOL_SETTINGS_FILE,
  schema: ToolSettingsSchema,
  defaultDocument: { settings: {} },
};

/** The org's tool settings; a missing file is none. */
export function readToolSettings(orgPath: string): Promise<ConfigRead<ToolSettings>> {
  return readConfigFile(orgPath, TOOL_SETTINGS_SPEC);
}

export function updateToolSettings(orgPath: string, edits: readonly JsonEdit[]) {
  return updateConfigFile(orgPath, TOOL_SETTINGS_SPEC, edits);
}

/** The settings by name, or none when the file cannot be read (its problems are shown with the connectors). */
export async function toolSettingValues(orgPath: string): Promise<Readonly<Record<string, string>>> {
  const read = await readToolSettings(orgPath);
  return read.ok ? read.value.settings : {};
}
