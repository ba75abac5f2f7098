import { z } from 'zod';
import {
  boundConfigFile,
  patchEdits,
  unknownKeyWarnings,
  type ConfigFileSpec,
  type ConfigUpdate,
} from './config-file';

export const ORG_CONFIG_FILE = 'lemming/config/org_config.json';

/** LeMMing's default org_config.json, in its key order. */
export const DEFAULT_ORG_CONFIG = {
  base_turn_seconds: 10,
  summary_every_n_turns: 12,
  max_turns: null,
  max_outbox_age_ticks: 100,
} as const;

const KNOWN_KEYS = Object.keys(DEFAULT_ORG_CONFIG);

const wholeAtLeastOne = (what: string) =>
  z
    .number({ error: `${what} must be a whole number` })
    .int(`${what} must be a whole number`)
    .min(1, `${what} must be at least 1`);

/**
 * lemming/config/org_config.json. LeMMing's schema forbids other keys; they are kept here and
 * reported as warnings. A missing key takes LeMMing's default.
 */
export const OrgConfigSchema = z.looseObject({
  /** Seconds between ticks when running continuously. */
  base_turn_seconds: z
    .number({ error: 'base_turn_seconds must be a number' })
    .positive('base_turn_seconds must be greater than 0')
    .default(DEFAULT_ORG_CONFIG.base_turn_seconds),
  /** The run stops after the tick whose number reaches this; null runs without end. */
  max_turns: wholeAtLeastOne('max_turns').nullable().default(DEFAULT_ORG_CONFIG.max_turns),
  /** Read by nothing in LeMMing; kept for compatibility. */
  summary_every_n_turns: wholeAtLeastOne('summary_every_n_turns').default(
    DEFAULT_ORG_CONFIG.summary_every_n_turns,
  ),
  /** Outbox entries older than this many ticks are removed. */
  max_outbox_age_ticks: wholeAtLeastOne('max_outbox_age_ticks').default(
    DEFAULT_ORG_CONFIG.max_outbox_age_ticks,
  ),
});
export type OrgConfig = z.output<typeof OrgConfigSchema>;

export interface OrgConfigPatch {
  base_turn_seconds?: number;
  max_turns?: number | null;
  summary_every_n_turns?: number;
  max_outbox_age_ticks?: number;
}

export const ORG_CONFIG_SPEC: ConfigFileSpec<typeof OrgConfigSchema> = {
  file: ORG_CONFIG_FILE,
  schema: OrgConfigSchema,
  defaultDocument: DEFAULT_ORG_CONFIG,
  warnings: (raw, file, located) => {
    const record = typeof raw === 'object' && raw !== null ? raw : {};
    const missingRequired = Object.hasOwn(record, 'base_turn_seconds')
      ? []
      : [
          {
            file,
            field: 'base_turn_seconds',
            message: `base_turn_seconds is missing, so ${DEFAULT_ORG_CONFIG.base_turn_seconds} is used; LeMMing's validate requires it`,
          },
        ];
    return [...missingRequired, ...unknownKeyWarnings(raw, KNOWN_KEYS, file, located)];
  },
};

const orgConfigFile = boundConfigFile(ORG_CONFIG_SPEC);

/** The org's settings; a missing file gives LeMMing's defaults. */
export const readOrgConfig = orgConfigFile.read;

/** Changes the given settings, keeping every other key and byte of the file. */
export function updateOrgConfig(orgPath: string, patch: OrgConfigPatch): Promise<ConfigUpdate<OrgConfig>> {
  return orgConfigFile.update(orgPath, patchEdits({ ...patch }));
}
