import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { Position } from '../api/org-schemas';
import type { Result } from '../api/result';
import { writeJsonAtomic } from '../files/atomic-write';
import { runSerially } from '../files/serial-by-key';

/** Where the org graph's node positions are kept: the app's own folder in the org, so they travel with it. */
export const LAYOUT_FILE = '.lemming/layout.json';

const LayoutDocument = z.looseObject({ positions: z.record(z.string(), Position).default({}) });

export type Positions = Record<string, Position>;

/** The saved positions, or why the file cannot be read. */
export type LayoutRead = Result<Positions, string>;

/** The saved positions; a missing file has none, an unreadable one says why. */
export async function readPositions(orgPath: string): Promise<LayoutRead> {
  const text = await readFile(join(orgPath, LAYOUT_FILE), 'utf8').catch((error: NodeJS.ErrnoException) =>
    error.code === 'ENOENT' ? null : Promise.reject(error),
  );
  if (text === null) return { ok: true, value: {} };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, error: `${LAYOUT_FILE} is not valid JSON: ${(error as Error).message}` };
  }
  const parsed = LayoutDocument.safeParse(value);
  return parsed.success
    ? { ok: true, value: parsed.data.positions }
    : {
        ok: false,
        error: `${LAYOUT_FILE} does not hold node positions: ${parsed.error.issues[0]?.message}`,
      };
}

/** Merges `positions` into the saved ones (an unreadable file is replaced) and returns how many are saved. */
export function savePositions(orgPath: string, positions: Positions): Promise<number> {
  const file = join(orgPath, LAYOUT_FILE);
  return runSerially(file, async () => {
    const read = await readPositions(orgPath);
    const merged = { ...(read.ok ? read.value : {}), ...positions };
    await writeJsonAtomic(file, { positions: merged });
    return Object.keys(merged).length;
  });
}
