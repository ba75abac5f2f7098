import { lstat, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import {
  BUNDLE_FORMAT_VERSION,
  type BundleExportInput,
  type BundleIncludes,
  type BundleManifest,
  type BundlePreview,
  type LeftOut,
} from '../api/bundle-schemas';
import { fail, ok, type IpcResult } from '../api/result';
import type { ReachItem } from '../api/trust-schemas';
import { DEFAULT_BUNDLE_LIMITS, sizeInWords } from '../bundle/bundle-limits';
import { writeBundle } from '../bundle/bundle-writer';
import { isCredentialHeader } from '../net/credential-headers';
import { discoverAgents } from '../org/discover';
import { AGENTS_FOLDER } from '../org/org-layout';
import { createRedactor, type Redactor } from '../secrets/redactor';
import { revealAll, type SecretStore } from '../secrets/secret-store';
import { readOrgReach } from '../trust/org-reach';
import { bundleDepartments, departmentMembers } from './bundle-departments';
import { DEPARTMENTS_FOLDER } from '../org/departments-folder';

export interface BundleExportContext {
  readonly orgPath: string;
  /** The stored secrets: their values are searched for in every file and never written. */
  readonly secrets: SecretStore;
  /** Writes the org's timeline as JSON Lines to `file`, for a bundle with history; absent when the org has none. */
  readonly writeTimeline?: (file: string) => Promise<unknown>;
}

/** Where a bundle with history carries the org's timeline. */
export const TIMELINE_IN_BUNDLE = 'history/timeline.jsonl';

interface Planned {
  path: string;
  absolute: string;
  size: number;
}

interface Plan {
  scope: BundleManifest['scope'];
  includes: BundleIncludes;
  goesIn: Planned[];
  leftOut: LeftOut[];
  secrets: string[];
  reach: ReachItem[];
  members: string[];
}

/** What an export with these choices would put in and leave out, without writing anything. */
export async function previewBundle(
  context: BundleExportContext,
  input: BundleExportInput,
): Promise<IpcResult<BundlePreview>> {
  const plan = await planBundle(context, input);
  if (!plan.ok) return plan;
  const { scope, includes, goesIn, leftOut, secrets } = plan.value;
  return ok({
    scope,
    includes,
    goesIn: goesIn.map(({ path, size }) => ({ path, size })),
    leftOut: includes.history && !context.writeTimeline ? [...leftOut, NO_TIMELINE] : leftOut,
    secrets,
    departments: (await bundleDepartments(context.orgPath)).map((department) => department.name),
  });
}

/**
 * Writes the org (or one department of it) as a bundle at `file` (docs/BUNDLE-FORMAT.md): its files as
 * LeMMing lays them out, less run state, secrets and what was not asked for; every stored secret's
 * value is searched for in each file (in all its spellings, base64 too) and replaced by its name, and
 * header and environment values that look like keys are emptied. The manifest lists what was left out.
 */
export async function exportBundle(
  context: BundleExportContext,
  file: string,
  input: BundleExportInput,
): Promise<IpcResult<BundleManifest>> {
  const plan = await planBundle(context, input);
  if (!plan.ok) return plan;
  const { scope, includes, members, reach } = plan.value;
  const redactor = createRedactor(await revealAll(context.secrets));
  const leftOut = [...plan.value.leftOut];
  const scratch = await mkdtemp(join(tmpdir(), 'lemming-bundle-'));
  const goesIn = [...plan.value.goesIn];
  if (includes.history && context.writeTimeline) {
    const timeline = join(scratch, 'timeline.jsonl');
    await context.writeTimeline(timeline);
    goesIn.push({ path: TIMELINE_IN_BUNDLE, absolute: timeline, size: 0 });
  } else if (includes.history) leftOut.push(NO_TIMELINE);
  const secrets = new Set(plan.value.secrets);
  const sources = goesIn.map(({ path, absolute }) => ({
    path,
    bytes: async () => {
      // A file swapped for a link since it was listed would carry what the link points to.
      if (!(await lstat(absolute)).isFile()) throw new Error(`${path} is no longer a plain file`);
      const cleaned = cleanFile(path, await readFile(absolute), redactor);
      for (const name of cleaned.secrets) secrets.add(name);
      leftOut.push(...cleaned.leftOut);
      if (
        redactor.containsSecret(cleaned.bytes.toString('latin1')) ||
        redactor.containsSecret(cleaned.bytes.toString('utf8'))
      )
        throw new Error(`${path} still holds a stored secret's value after redaction; nothing was written`);
      return cleaned.bytes;
    },
  }));
  const agents = (await discoverAgents(context.orgPath)).filter(
    (agent) => scope.kind === 'org' || members.includes(agent.folder),
  );
  const departments = (await bundleDepartments(context.orgPath)).filter(
    (department) => scope.kind === 'org' || department.name === scope.name,
  );
  try {
    const manifest = await writeBundle(resolve(file), sources, (files) => ({
      format: 'lemming-bundle',
      formatVersion: BUNDLE_FORMAT_VERSION,
      createdAt: new Date().toISOString(),
      orgName: basename(resolve(context.orgPath)),
      scope,
      includes,
      agents: agents.map((agent) => ({
        folder: agent.folder,
        ...(agent.valid ? { title: agent.resume.title } : {}),
      })),
      departments,
      reach,
      secrets: [...secrets].sort(),
      leftOut,
      files,
    }));
    return ok(manifest);
  } catch (error) {
    return fail(
      'refused',
      `The bundle was not written: ${error instanceof Error ? error.message : String(error)}`,
    );
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

const NO_TIMELINE: LeftOut = { path: '.lemming/', why: 'the timeline: this org has none yet' };

/** Why a file of the org stays out of a bundle with these choices, or null when it goes in. */
function leftOutBecause(path: string, includes: BundleIncludes): string | null {
  const parts = path.split('/');
  const [top] = parts;
  if (top === '.lemming') return "this computer's run state (the timeline, locks, what was trusted)";
  if (path === TIMELINE_IN_BUNDLE && includes.history)
    return 'the timeline of an earlier bundle; this org’s own goes in';
  if (top === '.git') return 'version control data';
  if (path === 'secrets.json') return 'secret values';
  if (parts.some((part) => part === '.env' || (part.startsWith('.env.') && part !== '.env.example')))
    return 'may hold secret values';
  if (path === 'lemming/config/tick.json' && !includes.history)
    return 'run state (the next tick); asked for with history';
  if (top === 'logs' && !includes.history) return 'history (logs); asked for with history';
  if (top === 'shared' && !includes.workspaces) return 'shared workspace files; asked for with workspaces';
  if (top === AGENTS_FOLDER && parts.length > 3) {
    const kind = parts[2];
    if (kind === 'memory' && !includes.memory) return 'memory; asked for with memory';
    if (kind === 'outbox' && !includes.outboxes) return 'outbox messages; asked for with memory';
    if (kind === 'logs' && !includes.history) return 'history (logs); asked for with history';
    if (kind === 'workspace' && !includes.workspaces) return 'workspace files; asked for with workspaces';
  }
  if (top === AGENTS_FOLDER && parts[2] === '.agent-id')
    return "this computer's identity of the agent (the importer's app gives it a new one)";
  return null;
}

async function planBundle(context: BundleExportContext, input: BundleExportInput): Promise<IpcResult<Plan>> {
  const orgPath = resolve(context.orgPath);
  const includes = input.includes;
  let members: string[] = [];
  let scope: BundleManifest['scope'] = { kind: 'org' };
  if (input.department !== undefined) {
    const departments = await bundleDepartments(orgPath);
    const department = departments.find((candidate) => candidate.name === input.department);
    if (!department)
      return fail(
        'not_found',
        `This org has no department "${input.department}" (departments/${input.department}.json).`,
        undefined,
        departments.length > 0 ? `Its departments: ${departments.map((d) => d.name).join(', ')}.` : undefined,
      );
    scope = { kind: 'department', name: department.name };
    members = await departmentMembers(orgPath, department);
  }
  const goesIn: Planned[] = [];
  const leftOut: LeftOut[] = [];
  const inScope = (path: string): boolean => {
    if (scope.kind === 'org') return true;
    const parts = path.split('/');
    if (parts[0] === DEPARTMENTS_FOLDER) return parts[1] === `${scope.name}.json`;
    return parts[0] === AGENTS_FOLDER && members.includes(parts[1] ?? '');
  };
  // A path under the folder, to ask the rules about everything in it (no rule names a file by this name).
  const inside = (folder: string) => `${folder}/\u0000`;
  const enter = (folder: string) =>
    leftOutBecause(inside(folder), includes) === null &&
    (scope.kind === 'org' ||
      folder === AGENTS_FOLDER ||
      folder === DEPARTMENTS_FOLDER ||
      inScope(inside(folder)));
  for await (const found of walk(orgPath, '', enter)) {
    if (found.kind === 'folder') {
      const why = leftOutBecause(inside(found.path), includes);
      if (why && inScope(inside(found.path))) leftOut.push({ path: `${found.path}/`, why });
      continue;
    }
    if (!inScope(found.path)) continue;
    if (found.kind !== 'file') {
      leftOut.push({
        path: found.path,
        why: found.kind === 'link' ? 'a link; bundles carry no links' : 'not a plain file',
      });
      continue;
    }
    const why = leftOutBecause(found.path, includes);
    if (why) {
      leftOut.push({ path: found.path, why });
      continue;
    }
    if (found.size > DEFAULT_BUNDLE_LIMITS.fileBytes) {
      leftOut.push({
        path: found.path,
        why: `larger than the ${sizeInWords(DEFAULT_BUNDLE_LIMITS.fileBytes)} a file in a bundle may be`,
      });
      continue;
    }
    goesIn.push({ path: found.path, absolute: join(orgPath, ...found.path.split('/')), size: found.size });
  }
  const reach = (await readOrgReach(orgPath)).items.filter(
    (item) =>
      scope.kind === 'org' || members.some((folder) => item.file.startsWith(`${AGENTS_FOLDER}/${folder}/`)),
  );
  const secrets = [
    ...new Set(reach.filter((item) => item.kind === 'secret').map((item) => item.subject)),
  ].sort();
  return ok({ scope, includes, goesIn, leftOut: collapse(leftOut), secrets, reach, members });
}

/** Folders left out whole: their files are one line (`shared/`, `agents/ada/memory/`), not each file. */
const WHOLE_FOLDERS = new Set(['.lemming', '.git', 'shared', 'logs']);
const WHOLE_AGENT_FOLDERS = new Set(['memory', 'outbox', 'logs', 'workspace']);

function collapse(leftOut: readonly LeftOut[]): LeftOut[] {
  const lines: LeftOut[] = [];
  for (const item of leftOut) {
    const parts = item.path.split('/');
    const folder =
      WHOLE_FOLDERS.has(parts[0]!) && parts.length > 1
        ? `${parts[0]}/`
        : parts[0] === AGENTS_FOLDER && WHOLE_AGENT_FOLDERS.has(parts[2] ?? '') && parts.length > 3
          ? `${parts.slice(0, 3).join('/')}/`
          : item.path;
    if (!lines.some((line) => line.path === folder && line.why === item.why))
      lines.push({ path: folder, why: item.why });
  }
  return lines;
}

type Found =
  { path: string; kind: 'file'; size: number } | { path: string; kind: 'link' | 'other' | 'folder' };

/**
 * The org's files, in name order. A folder `enter` says no to is not read at all (run state, a
 * workspace not asked for: they can be large), and is given as one `folder` entry.
 */
async function* walk(
  root: string,
  relative: string,
  enter: (folder: string) => boolean,
): AsyncGenerator<Found> {
  const entries = await readdir(relative ? join(root, ...relative.split('/')) : root, {
    withFileTypes: true,
  });
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    const path = relative ? `${relative}/${entry.name}` : entry.name;
    if (entry.isSymbolicLink()) yield { path, kind: 'link' };
    else if (entry.isDirectory()) {
      if (enter(path)) yield* walk(root, path, enter);
      else yield { path, kind: 'folder' };
    } else if (entry.isFile())
      yield { path, kind: 'file', size: (await lstat(join(root, ...path.split('/')))).size };
    else yield { path, kind: 'other' };
  }
}

const KEY_NAME = /auth|key|token|secret|cookie|session|password|credential/i;
const KEY_VALUE = /^(?:(?:bearer|basic|token)\s+)?[A-Za-z0-9._~+/=-]{24,}$/i;

/**
 * A file as it goes into a bundle: stored secrets' values replaced by `[redacted:NAME]`, and in JSON
 * files, header and environment values that look like keys (and are not `${…}` references) emptied.
 * A file that is not UTF-8 text and holds a secret cannot be cleaned: the export stops.
 */
function cleanFile(
  path: string,
  bytes: Buffer,
  redactor: Redactor,
): { bytes: Buffer; secrets: string[]; leftOut: LeftOut[] } {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return { bytes, secrets: [], leftOut: [] };
  }
  const secrets = new Set<string>();
  const leftOut: LeftOut[] = [];
  if (redactor.containsSecret(text)) {
    text = redactor.redactText(text);
    for (const match of text.matchAll(/\[redacted:([A-Z][A-Z0-9_]*)\]/g)) secrets.add(match[1]!);
    leftOut.push({
      path,
      why: `a stored secret's value (${[...secrets].join(', ') || 'unnamed'}) was replaced by its name`,
    });
  }
  if (path.endsWith('.json')) {
    const emptied = emptyKeyLookingValues(text);
    if (emptied.fields.length > 0) {
      text = emptied.text;
      for (const field of emptied.fields)
        leftOut.push({
          path: `${path} → ${field}`,
          why: 'a value that looks like a key was emptied; set it again after import',
        });
    }
  }
  return { bytes: Buffer.from(text, 'utf8'), secrets: [...secrets], leftOut };
}

function emptyKeyLookingValues(text: string): { text: string; fields: string[] } {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { text, fields: [] };
  }
  const fields: string[] = [];
  const visit = (value: unknown, path: string[]): void => {
    if (Array.isArray(value)) value.forEach((item, index) => visit(item, [...path, String(index)]));
    else if (value !== null && typeof value === 'object') {
      const record = value as Record<string, unknown>;
      for (const [key, child] of Object.entries(record)) {
        const underKeys = ['headers', 'env'].includes(path.at(-1) ?? '');
        if (
          underKeys &&
          typeof child === 'string' &&
          child !== '' &&
          !child.includes('${') &&
          (isCredentialHeader(key) || KEY_NAME.test(key) || KEY_VALUE.test(child.trim()))
        ) {
          record[key] = '';
          fields.push([...path, key].join('.'));
        } else visit(child, [...path, key]);
      }
    }
  };
  visit(json, []);
  return fields.length > 0 ? { text: `${JSON.stringify(json, null, 2)}\n`, fields } : { text, fields };
}
