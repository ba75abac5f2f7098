import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { GALLERY_FILE } from '../app/templates';
import { CliFailure } from './cli-io';

/**
 * The templates shipped with the command: `templates/` beside the bundle (out/cli/templates, written by
 * scripts/build-cli-bundle.mjs), looked for above this module, whose file is out/cli/chunks in the bundle
 * and engine/cli here, where the repository's own templates/ is found.
 */
export function shippedTemplatesFolder(): string | null {
  let folder = dirname(fileURLToPath(import.meta.url));
  for (let level = 0; level < 4; level++) {
    const candidate = join(folder, 'templates');
    if (existsSync(join(candidate, GALLERY_FILE))) return candidate;
    folder = dirname(folder);
  }
  return null;
}

/** The shipped templates' folder, or a failure saying they are not installed. */
export function templatesFolder(): string {
  const folder = shippedTemplatesFolder();
  if (!folder)
    throw new CliFailure(
      'the templates are not installed beside this command. Run `npm run build:cli`, or install LeMMing Desktop again.',
    );
  return folder;
}
