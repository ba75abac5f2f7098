import { readdirSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeJsonAtomic } from '../../engine/files/atomic-write';

const SEEN_FILE = 'crash-reports-seen.json';

/**
 * Crash reports the OS crash reporter wrote (`crashReporter` with uploads off) that the person has not
 * been told of: each is told once, on the next start.
 */
export async function crashReportsNotYetShown(crashDumps: string, userData: string): Promise<string[]> {
  const seenFile = join(userData, SEEN_FILE);
  let seenUntil = 0;
  try {
    seenUntil =
      Number((JSON.parse(await readFile(seenFile, 'utf8')) as { seenUntil?: unknown }).seenUntil) || 0;
  } catch {
    // Never told of any.
  }
  const reports = dumpsUnder(crashDumps);
  const fresh = reports.filter((report) => report.modifiedMs > seenUntil);
  if (fresh.length > 0)
    await writeJsonAtomic(seenFile, { seenUntil: Math.max(...reports.map((report) => report.modifiedMs)) });
  return fresh.map((report) => report.path);
}

function dumpsUnder(folder: string): { path: string; modifiedMs: number }[] {
  let entries;
  try {
    entries = readdirSync(folder, { recursive: true, withFileTypes: true });
  } catch {
    return [];
  }
  return entries
    .filter((entry) => entry.isFile() && entry.name.endsWith('.dmp'))
    .map((entry) => {
      const path = join(entry.parentPath, entry.name);
      return { path, modifiedMs: statSync(path).mtimeMs };
    });
}
