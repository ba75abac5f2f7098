import { ScheduleSettings } from '../api/schedule-schemas';
import { boundConfigFile, type ConfigFileSpec } from './config-file';

/**
 * This app's scheduling settings for an org (what happens after ticks that did not run). Not in
 * org_config.json: LeMMing's schema for that file forbids other keys. LeMMing ignores this file.
 */
export const SCHEDULE_SETTINGS_FILE = 'lemming/config/schedule.json';

export const SCHEDULE_SETTINGS_SPEC: ConfigFileSpec<typeof ScheduleSettings> = {
  file: SCHEDULE_SETTINGS_FILE,
  schema: ScheduleSettings,
  defaultDocument: {},
};

/** The org's scheduling settings (a missing file: wait for the next slot), and edits to them in place. */
export const { read: readScheduleSettings, update: updateScheduleSettings } =
  boundConfigFile(SCHEDULE_SETTINGS_SPEC);
