import { z } from 'zod';
import {
  boundConfigFile,
  patchEdits,
  unknownKeyWarnings,
  type ConfigFileSpec,
  type ConfigUpdate,
  type ConfigWriteOptions,
} from './config-file';
import type { Resume } from './resume-schema';

export const CREDITS_FILE = 'lemming/config/credits.json';

const ENTRY_KEYS = ['model', 'cost_per_action', 'credits_left', 'max_credits', 'soft_cap'] as const;

/** LeMMing's seeding defaults for an agent missing from credits.json (reference §8). */
export const DEFAULT_MAX_CREDITS = 1000;
export const DEFAULT_SOFT_CAP = 500;
export const DEFAULT_COST_PER_ACTION = 0.01;

const number = (what: string) => z.number({ error: `${what} must be a number` });

/** One agent's balance in credits.json. `model` is informational; LeMMing charges cost_per_action per turn. */
export const CreditEntrySchema = z.looseObject(
  {
    model: z.string({ error: 'model must be text' }).min(1, 'model must not be empty'),
    cost_per_action: number('cost_per_action').nonnegative('cost_per_action must not be negative'),
    credits_left: number('credits_left'),
    max_credits: number('max_credits').optional(),
    soft_cap: number('soft_cap').optional(),
  },
  { error: 'each agent in credits.json must be an object' },
);
export type CreditEntry = z.output<typeof CreditEntrySchema>;

/** lemming/config/credits.json: `{ "<agent>": {model, cost_per_action, credits_left, max_credits?, soft_cap?} }`. */
export const CreditsFileSchema = z.record(z.string(), CreditEntrySchema, {
  error: 'credits.json must be an object of agent name: balance',
});
export type CreditsFile = z.output<typeof CreditsFileSchema>;

export const CREDITS_SPEC: ConfigFileSpec<typeof CreditsFileSchema> = {
  file: CREDITS_FILE,
  schema: CreditsFileSchema,
  defaultDocument: {},
  warnings: (raw, file, located) =>
    Object.entries(raw as Record<string, unknown>).flatMap(([agent, entry]) =>
      unknownKeyWarnings(entry, ENTRY_KEYS, file, located, [agent]),
    ),
};

/** LeMMing's entry for an agent that has none: its model, its resume's credits or 1000/500, full balance. */
export function defaultCreditEntry(resume: Pick<Resume, 'model' | 'credits'>): CreditEntry {
  const maxCredits = resume.credits?.max_credits ?? DEFAULT_MAX_CREDITS;
  return {
    model: resume.model.key,
    cost_per_action: DEFAULT_COST_PER_ACTION,
    credits_left: maxCredits,
    max_credits: maxCredits,
    soft_cap: resume.credits?.soft_cap ?? DEFAULT_SOFT_CAP,
  };
}

const creditsFile = boundConfigFile(CREDITS_SPEC);

/** Every agent's balance; a missing file reads as no entries. */
export const readCredits = creditsFile.read;

/**
 * Sets the given fields of the given agents' entries, keeping every other key and byte. An agent
 * without an entry gets one with the given fields appended at the end of the file (they must make
 * a complete entry, or nothing is written).
 */
export function updateCredits(
  orgPath: string,
  patch: Record<string, Partial<CreditEntry>>,
  options: ConfigWriteOptions = {},
): Promise<ConfigUpdate<CreditsFile>> {
  const edits = Object.entries(patch).flatMap(([agent, fields]) => patchEdits(fields, [agent]));
  return creditsFile.update(orgPath, edits, options);
}
