import type { Problem } from '../api/problem';
import type { Result } from '../api/result';
import { z } from 'zod';
import { join } from 'node:path';
import { interruptedReplacementOf } from '../files/atomic-write';
import {
  checkConfigText,
  readConfigFile,
  updateConfigFile,
  type ConfigFileSpec,
  type ConfigUpdate,
  type ConfigWriteOptions,
} from './config-file';
import { readTextFile } from '../files/read-text-file';

export const TICK_FILE = 'lemming/config/tick.json';

/** LeMMing numbers ticks from 1. */
export const FIRST_TICK = 1;

/** lemming/config/tick.json: `{"current_tick": N}`, where N is the NEXT tick to run. */
export const TickFileSchema = z.looseObject({
  current_tick: z
    .number({ error: 'current_tick must be a whole number' })
    .int('current_tick must be a whole number')
    .nonnegative('current_tick must not be negative')
    .default(FIRST_TICK),
});
export type TickFile = z.output<typeof TickFileSchema>;

export const TICK_SPEC: ConfigFileSpec<typeof TickFileSchema> = {
  file: TICK_FILE,
  schema: TickFileSchema,
  defaultDocument: { current_tick: FIRST_TICK },
};

export type NextTickRead = Result<{ nextTick: number; exists: boolean }, Problem[]>;

/**
 * The next tick to run; 1 when tick.json is missing. A tick.json that a killed writer left moved aside
 * (see restoreInterruptedReplacement) is read where it is, so a reader that may not write still sees it.
 */
export async function readNextTick(orgPath: string): Promise<NextTickRead> {
  const read = await readConfigFile(orgPath, TICK_SPEC);
  if (!read.ok) return { ok: false, error: read.error };
  if (!read.exists) {
    const aside = await readTextFile(interruptedReplacementOf(join(orgPath, TICK_FILE)));
    const checked = aside.found ? checkConfigText(aside.text, TICK_SPEC) : null;
    if (checked?.ok) return { ok: true, value: { nextTick: checked.value.current_tick, exists: true } };
  }
  return { ok: true, value: { nextTick: read.value.current_tick, exists: read.exists } };
}

/** Records the next tick to run, keeping any other key in the file. */
export function writeNextTick(
  orgPath: string,
  nextTick: number,
  options: ConfigWriteOptions = {},
): Promise<ConfigUpdate<TickFile>> {
  return updateConfigFile(orgPath, TICK_SPEC, [{ path: ['current_tick'], value: nextTick }], options);
}
