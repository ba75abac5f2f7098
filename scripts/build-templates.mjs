// Writes the templates as they ship (docs/ARCHITECTURE.md, “Templates”): gallery.json and, per template it
// lists, template.json and the org folder, without any run state a local try left in the source folder.
// The app ships out/templates (electron-builder.yml) and the CLI bundle its own copy beside it
// (scripts/build-cli-bundle.mjs). An argument names another output folder.
import { cpSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const SOURCE = fileURLToPath(new URL('../templates', import.meta.url));
/** What running an org writes; a template ships none of it. */
const RUN_STATE =
  /^(\.lemming|agents\/[^/]+\/(outbox|memory|logs|workspace)|lemming\/config\/(credits|tick)\.json)(\/|$)/;

export function buildTemplates(outdir) {
  const target = resolve(outdir);
  rmSync(target, { recursive: true, force: true });
  mkdirSync(target, { recursive: true });
  cpSync(join(SOURCE, 'gallery.json'), join(target, 'gallery.json'));
  for (const name of JSON.parse(readFileSync(join(SOURCE, 'gallery.json'), 'utf8'))) {
    const from = join(SOURCE, name);
    cpSync(from, join(target, name), {
      recursive: true,
      filter: (path) => {
        const inOrg = relative(join(from, 'org'), path).split(sep).join('/');
        return inOrg.startsWith('..') || !RUN_STATE.test(inOrg);
      },
    });
  }
  return target;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url))
  buildTemplates(process.argv[2] ?? 'out/templates');
