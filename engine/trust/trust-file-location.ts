import { homedir } from 'node:os';
import { join } from 'node:path';

/** The variable that names the folder the CLI keeps its trust record in (tests give each its own). */
export const CONFIG_DIR_VARIABLE = 'LEMMING_CONFIG_DIR';

/**
 * Where the `lemming` command keeps the person's trust decisions and grants: `$LEMMING_CONFIG_DIR`,
 * else the OS's per-user configuration folder (XDG on Linux, Application Support on macOS, %APPDATA% on
 * Windows). Never inside an org: an org cannot carry its own trust.
 */
export function cliTrustFile(
  env: Record<string, string | undefined>,
  platform: NodeJS.Platform = process.platform,
): string {
  const named = env[CONFIG_DIR_VARIABLE]?.trim();
  if (named) return join(named, 'trust.json');
  const home = env.HOME?.trim() || homedir();
  if (platform === 'win32')
    return join(env.APPDATA?.trim() || join(home, 'AppData', 'Roaming'), 'lemming', 'trust.json');
  if (platform === 'darwin') return join(home, 'Library', 'Application Support', 'lemming', 'trust.json');
  return join(env.XDG_CONFIG_HOME?.trim() || join(home, '.config'), 'lemming', 'trust.json');
}
