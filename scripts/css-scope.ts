// The renderer's style scoping rule (npm run lint): a class a view's stylesheet styles (as the subject of
// a selector) belongs to that view; no other view's stylesheet may style it. Shared classes live in the
// shared stylesheets (renderer/src/*.css, renderer/src/components/), which views may refine.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const VIEWS = join(REPO_ROOT, 'renderer', 'src', 'views');
const SHARED = [
  join(REPO_ROOT, 'renderer', 'src'),
  join(REPO_ROOT, 'renderer', 'src', 'components'),
  join(REPO_ROOT, 'renderer', 'src', 'shared'),
];

/** The classes a stylesheet styles: those in the last compound of each selector. */
export function subjectClasses(css: string): Set<string> {
  const classes = new Set<string>();
  const withoutComments = css.replace(/\/\*[\s\S]*?\*\//g, '');
  for (const match of withoutComments.matchAll(/([^{}]+)\{/g)) {
    const prelude = match[1]!;
    if (prelude.trim().startsWith('@')) continue;
    for (const selector of prelude.split(',')) {
      const subject =
        selector
          .trim()
          .split(/\s+|\s*[>+~]\s*/)
          .at(-1) ?? '';
      const withoutArguments = subject.replace(/:(where|is|not|has)\([^)]*\)/g, '');
      for (const name of withoutArguments.matchAll(/\.(-?[_a-zA-Z][\w-]*)/g)) classes.add(name[1]!);
    }
  }
  return classes;
}

/**
 * Classes styled by more than one view. `stylesheets` maps a view's name to its stylesheets' text;
 * `shared` is the text of the shared stylesheets, whose classes any view may refine.
 */
export function scopeClashes(
  stylesheets: Record<string, string[]>,
  shared: string[],
): { name: string; views: string[] }[] {
  const sharedClasses = new Set(shared.flatMap((css) => [...subjectClasses(css)]));
  const owners = new Map<string, Set<string>>();
  for (const [view, sheets] of Object.entries(stylesheets))
    for (const css of sheets)
      for (const name of subjectClasses(css)) {
        if (sharedClasses.has(name)) continue;
        owners.set(name, new Set([...(owners.get(name) ?? []), view]));
      }
  return [...owners]
    .filter(([, views]) => views.size > 1)
    .map(([name, views]) => ({ name, views: [...views].sort() }));
}

function cssFiles(folder: string, recursive: boolean): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return recursive ? cssFiles(path, true) : [];
    return entry.name.endsWith('.css') ? [path] : [];
  });
}

/** The repository's view stylesheets, by view (the first folder under renderer/src/views). */
export function repositoryStylesheets(): { stylesheets: Record<string, string[]>; shared: string[] } {
  const stylesheets: Record<string, string[]> = {};
  for (const file of cssFiles(VIEWS, true)) {
    const view = relative(VIEWS, file).split(sep)[0]!;
    (stylesheets[view] ??= []).push(readFileSync(file, 'utf8'));
  }
  const shared = SHARED.flatMap((folder) => cssFiles(folder, false)).map((file) =>
    readFileSync(file, 'utf8'),
  );
  return { stylesheets, shared };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { stylesheets, shared } = repositoryStylesheets();
  const clashes = scopeClashes(stylesheets, shared);
  for (const { name, views } of clashes)
    console.error(
      `.${name} is styled by the stylesheets of ${views.join(' and ')}: name it for one view, or move it to a shared stylesheet.`,
    );
  process.exitCode = clashes.length > 0 ? 1 : 0;
}
