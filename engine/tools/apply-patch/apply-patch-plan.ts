import type { Result } from '../../api/result';
import { randomBytes } from 'node:crypto';
import { basename, dirname, join } from 'node:path';
import type { PatchFilesystem } from './patch-filesystem';
import type { PatchPlan, PlannedChange } from './plan-patch';

export type ApplyOutcome =
  /** The value: backup files that could not be removed after success (the patch itself is applied). */
  Result<string[], string>;

/** Undoes one committed file; a failure names what could not be restored and keeps its backup. */
interface UndoStep {
  backup: string | null;
  run: () => Promise<void>;
}

class StepFailure extends Error {}

/**
 * Carries out a plan so that every file changes or none does. First every file that planning read is
 * checked to still hold what was read. Then each new content is written to a temp file beside its
 * target (parent folders created as needed). Only then are files swapped in: a file about to be
 * replaced is first copied to a backup, a file to delete is renamed to a backup, and each temp file is
 * renamed over its target. If any step fails, the steps already taken are undone in reverse and the
 * temp files and new folders are removed. Backups are removed once everything is in place.
 */
export async function applyPatchPlan(plan: PatchPlan, fs: PatchFilesystem): Promise<ApplyOutcome> {
  const stale = await firstChangedSincePlanning(plan.changes, fs);
  if (stale !== null) {
    return { ok: false, error: `${stale} changed after the patch was checked; no file was changed` };
  }

  const work = plan.changes.map((change) => ({
    change,
    temp: change.kind === 'write' ? sibling(change.file.path, 'tmp') : null,
  }));
  const createdFolders: string[] = [];
  const uncommittedTemps = new Set<string>();
  const backups: string[] = [];
  const undo: UndoStep[] = [];

  try {
    for (const { change, temp } of work) {
      if (change.kind !== 'write' || temp === null) continue;
      await step(`Failed to create parent directories for ${change.file.shown}`, () =>
        createParents(change.file.path, fs, createdFolders),
      );
      await step(`Failed to write file ${change.file.shown}`, () =>
        fs.writeNewFile(temp, change.text, change.file.path),
      );
      uncommittedTemps.add(temp);
    }
    for (const { change, temp } of work) {
      const { path, shown } = change.file;
      const present = await step(`Failed to inspect ${shown}`, () => fs.exists(path));
      const backup = present ? sibling(path, 'bak') : null;
      if (backup !== null) {
        const preserve = () =>
          change.kind === 'delete' ? fs.rename(path, backup) : fs.copyFile(path, backup);
        await step(`Failed to ${change.kind === 'delete' ? 'delete' : 'back up'} file ${shown}`, preserve);
        backups.push(backup);
      }
      if (temp !== null) {
        await step(`Failed to write file ${shown}`, () => fs.rename(temp, path));
        uncommittedTemps.delete(temp);
      }
      if (backup !== null) undo.push({ backup, run: () => restore(fs, backup, path, shown) });
      else if (temp !== null) undo.push({ backup: null, run: () => removeCreated(fs, path, shown) });
    }
  } catch (error) {
    const unrestored: string[] = [];
    const keptBackups = new Set<string>();
    for (const { backup, run } of undo.toReversed()) {
      await run().catch((failure: unknown) => {
        unrestored.push(messageOf(failure));
        if (backup !== null) keptBackups.add(backup);
      });
    }
    const discard = [...uncommittedTemps, ...backups.filter((backup) => !keptBackups.has(backup))];
    for (const file of discard) await fs.removeFile(file).catch(() => undefined);
    for (const folder of createdFolders.toReversed()) await fs.removeDirectory(folder).catch(() => undefined);
    const cause = messageOf(error);
    return {
      ok: false,
      error:
        unrestored.length === 0
          ? `${cause}; no file was changed`
          : `${cause}; rolling back failed too: ${unrestored.join('; ')}`,
    };
  }

  const leftovers: string[] = [];
  for (const backup of backups) await fs.removeFile(backup).catch(() => leftovers.push(backup));
  return { ok: true, value: leftovers };
}

async function firstChangedSincePlanning(changes: readonly PlannedChange[], fs: PatchFilesystem) {
  for (const change of changes) {
    if (change.expected.kind !== 'text') continue;
    const now = await fs.readText(change.file.path);
    if (now.kind !== 'text' || now.text !== change.expected.text) return change.file.shown;
  }
  return null;
}

/** Creates the missing folders above `path`, outermost first, recording each for rollback. */
async function createParents(path: string, fs: PatchFilesystem, created: string[]): Promise<void> {
  const missing: string[] = [];
  for (let folder = dirname(path); !(await fs.exists(folder)); folder = dirname(folder)) {
    if (dirname(folder) === folder) break;
    missing.push(folder);
  }
  for (const folder of missing.toReversed()) {
    await fs.createDirectory(folder);
    created.push(folder);
  }
}

/** A hidden name in the target's folder, so the final rename stays on one file system. */
function sibling(path: string, purpose: 'tmp' | 'bak'): string {
  // The base name is shortened so that the longer name still fits the 255-byte limit of a name.
  const base = basename(path).slice(0, 48);
  return join(dirname(path), `.${base}.${process.pid}.${randomBytes(6).toString('hex')}.patch-${purpose}`);
}

async function step<T>(what: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw new StepFailure(`${what}: ${describeFsError(error)}`);
  }
}

async function restore(fs: PatchFilesystem, backup: string, path: string, shown: string): Promise<void> {
  try {
    await fs.rename(backup, path);
  } catch (error) {
    throw new StepFailure(
      `could not restore ${shown} (${describeFsError(error)}); its previous content is in ${basename(backup)}`,
    );
  }
}

async function removeCreated(fs: PatchFilesystem, path: string, shown: string): Promise<void> {
  try {
    await fs.removeFile(path);
  } catch (error) {
    throw new StepFailure(`could not remove the new file ${shown} (${describeFsError(error)})`);
  }
}

/** node:fs messages end with the paths involved; the agent gets the code and its meaning only. */
function describeFsError(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  const message = error instanceof Error ? error.message : String(error);
  if (typeof code === 'string' && message.startsWith(`${code}: `)) return message.split(', ')[0] ?? code;
  return code ?? message;
}

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));
