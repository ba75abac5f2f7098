import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

/**
 * A checkout of LeMMing (the Python engine) the parity tests run, at $LEMMING_CHECKOUT or /tmp/c-lemming,
 * with python3 to run it; null when there is none (those tests then skip, and say so in their titles).
 */
export function lemmingCheckout(): string | null {
  const found = [process.env.LEMMING_CHECKOUT, '/tmp/c-lemming'].find(
    (path): path is string => path !== undefined && existsSync(join(path, 'lemming', 'engine.py')),
  );
  return found && spawnSync('python3', ['--version']).status === 0 ? found : null;
}
