import { join, parse, relative, sep } from 'node:path';

/** The three folders an agent's paths are read against. */
export interface SandboxLayout {
  orgPath: string;
  /** `<org>/agents/<folder>/workspace`: where relative paths lead. */
  workspacePath: string;
  /** `<org>/shared`: where paths whose first folder is `shared` lead. */
  sharedPath: string;
}

export function agentLayout(orgPath: string, agentDir: string): SandboxLayout {
  return { orgPath, workspacePath: join(agentDir, 'workspace'), sharedPath: join(orgPath, 'shared') };
}

/**
 * Whether `target` is `root` or inside it, comparing whole names: `/org/shared-evil` is not inside
 * `/org/shared`, and a name that merely starts with `..` is inside. Both paths must be absolute and
 * normalized. Names are compared exactly, on every platform: both sides come from realpath, which
 * gives the names as stored, so a case or Unicode variant can only make this answer "outside".
 */
export function isWithin(root: string, target: string): boolean {
  const rootNames = names(root);
  const targetNames = names(target);
  return (
    rootNames.length <= targetNames.length && rootNames.every((name, index) => name === targetNames[index])
  );
}

/** `target` relative to `root` with "/" between names ("." for the root itself); `target` must be within. */
export function relativeWithin(root: string, target: string): string {
  const path = relative(root, target);
  return path === '' ? '.' : path.split(sep).join('/');
}

/**
 * How an agent would write `target`: relative to its workspace, `shared/…` for the shared folder,
 * relative to the org for the rest of it, and absolute outside the org.
 */
export function displayPath(layout: SandboxLayout, target: string): string {
  if (isWithin(layout.workspacePath, target)) return relativeWithin(layout.workspacePath, target);
  if (isWithin(layout.sharedPath, target)) {
    const inside = relativeWithin(layout.sharedPath, target);
    return inside === '.' ? 'shared' : `shared/${inside}`;
  }
  if (isWithin(layout.orgPath, target)) return relativeWithin(layout.orgPath, target);
  return target;
}

function names(path: string): string[] {
  const root = parse(path).root;
  return [
    root,
    ...path
      .slice(root.length)
      .split(sep)
      .filter((name) => name !== ''),
  ];
}
