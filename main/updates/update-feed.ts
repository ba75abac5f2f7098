import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import YAML from 'yaml';

/** The file electron-builder writes into an installed app's resources from `publish` in electron-builder.yml. */
export const UPDATE_FEED_FILE = 'app-update.yml';

/**
 * Whether this copy of the app knows where its updates come from: electron-builder names a provider in
 * app-update.yml only when it could tell which GitHub repository the build was made from.
 */
export async function hasUpdateSource(resourcesPath: string): Promise<boolean> {
  try {
    const feed: unknown = YAML.parse(await readFile(join(resourcesPath, UPDATE_FEED_FILE), 'utf8'));
    return (
      typeof feed === 'object' &&
      feed !== null &&
      typeof (feed as { provider?: unknown }).provider === 'string'
    );
  } catch {
    return false;
  }
}
