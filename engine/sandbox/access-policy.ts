import { isAbsolute, join, resolve } from 'node:path';
import type { Result } from '../api/result';
import type { Resume } from '../org/resume-schema';
import type { PathResolver } from './agent-filesystem';
import { realPathOf, type RealPath } from './canonicalize';
import { protectedTarget, workspacesHeldBy } from './protected-places';
import { isWithin, relativeWithin, type SandboxLayout } from './sandbox-layout';
import {
  CONTROL_CHARACTER,
  HOST_FLAVOR,
  LONE_SURROGATE,
  screenRawPath,
  type PathFlavor,
} from './screen-raw-path';

export type FileAccess = NonNullable<Resume['permissions']['file_access']>;

export const ACCESS_ACTIONS = ['read', 'write', 'delete', 'move', 'list', 'search'] as const;
export type AccessAction = (typeof ACCESS_ACTIONS)[number];
export type AccessKind = 'read' | 'write';

export function accessKindOf(action: AccessAction): AccessKind {
  return action === 'write' || action === 'delete' || action === 'move' ? 'write' : 'read';
}

/** What the user's hook is asked about: one action on one path that the folders already allow. */
export interface AccessRequest {
  action: AccessAction;
  /** The canonical path the action will touch. */
  path: string;
  /** The path as the agent wrote it. */
  requestedPath?: string;
  tool?: string;
  /** For `move`: the canonical source. */
  fromPath?: string;
  orgPath: string;
  workspacePath: string;
}

export type AccessVerdict = { allowed: true } | { allowed: false; reason: string };

/** A further, user-supplied check; it can only refuse more. A hook that throws refuses. */
export type AccessHook = (request: AccessRequest) => AccessVerdict | Promise<AccessVerdict>;

export type AccessRefusal = 'outside' | 'symlink_escape' | 'denied';

export type AccessDecision =
  { allowed: true; root: string; grant: string } | { allowed: false; code: AccessRefusal; reason: string };

/** One folder (or file) a resume grants, before it is resolved on disk. */
export interface AccessGrant {
  /** The resume entry, or `null` for a default (the workspace, shared/). */
  entry: string | null;
  /** How the grant is named to the agent and the user. */
  label: string;
  /** The grant's absolute path before links are resolved. */
  lexicalPath: string;
}

/** A grant with its canonical root, or with why it cannot be resolved. */
export type ResolvedGrant = Result<
  { grant: AccessGrant; root: string },
  { grant: AccessGrant; reason: string }
>;

export interface AccessPolicy {
  readonly layout: SandboxLayout;
  grants(kind: AccessKind): readonly AccessGrant[];
  /** Each grant's canonical root as the disk is now; grants that resolve outside the org are refused. */
  resolveGrants(kind: AccessKind): Promise<ResolvedGrant[]>;
  checkAccess(
    action: AccessAction,
    canonicalPath: string,
    details?: { lexicalPath?: string; requestedPath?: string; tool?: string; fromPath?: string },
  ): Promise<AccessDecision>;
}

export interface AccessPolicyOptions {
  layout: SandboxLayout;
  /** `permissions.file_access` of the resume: a missing list is the default, an empty list is nothing. */
  fileAccess?: FileAccess | undefined;
  fs: PathResolver;
  hook?: AccessHook | undefined;
}

/**
 * The folders an agent may read and write, from its resume. Without `file_access` (or without one of
 * its lists) the agent may read and write its workspace and shared/; a list replaces that default for
 * its own kind, so an empty list allows nothing, and reading and writing are granted separately.
 *
 * Roots are resolved again on every check, so a grant that has become a link to somewhere else is
 * judged by where it leads now. An entry must lead inside the org folder (or inside the workspace or
 * shared/, where the user may have linked those folders to another disk): by design an agent can never
 * be granted a path outside its organization, whatever its resume says.
 */
export function createAccessPolicy(options: AccessPolicyOptions): AccessPolicy {
  const { layout, fs, hook } = options;
  const grantsByKind: Record<AccessKind, AccessGrant[]> = {
    read: fileGrants(layout, options.fileAccess?.allow_read),
    write: fileGrants(layout, options.fileAccess?.allow_write),
  };

  async function resolveGrants(kind: AccessKind): Promise<ResolvedGrant[]> {
    return Promise.all(
      grantsByKind[kind].map(async (grant): Promise<ResolvedGrant> => {
        if (grant.entry === null) {
          const real = await realPathOf(grant.lexicalPath, fs);
          return real.ok
            ? { ok: true, value: { grant, root: real.value } }
            : { ok: false, error: { grant, reason: real.error.reason } };
        }
        const resolved = await resolveAccessEntry(layout.orgPath, grant.entry, fs, { layout, kind });
        return resolved.ok
          ? { ok: true, value: { grant, root: resolved.value.path } }
          : { ok: false, error: { grant, reason: resolved.error } };
      }),
    );
  }

  return {
    layout,
    grants: (kind) => grantsByKind[kind],
    resolveGrants,
    async checkAccess(action, canonicalPath, details = {}) {
      const kind = accessKindOf(action);
      const resolved = await resolveGrants(kind);
      const inside = resolved.find((grant) => grant.ok && isWithin(grant.value.root, canonicalPath));
      const { lexicalPath, ...asked } = details;
      if (!inside?.ok) {
        const throughLink =
          lexicalPath !== undefined &&
          lexicalPath !== canonicalPath &&
          resolved.some((grant) => grant.ok && isWithin(grant.value.grant.lexicalPath, lexicalPath));
        const where = describeGrants(grantsByKind[kind], kind);
        return throughLink
          ? {
              allowed: false,
              code: 'symlink_escape',
              reason: `leads through a symbolic link to a place outside the folders you may ${verb(kind)} (${where})`,
            }
          : {
              allowed: false,
              code: 'outside',
              reason: `is outside the folders you may ${verb(kind)} (${where})`,
            };
      }
      if (kind === 'write') {
        const orgReal = await realPathOf(layout.orgPath, fs);
        const reason = orgReal.ok ? await protectedTarget(orgReal.value, canonicalPath, fs) : null;
        if (reason) return { allowed: false, code: 'denied', reason };
      }
      if (hook) {
        const verdict = await askHook(hook, {
          action,
          path: canonicalPath,
          orgPath: layout.orgPath,
          workspacePath: layout.workspacePath,
          ...asked,
        });
        if (!verdict.allowed)
          return {
            allowed: false,
            code: 'denied',
            reason: `was refused by the access check: ${verdict.reason}`,
          };
      }
      return { allowed: true, root: inside.value.root, grant: inside.value.grant.label };
    },
  };
}

/** Where an entry leads (and how to show it), or why it is refused, in a sentence naming the entry. */
export type ResolvedEntry = Result<{ path: string; display: string; lexicalPath: string }, string>;

/**
 * Forms of a `file_access` entry that would not mean what the person who typed it meant: a blank entry,
 * spaces around it, `~` and variables ($HOME, %USERPROFILE%: a shell expands them, here each would be
 * an ordinary folder name inside the org), an address (file:///etc/passwd) and a pattern (shared/*).
 */
function entryFormProblem(entry: string): string | null {
  if (entry.trim() === '')
    return 'The path is blank: give a folder inside the org folder, for example shared/reports';
  if (entry !== entry.trim())
    return `${quote(entry)} has spaces at its start or end; remove them (a name with them is another folder)`;
  if (entry === '~' || entry.startsWith('~/') || entry.startsWith('~\\'))
    return `${quote(entry)} starts with "~", but ${NOT_EXPANDED}`;
  const variable = VARIABLE.exec(entry);
  if (variable) return `${quote(entry)} names ${variable[0]}, but ${NOT_EXPANDED}`;
  if (URL_FORM.test(entry))
    return `${quote(entry)} is an address (a URL), not a folder; pick a folder inside the org`;
  const pattern = GLOB.exec(entry);
  if (pattern) {
    const folder = entry.slice(0, pattern.index).split('/').slice(0, -1).join('/');
    return `${quote(entry)} is a pattern ("${pattern[0]}"), but patterns are not expanded; name one folder${folder ? `, e.g. ${folder}` : ''}`;
  }
  return null;
}

/** Shells expand these, the sandbox does not: typed into a grant, each would be a folder of that name. */
const NOT_EXPANDED = 'variables are not expanded; pick a folder inside the org';
const VARIABLE = /\$[A-Za-z_][A-Za-z0-9_]*|\$\{[^}]*\}|%[A-Za-z_][A-Za-z0-9_()]*%/;
const URL_FORM = /^[A-Za-z][A-Za-z0-9+.-]+:\/\//;
const GLOB = /[*?]/;

/**
 * A `file_access` entry (relative to the org folder, or absolute) canonicalized the way agent paths
 * are, and refused when it leads outside the org. For a `write` entry, a place no agent may ever
 * change (protected-places.ts) is refused too, since every write there would be. `layout` also admits entries inside the agent's
 * workspace and shared/ when those are links to folders elsewhere.
 */
export async function resolveAccessEntry(
  orgPath: string,
  entry: string,
  fs: PathResolver,
  options: { layout?: SandboxLayout; flavor?: PathFlavor; kind?: AccessKind } = {},
): Promise<ResolvedEntry> {
  const form = entryFormProblem(entry);
  if (form) return { ok: false, error: form };
  const screening = screenRawPath(entry, options.flavor ?? HOST_FLAVOR, 'the org folder');
  if (!screening.ok) return { ok: false, error: `${quote(entry)} ${screening.error}` };
  const lexicalPath = isAbsolute(entry) ? resolve(entry) : resolve(orgPath, entry);
  const { layout } = options;
  const bases = layout
    ? [layout.workspacePath, layout.sharedPath, orgPath]
    : [join(orgPath, 'shared'), orgPath];
  const real = await pinnedRealPath(lexicalPath, bases, orgPath, fs);
  if (!real.ok) return { ok: false, error: `${quote(entry)} ${real.error.reason}` };

  const places: [string, (inside: string) => string][] = [[orgPath, (inside) => inside]];
  if (layout)
    places.push(
      [layout.sharedPath, underName('shared')],
      [layout.workspacePath, underName(relativeWithin(orgPath, layout.workspacePath))],
    );
  const territory: { root: string; display: (inside: string) => string }[] = [];
  for (const [folder, display] of places) {
    const place = await realPathOf(folder, fs);
    if (place.ok) territory.push({ root: place.value, display });
  }
  const home = territory.find(({ root }) => isWithin(root, real.value));
  if (!home)
    return {
      ok: false,
      error: `${quote(entry)} leads outside the organization folder (to ${real.value}); an agent can only be given folders inside its organization`,
    };
  if (options.kind === 'write') {
    const orgReal = await realPathOf(orgPath, fs);
    const kept =
      orgReal.ok && workspacesHeldBy(orgReal.value, real.value) === null
        ? await protectedTarget(orgReal.value, real.value, fs)
        : null;
    if (kept)
      return {
        ok: false,
        error: `${quote(entry)} ${kept}; an agent may read there if allowed, but never write, so it cannot be given for writing`,
      };
  }
  return {
    ok: true,
    value: { path: real.value, display: home.display(relativeWithin(home.root, real.value)), lexicalPath },
  };
}

/**
 * Where a grant really leads, pinned to the folder it names: the org, shared/ and the workspace may be
 * links the user made (to another disk), but no folder named below them may be a link. A link there
 * (made by an agent's shell, say) would let whoever can change it repoint another agent's grant, so
 * the grant is refused while it is one. A path outside those places must not go through any link.
 */
async function pinnedRealPath(
  lexicalPath: string,
  bases: readonly string[],
  orgPath: string,
  fs: PathResolver,
): Promise<RealPath> {
  const shown = (path: string) => (isWithin(orgPath, path) ? relativeWithin(orgPath, path) : path);
  const refusal = (link: string, leadsTo: string | null): RealPath => ({
    ok: false,
    error: {
      code: 'invalid_path',
      reason: `${link === lexicalPath ? 'is' : `goes through ${quote(shown(link))}, which is`} a symbolic link${leadsTo === null ? '' : ` (to ${leadsTo === orgPath ? 'the org folder itself' : quote(shown(leadsTo))})`}; a grant must name a real folder, so grant the folder it leads to instead`,
    },
  });
  const base = bases.find((candidate) => isWithin(candidate, lexicalPath));
  if (base === undefined) {
    const real = await realPathOf(lexicalPath, fs);
    return real.ok && real.value !== lexicalPath ? refusal(lexicalPath, real.value) : real;
  }
  const baseReal = await realPathOf(base, fs);
  if (!baseReal.ok) return baseReal;
  let current = base;
  for (const name of relativeWithin(base, lexicalPath)
    .split('/')
    .filter((part) => part !== '.')) {
    current = join(current, name);
    const info = await fs.stat(current).catch(() => null);
    if (info === null) break;
    if (info.kind === 'symlink') {
      const leadsTo = await realPathOf(current, fs);
      return refusal(current, leadsTo.ok ? leadsTo.value : null);
    }
  }
  return realPathOf(lexicalPath, fs);
}

/** A path in a message: quoted, and escaped when it holds characters a reader would not see. */
export function quote(path: string): string {
  const shown = path.length > 200 ? `${path.slice(0, 200)}…` : path;
  return CONTROL_CHARACTER.test(shown) || LONE_SURROGATE.test(shown) ? JSON.stringify(shown) : `'${shown}'`;
}

function underName(name: string): (inside: string) => string {
  return (inside) => (inside === '.' ? name : `${name}/${inside}`);
}

/** The folders one list of `file_access` grants (a missing list: the workspace and shared/), before links are resolved. */
export function fileGrants(layout: SandboxLayout, entries: readonly string[] | undefined): AccessGrant[] {
  if (entries === undefined)
    return [
      { entry: null, label: 'your workspace', lexicalPath: layout.workspacePath },
      { entry: null, label: 'shared/', lexicalPath: layout.sharedPath },
    ];
  return entries.map((entry) => ({
    entry,
    label: entry,
    lexicalPath: isAbsolute(entry) ? resolve(entry) : resolve(layout.orgPath, entry),
  }));
}

function describeGrants(grants: readonly AccessGrant[], kind: AccessKind): string {
  if (grants.length === 0)
    return `your resume allows no folders for ${kind === 'read' ? 'reading' : 'writing'}`;
  return grants.map((grant) => grant.label).join(', ');
}

function verb(kind: AccessKind): string {
  return kind === 'read' ? 'read' : 'write to';
}

async function askHook(hook: AccessHook, request: AccessRequest): Promise<AccessVerdict> {
  try {
    const verdict = await hook(request);
    if (verdict?.allowed === true) return verdict;
    return {
      allowed: false,
      reason: verdict?.allowed === false ? verdict.reason : 'the check gave no answer',
    };
  } catch (error) {
    return {
      allowed: false,
      reason: `the check failed (${error instanceof Error ? error.message : String(error)})`,
    };
  }
}
