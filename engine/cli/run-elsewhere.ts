import { statSync } from 'node:fs';
import { hostname } from 'node:os';
import { resolve } from 'node:path';
import { heldMessage, runLockHolder, takeRunLockAhead } from '../org/org-lock';

/**
 * Why `org` cannot be run now (another program holds its run lock), or null when nobody or this very
 * process holds it.
 */
export function runElsewhereMessage(org: string): string | null {
  const holder = runLockHolder(resolve(org));
  if (!holder || (holder.pid === process.pid && holder.host === hostname())) return null;
  return heldMessage(holder);
}

/**
 * For the `lemming` binary, before it loads the rest of the CLI (a second or more): takes the org's run
 * lock for `program` (the engine receives it), or returns why it cannot. Light on purpose, so that of two
 * runs started together the second is refused within a moment. A path that is not a folder is left to
 * the command to explain.
 */
export function claimRunAhead(org: string, program: string): string | null {
  const path = resolve(org);
  if (statSync(path, { throwIfNoEntry: false })?.isDirectory() !== true) return null;
  // Looking first answers a held lock at once; taking it waits a moment out for programs only looking.
  const elsewhere = runElsewhereMessage(path);
  if (elsewhere) return elsewhere;
  const attempt = takeRunLockAhead(path, { program });
  return attempt.ok ? null : attempt.error.message;
}
