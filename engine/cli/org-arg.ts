import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { CliFailure, UsageError } from './cli-io';

/** The org folder a command works on: it must exist and be a folder. */
export async function orgFolder(argument: string | undefined): Promise<string> {
  if (!argument) throw new UsageError('Give the org folder as the first argument.');
  const path = resolve(argument);
  const info = await stat(path).catch(() => null);
  if (!info) throw new CliFailure(`No folder at ${path}.`);
  if (!info.isDirectory()) throw new CliFailure(`${path} is a file, not an org folder.`);
  return path;
}

export function positiveInteger(value: string | undefined, flag: string, fallback: number): number {
  if (value === undefined) return fallback;
  const number = Number(value);
  if (!Number.isInteger(number) || number < 1)
    throw new UsageError(`${flag} must be a whole number of at least 1, not "${value}".`);
  return number;
}

export function integer(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  const number = Number(value);
  if (!Number.isInteger(number)) throw new UsageError(`${flag} must be a whole number, not "${value}".`);
  return number;
}
