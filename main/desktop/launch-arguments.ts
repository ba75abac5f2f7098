import { isAbsolute, resolve } from 'node:path';

/** The scheme of links that open an org in the app: `lemming://open?path=/path/to/org`. */
export const LINK_SCHEME = 'lemming';

/** What a launch asks of the app beyond starting it: an org folder to open, or nothing. */
export type LaunchRequest = { kind: 'open_org'; path: string } | { kind: 'none' };

/**
 * Reads what a launch was given: the first `lemming://open?path=…` link, else the first argument
 * that is not a switch (`--flag`) nor the program itself, as a folder relative to where it was started.
 * Whether the folder is an org is the engine's to say when it opens it.
 */
export function launchRequestOf(argv: readonly string[], workingDirectory: string): LaunchRequest {
  const args = argv.slice(1).filter((arg) => arg.length > 0);
  for (const arg of args) {
    if (!arg.toLowerCase().startsWith(`${LINK_SCHEME}:`)) continue;
    const path = pathOfLink(arg);
    return path ? { kind: 'open_org', path } : { kind: 'none' };
  }
  const folder = args.find((arg) => !arg.startsWith('-') && !isAppEntry(arg));
  if (!folder) return { kind: 'none' };
  return { kind: 'open_org', path: isAbsolute(folder) ? folder : resolve(workingDirectory, folder) };
}

function pathOfLink(link: string): string | null {
  let url: URL;
  try {
    url = new URL(link);
  } catch {
    return null;
  }
  const action = (url.hostname || url.pathname.replace(/^\/+/, '')).toLowerCase();
  if (action !== 'open') return null;
  const path = url.searchParams.get('path');
  return path && isAbsolute(path) ? path : null;
}

/** `electron .` and `electron out/main/index.cjs` in a developer checkout pass the app itself as an argument. */
function isAppEntry(arg: string): boolean {
  return arg === '.' || /(^|[\\/])out[\\/]main[\\/]index\.c?js$/.test(arg);
}
