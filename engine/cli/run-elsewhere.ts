import { resolve } from 'node:path';
import { heldMessage, runLockHolder } from '../org/org-lock';

/**
 * Why `org` cannot be run now (another program holds its run lock), or null. Light on purpose: the
 * `lemming` binary asks it before loading the rest of the CLI, so a second run is refused at once.
 */
export function runElsewhereMessage(org: string): string | null {
  const holder = runLockHolder(resolve(org));
  return holder ? heldMessage(holder) : null;
}
